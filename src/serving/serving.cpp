#include "icx/serving/serving.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "icx/base/error.hpp"

namespace icx {

std::string_view pass_name(Phase phase) {
  return phase == Phase::prefill ? "prefill pass" : "decode step";
}

std::string_view latency_name(Phase phase) {
  return phase == Phase::prefill ? "TTFT" : "TPOT";
}

ParamSplit param_split(const Model& model) {
  ParamSplit split;
  split.dense = model.total_params;
  if (!model.is_moe() || model.total_params <= model.active_params) {
    return split;
  }
  if (model.experts_per_token >= model.experts) {
    throw InputError(fmt::format("model '{}' routes each token to all {} experts, so its active "
                                 "parameters should equal its total",
                                 model.id, model.experts));
  }
  split.per_expert = (model.total_params - model.active_params) /
                     static_cast<double>(model.experts - model.experts_per_token);
  split.dense = model.total_params - model.experts * split.per_expert;
  split.moe_layers = model.layers - model.first_dense_layers;
  return split;
}

const Dtype& expert_dtype(const Catalog& catalog, const Model& model, const Dtype& weights) {
  return model.expert_dtype.empty() ? weights : catalog.dtype(model.expert_dtype);
}

Bytes model_weight_bytes(const Model& model, const Dtype& weights, const Dtype& experts) {
  const ParamSplit split = param_split(model);
  const double routed = split.per_expert * model.experts;
  return Bytes::of(split.dense * weights.bytes_per_element + routed * experts.bytes_per_element);
}

HeadWidths head_widths(const Model& model, Phase phase) {
  if (const auto& mla = model.latent_attention) {
    if (phase == Phase::decode) {
      // Absorbed: every head attends over the cached latent and its rotary key, and the
      // value is the latent itself (DeepSeek-V2 paper, section 2.1.2).
      return {static_cast<double>(mla->kv_lora_rank + mla->qk_rope_head_dim),
              static_cast<double>(mla->kv_lora_rank)};
    }
    if (mla->qk_nope_head_dim > 0 && mla->v_head_dim > 0) {
      return {static_cast<double>(mla->qk_nope_head_dim + mla->qk_rope_head_dim),
              static_cast<double>(mla->v_head_dim)};
    }
  }
  return {static_cast<double>(model.head_dim), static_cast<double>(model.head_dim)};
}

double attention_flops(const Model& model, Phase phase, std::int64_t tokens, std::int64_t context) {
  const HeadWidths width = head_widths(model, phase);
  // One multiply-add (2 FLOPs) per query-key pair and width, for the scores and again for
  // the values.
  const double per_pair = 2.0 * model.attention_heads * (width.key + width.value);
  // Prefill is causal: token i attends to i earlier tokens, t²/2 pairs over a prompt of t; a
  // decode step's token to the whole context.
  const auto causal = [](double t, double window) {
    // A sliding-window layer: the first `window` tokens as above, every later one `window`.
    return t <= window ? t * t / 2 : window * window / 2 + (t - window) * window;
  };
  const auto attended = [&](double window) {
    const auto cached = static_cast<double>(context);
    if (phase == Phase::decode) {
      return std::min(cached, window);
    }
    // After a cached prefix, the new tokens' pairs: the whole prompt's less the prefix's own.
    return causal(cached + static_cast<double>(tokens), window) - causal(cached, window);
  };
  const double everything = std::numeric_limits<double>::infinity();
  const int sliding = model.sliding_layers;
  if (const auto& dsa = model.sparse_attention) {
    // DeepSeek Sparse Attention: each query attends to at most the indexer's top-k tokens, the
    // pairs a window of that many counts; the indexer scores every pair, one multiply-add per
    // head and width of its own.
    const double indexer = 2.0 * dsa->index_heads * dsa->index_head_dim;
    return model.layers * (per_pair * attended(dsa->topk) + indexer * attended(everything));
  }
  return per_pair * ((model.layers - sliding) * attended(everything) +
                     (sliding > 0 ? sliding * attended(model.sliding_window) : 0.0));
}

std::int64_t prefix_share(std::int64_t prompt, double hit) {
  return std::llround(static_cast<double>(prompt) * hit);
}

std::int64_t prefix_cached(std::int64_t prompt, double hit, std::int64_t block) {
  const std::int64_t tokens =
      std::clamp<std::int64_t>(prefix_share(prompt, hit), 0, std::max<std::int64_t>(prompt - 1, 0));
  const std::int64_t whole = std::max<std::int64_t>(block, 1);
  return tokens / whole * whole;
}

double experts_touched(int experts, int per_token, double tokens) {
  if (experts <= 0 || tokens <= 0) {
    return 0;
  }
  const double miss = 1.0 - static_cast<double>(per_token) / experts;
  return experts * (1.0 - std::pow(miss, tokens));
}

double busiest_gpu_experts(int experts, int per_token, double tokens, int group) {
  const double touched = experts_touched(experts, per_token, tokens);
  const double held = static_cast<double>(experts) / group;
  if (group <= 1) {
    return touched;
  }
  const double mean = touched / group;
  const double busiest = mean + std::sqrt(2.0 * mean * std::log(static_cast<double>(group)));
  return std::min({busiest, held, touched});
}

} // namespace icx
