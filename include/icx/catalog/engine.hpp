// A serving engine as the catalog describes it: its scheduler's defaults, its own costs, how
// it sizes its KV cache and how it is started.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/link.hpp"

namespace icx {

/// The limits an engine's scheduler starts with on one class of GPUs, when no flag sets them.
struct SchedulerTier {
  std::string name;
  /// The tier applies to GPUs with at least this much HBM (none: every GPU)…
  Bytes min_hbm;
  /// …whose id contains none of these (GPUs the engine keeps on a smaller tier).
  std::vector<std::string> except;
  /// Sequences one scheduler runs at once.
  std::int64_t max_batch = 0;
  /// Prompt tokens one step prefills beside its decodes (chunked prefill).
  std::int64_t prefill_chunk = 0;
  /// Chunked prefill off: a step prefills whole prompts, as many as fit in the model's
  /// longest context (Model::max_context, the engine's max_model_len and its token budget);
  /// prefill_chunk is then 0.
  bool whole_prompts = false;
  /// No memory floor and no exceptions: the tier every GPU falls back to.
  [[nodiscard]] bool applies_to_every_gpu() const { return min_hbm.value() == 0 && except.empty(); }
  bool operator==(const SchedulerTier&) const = default;
};

/// The order an engine's scheduler runs prompts and decodes in one step.
enum class SchedulePolicy {
  /// A step runs every decode in flight, then prompt chunks in the token budget left (vLLM
  /// V1; TensorRT-LLM's in-flight batching mixes them likewise).
  decode_first,
  /// A step with prompts waiting prefills them alone, the decodes waiting for the next step
  /// (SGLang's default schedule).
  prefill_first,
};

constexpr std::array<EnumName<SchedulePolicy>, 2> enum_names(SchedulePolicy /*unused*/) {
  return {{{SchedulePolicy::decode_first, "decode-first"},
           {SchedulePolicy::prefill_first, "prefill-first"}}};
}

/// When an engine's scheduler takes a request's KV cache.
enum class KvAdmission {
  /// As its tokens arrive: a request is admitted while its prompt fits, and a full cache
  /// preempts the newest request to recompute later (vLLM V1, SGLang).
  on_demand,
  /// All of it at admission, prompt and every output token, so no request is ever preempted
  /// (TensorRT-LLM's default capacity scheduler, GUARANTEED_NO_EVICT).
  whole_request,
};

constexpr std::array<EnumName<KvAdmission>, 2> enum_names(KvAdmission /*unused*/) {
  return {{{KvAdmission::on_demand, "on-demand"}, {KvAdmission::whole_request, "whole-request"}}};
}

/// What an engine spends beside the GPUs' kernels, fitted on published serving runs
/// (tools/fit/fit_engines.py).
struct EngineCosts {
  /// Per engine step, prefill or decode: scheduling, sampling, launching the step (a
  /// CUDA-graph replay in decode).
  Seconds step;
  /// Per layer of a stage and step: the gaps between a layer's kernels, which the kernel
  /// curves (each kernel timed alone) do not hold.
  Seconds layer;
  /// Per sequence one scheduler runs in a step: preparing its inputs, sampling its token and
  /// handing the token to the server, work on the host that grows with the batch.
  Seconds sequence;
  /// Per request, outside the GPUs' steps: the HTTP server, tokenizing the prompt, returning
  /// the first token. In a request's TTFT, not in the GPUs' time.
  Seconds request;
  /// Per step that prefills: the engine's own time for a prompt pass beyond its kernels, on
  /// the GPUs' path (a pass run without CUDA graphs launches every kernel from the host), so
  /// the decodes waiting behind it wait for it too. In TTFT and in every step holding a prompt.
  Seconds prefill_step;
  /// A prefill pass's time over its measured kernels' time alone: the norms, activations,
  /// rotary embedding and sampling between the kernels the curves time. It multiplies the
  /// part of a prefill priced by measured curves only (an assumed utilisation of peak stands
  /// for the whole pass already). Fitted on published runs (tools/fit/fit_engines.py).
  double prefill_pass_scale = 1;
  /// The share of a prefill's priced work and collectives the engine's steps take: 1 as
  /// shipped; `icx calibrate --serving` fits it to a user's runs, where the engine prefills
  /// faster or slower than icx prices it.
  double prompt_scale = 1;
  /// A decode's attention walking each sequence's cache on one thread block per KV head: per
  /// context token and layer, the time the GPU's HBM takes to move this many bytes (one
  /// block's reads run far below the whole GPU's, and are taken to scale with its bandwidth,
  /// an assumption). A layer's attention priced by a measured curve then takes at least its
  /// context × that. None: the curve alone.
  Bytes context_walk;
  bool operator==(const EngineCosts&) const = default;
};

/// The figures of an engine's "costs", by their catalog names, in catalog order.
inline constexpr std::array<std::string_view, 8> engine_cost_figures{
    "step_us",         "layer_us",           "request_us",   "sequence_us",
    "prefill_step_us", "prefill_pass_scale", "prompt_scale", "context_walk_bytes"};

/// Sets `figure` (a name of engine_cost_figures) of `to` to `from`'s.
void copy_engine_cost(std::string_view figure, EngineCosts& to, const EngineCosts& from);

/// Whether `figure` of `costs` adds anything: a time or walk above zero, a scale other than 1.
[[nodiscard]] bool engine_cost_counts(std::string_view figure, const EngineCosts& costs);

/// What an engine's fraction of memory is a fraction of.
enum class MemoryBasis {
  /// Of the GPU's whole memory: the weights, the profiled activations and the runtime's own
  /// memory come out of it (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static).
  device,
  /// Of the memory left free once the weights are loaded and a profiling run has finished
  /// (TensorRT-LLM's free_gpu_memory_fraction).
  free,
};

constexpr std::array<EnumName<MemoryBasis>, 2> enum_names(MemoryBasis /*unused*/) {
  return {{{MemoryBasis::device, "device"}, {MemoryBasis::free, "free"}}};
}

/// SGLang's default mem_fraction_static: the memory it keeps back, in MiB, is `fixed` plus
/// `per_chunk_token` for each token of the prefill chunk (at least `min_chunk`), plus
/// `per_graph_sequence` for each sequence of its largest CUDA graph, plus `per_group_gpu` for
/// each GPU of the tensor × pipeline group; at least `floor` on GPUs above `floor_above`.
struct MemoryReserveRule {
  double fixed_MiB = 0;
  double per_chunk_token_MiB = 0;
  std::int64_t min_chunk = 0;
  double per_graph_sequence_MiB = 0;
  std::int64_t graph_sequences = 0;
  double per_group_gpu_MiB = 0;
  double floor_MiB = 0;
  double floor_above_MiB = 0;
  bool operator==(const MemoryReserveRule&) const = default;
};

/// How an engine sizes its KV cache: what it gives the weights and the cache on each GPU.
struct EngineMemory {
  /// The engine's own name for its fraction (gpu_memory_utilization).
  std::string setting;
  MemoryBasis basis = MemoryBasis::device;
  /// The fraction of `basis` the engine fills; with `reserve`, derived from it instead.
  double fraction = 0;
  std::optional<MemoryReserveRule> reserve;
  /// The engine subtracts the peak activation of a profiling forward over one prefill chunk.
  bool profiles_activation = false;
  /// Memory outside the weights and the cache allocator: the CUDA context, library
  /// workspaces and communicator buffers.
  Bytes runtime;
  std::string source;
  bool operator==(const EngineMemory&) const = default;
};

/// The command line family an engine is started with (icx/serving/launch.hpp writes it).
enum class LaunchStyle {
  /// `vllm serve CHECKPOINT`: data-parallel ranks as attention ranks of an MoE model, expert
  /// parallelism a switch over them.
  vllm,
  /// `python -m sglang.launch_server`: tensor degree over the whole group, DP attention and
  /// the expert degree given alongside.
  sglang,
  /// `trtllm-serve CHECKPOINT`: one server per replica, attention DP and the KV cache dtype in
  /// an options file.
  trtllm,
};

constexpr std::array<EnumName<LaunchStyle>, 3> enum_names(LaunchStyle /*unused*/) {
  return {{{LaunchStyle::vllm, "vllm"},
           {LaunchStyle::sglang, "sglang"},
           {LaunchStyle::trtllm, "trtllm"}}};
}

/// What an engine adds to a speculative decode step beyond the GPUs' drafts and checking pass
/// (--spec): per step, the rejection sampler and the draft's own pass over the tokens just
/// accepted; per draft, launching the draft's forward and sampling it.
struct SpeculationCosts {
  Seconds step;
  Seconds draft;
  std::string source;
  bool operator==(const SpeculationCosts&) const = default;
};

/// How an engine's prefix cache finds a prompt's tokens: in whole blocks of `block_tokens`
/// (vLLM's KV blocks), or token by token (1: SGLang's radix cache, TensorRT-LLM's partial
/// block reuse).
struct PrefixCache {
  std::int64_t block_tokens = 1;
  std::string source;
  bool operator==(const PrefixCache&) const = default;
};

/// How an engine is started: its command family and where its flags are documented.
struct EngineLaunch {
  LaunchStyle style = LaunchStyle::vllm;
  std::string source;
  bool operator==(const EngineLaunch&) const = default;
};

/// A serving engine: the version its figures describe, the all-reduce implementation its
/// tensor-parallel layers call (an --impl name, checked where the wire model is known), its
/// scheduler's defaults by GPU and its own costs.
struct Engine : Entry {
  std::string version;
  std::string implementation;
  EngineCosts costs;
  /// At least one tier applies to every GPU; of the tiers that apply, the one with the most
  /// memory wins (icx/serving/engine.hpp).
  std::vector<SchedulerTier> scheduler;
  SchedulePolicy policy = SchedulePolicy::decode_first;
  KvAdmission kv_admission = KvAdmission::on_demand;
  /// Absent: the GPU's memory less default_memory_reserve (icx/memory/hbm.hpp).
  std::optional<EngineMemory> memory;
  /// Absent: icx writes no launch command for the engine.
  std::optional<EngineLaunch> launch;
  /// Absent: a speculative step costs the GPUs' drafts and checking pass alone.
  std::optional<SpeculationCosts> speculation;
  /// Absent: the cache finds a prompt's tokens one by one.
  std::optional<PrefixCache> prefix_cache;
  /// Another engine's id whose measured kernel curves (a GPU's engine_curves) price this one's
  /// kernels: an older backend of the same engine, which calls the same kernel libraries.
  /// Empty: its own.
  std::string kernels_from;
  /// Another engine's id whose costs stand for the figures this entry's "costs" leaves out:
  /// figures no published run of this engine has fitted, taken as that engine's (an
  /// assumption, which the engine's words state). Empty: every figure its own.
  std::string costs_from;
  /// The figures of `costs` taken from costs_from (names of engine_cost_figures).
  std::vector<std::string> borrowed_costs;
  /// Whether `figure` (a name of engine_cost_figures) is one of borrowed_costs.
  [[nodiscard]] bool borrows(std::string_view figure) const {
    return std::ranges::find(borrowed_costs, figure) != borrowed_costs.end();
  }
  /// The engine id a GPU's engine_curves are looked up by: kernels_from, else its own.
  [[nodiscard]] const std::string& kernels_id() const {
    return kernels_from.empty() ? id : kernels_from;
  }
  bool operator==(const Engine&) const = default;
};

} // namespace icx
