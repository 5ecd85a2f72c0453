#include "icx/serving/engine_memory.hpp"

#include <algorithm>

#include "icx/serving/engine.hpp"

namespace icx {

namespace {

/// The widest MLP intermediate one GPU of `layout` holds for one token: a dense layer's
/// shard, or an MoE layer's experts_per_token experts spread over the expert group.
double mlp_width(const Model& model, const Layout& layout) {
  const bool dense_layers = !model.is_moe() || model.first_dense_layers > 0;
  const double dense = dense_layers ? model.intermediate_size : 0.0;
  const double expert =
      model.moe_intermediate_size > 0 ? model.moe_intermediate_size : model.intermediate_size;
  const double routed =
      model.is_moe() ? static_cast<double>(model.experts_per_token) * expert / layout.ep : 0.0;
  return std::max(dense, routed) / layout.tp;
}

/// Bytes of one FP32 value: the sampler's logits and probabilities.
constexpr double fp32_bytes = 4;

} // namespace

Bytes profiled_activation(const Model& model, const Layout& layout, const Dtype& activations,
                          std::int64_t tokens, std::int64_t sequences) {
  // Per token: the MLP's gate and up outputs and their product (3 × width), and the input,
  // residual, normalised input and output (4 × hidden).
  const double per_token = 3 * mlp_width(model, layout) + 4.0 * model.hidden;
  const double forward = static_cast<double>(tokens) * per_token * activations.bytes_per_element;
  // The sampler: logits and probabilities, FP32, one row of the vocabulary per sequence.
  const double sampler = 2 * static_cast<double>(sequences) * model.vocab_size * fp32_bytes;
  return Bytes::of(forward + sampler);
}

double reserve_rule_fraction(const MemoryReserveRule& rule, Bytes device, std::int64_t chunk,
                             const Layout& layout) {
  const double device_MiB = device.value() / mebi;
  double kept = rule.fixed_MiB +
                rule.per_chunk_token_MiB * static_cast<double>(std::max(chunk, rule.min_chunk)) +
                rule.per_graph_sequence_MiB * static_cast<double>(rule.graph_sequences) +
                rule.per_group_gpu_MiB * layout.tp * layout.pp;
  if (device_MiB > rule.floor_above_MiB) {
    kept = std::max(kept, rule.floor_MiB);
  }
  return std::clamp((device_MiB - kept) / device_MiB, 0.0, 1.0);
}

MemoryBudget memory_budget(const Gpu& gpu, const Workload& workload, const Layout& layout,
                           Bytes weights) {
  MemoryBudget budget;
  budget.device = gpu.memory();
  const EngineMemory* rule =
      workload.engine != nullptr && workload.engine->memory ? &*workload.engine->memory : nullptr;
  if (workload.memory_reserve || rule == nullptr) {
    budget.reserve = workload.memory_reserve.value_or(default_memory_reserve);
    budget.usable = usable_hbm(gpu, 1, *budget.reserve);
    return budget;
  }
  budget.rule = rule;
  // The engine profiles a forward over its token budget: the one given, else its default.
  budget.profile_tokens =
      prefill_chunk_or_default(workload.prefill_chunk, *workload.engine, gpu, *workload.model);
  budget.fraction = rule->reserve ? reserve_rule_fraction(*rule->reserve, budget.device,
                                                          budget.profile_tokens, layout)
                                  : rule->fraction;
  if (rule->profiles_activation) {
    budget.activation = profiled_activation(*workload.model, layout, *workload.act_dtype,
                                            budget.profile_tokens, workload.max_batch);
  }
  budget.runtime = rule->runtime;
  const Bytes held = budget.activation + budget.runtime;
  if (rule->basis == MemoryBasis::device) {
    budget.usable = budget.device * budget.fraction - held;
  } else {
    // The fraction of what the weights, the profiling run and the runtime leave free, with
    // the weights themselves.
    budget.usable = weights + (budget.device - weights - held) * budget.fraction;
  }
  return budget;
}

} // namespace icx
