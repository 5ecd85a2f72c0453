// What one step of serving does with a model, independent of the wire: the phases and
// objectives, the dtypes that cross the wire and fill the KV cache, attention FLOPs, and how
// many experts a batch touches.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "icx/base/enum_names.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// prefill: one forward pass over each sequence's prompt; decode: one step, one token per
/// sequence.
enum class Phase { prefill, decode };

constexpr std::array<EnumName<Phase>, 2> enum_names(Phase /*unused*/) {
  return {{{Phase::prefill, "prefill"}, {Phase::decode, "decode"}}};
}

/// What one pass of a phase is called: "prefill pass", "decode step".
std::string_view pass_name(Phase phase);

/// What a request sees of one pass: "TTFT" for prefill, "TPOT" for decode.
std::string_view latency_name(Phase phase);

/// What a ranking of layouts minimises or maximises: the time of one pass as a request sees
/// it (TTFT for prefill, TPOT for decode), or tokens per second per GPU.
enum class Objective { latency, throughput };

constexpr std::array<EnumName<Objective>, 2> enum_names(Objective /*unused*/) {
  return {{{Objective::latency, "latency"}, {Objective::throughput, "throughput"}}};
}

/// Speculative decoding: a draft proposes `draft_tokens` tokens one after another, each one
/// decoder layer and the LM head (DeepSeek's MTP module, an EAGLE head), and the model checks
/// them in one pass of draft_tokens + 1 tokens per sequence, which emits `acceptance` tokens
/// on average: the drafts it accepts and the one it adds itself.
struct Speculation {
  /// "mtp" or "eagle": how the engine names the draft.
  std::string kind;
  double acceptance = 1;
  int draft_tokens = 1;
};

/// A model's parameters as a step reads them: the part every token uses (attention,
/// embeddings, dense and shared-expert MLPs) and one routed expert's parameters over all MoE
/// layers. With uniform experts, total = dense + experts · per_expert and active = dense +
/// experts_per_token · per_expert, so both follow from the two counts alone.
struct ParamSplit {
  double dense = 0;
  /// One routed expert, summed over the MoE layers; 0 for a dense model.
  double per_expert = 0;
  /// Layers whose MLP is a mixture of experts (all but the leading dense ones).
  int moe_layers = 0;
};

ParamSplit param_split(const Model& model);

/// The routed experts' dtype: the model's expert_dtype where its checkpoint stores them apart
/// (gpt-oss's MXFP4 experts), else `weights`.
const Dtype& expert_dtype(const Catalog& catalog, const Model& model, const Dtype& weights);

/// Bytes of every weight of the model, each stored once: the routed experts in `experts`, the
/// rest (attention, embeddings, dense and shared-expert MLPs) in `weights`.
Bytes model_weight_bytes(const Model& model, const Dtype& weights, const Dtype& experts);

/// Per-head widths of the two score products: the key (query·key) and the value.
struct HeadWidths {
  double key = 0;
  double value = 0;
};

/// The widths a pass computes with: the model's head width, or latent attention's expanded
/// heads in prefill and its absorbed ones (attending over the latent) in decode.
HeadWidths head_widths(const Model& model, Phase phase);

/// FLOPs of attention's two score products (Q·Kᵀ and scores·V) for one sequence over all
/// layers, beyond the 2 FLOPs per parameter: prefill over `tokens` causal tokens after
/// `context` already cached (a prefix-cache hit: tokens · context + tokens² / 2 pairs), decode
/// for one token against `context` cached ones. Latent attention is counted as engines run it:
/// expanded heads in prefill, absorbed into the latent in decode; with sparse attention each
/// query attends to at most the indexer's top-k tokens, and the indexer scores every pair.
double attention_flops(const Model& model, Phase phase, std::int64_t tokens, std::int64_t context);

/// Tokens of a prompt of `prompt` tokens found in the prefix cache at `hit` (the fraction of
/// each prompt cached), in whole blocks of `block` tokens (the engine's cache granularity): its
/// share, rounded, short of the whole prompt by one token, which the engines compute again for
/// its logits on a full hit, then down to a whole number of blocks (a block is found only when
/// every one of its tokens matches).
std::int64_t prefix_cached(std::int64_t prompt, double hit, std::int64_t block);

/// The share `hit` of a prompt of `prompt` tokens, rounded, before prefix_cached keeps it short
/// of the whole prompt and in whole blocks.
std::int64_t prefix_share(std::int64_t prompt, double hit);

/// Expected number of distinct experts that `tokens` tokens, each routed uniformly to
/// `per_token` of `experts`, hit in one layer: E · (1 − (1 − k/E)^N).
double experts_touched(int experts, int per_token, double tokens);

/// Experts the busiest of `group` GPUs (each holding experts / group of them) expects to
/// run: the mean share plus the balls-into-bins spread √(2 · mean · ln group), never more than
/// it holds or the batch touches (uniform routing assumed).
double busiest_gpu_experts(int experts, int per_token, double tokens, int group);

} // namespace icx
