// How a serving engine sizes its KV cache on one GPU of a layout: vLLM's
// gpu_memory_utilization, SGLang's mem_fraction_static and TensorRT-LLM's
// free_gpu_memory_fraction as the catalog's "memory" rules state them.
#pragma once

#include <cstdint>

#include "icx/memory/budget.hpp"
#include "icx/serving/step_model.hpp"

namespace icx {

/// The peak activation memory of one forward over `tokens` tokens on one GPU of `layout`, as
/// an engine's profiling run allocates it. Assumed: the widest MLP's intermediate is live
/// three times over (the gate and up outputs and their activated product; an MoE layer's
/// is its experts_per_token experts' on the GPU) beside four hidden-wide buffers (input,
/// residual, normalised input, output), all in `activations`' dtype; and the sampler holds
/// FP32 logits and probabilities over the whole vocabulary for `sequences` sequences.
Bytes profiled_activation(const Model& model, const Layout& layout, const Dtype& activations,
                          std::int64_t tokens, std::int64_t sequences);

/// The fraction SGLang's rule fills of `device` memory on a layout with a prefill chunk of
/// `chunk` tokens: one less the memory it keeps back over the whole.
double reserve_rule_fraction(const MemoryReserveRule& rule, Bytes device, std::int64_t chunk,
                             const Layout& layout);

/// The memory `workload`'s engine gives the weights (`weights` per GPU) and the KV cache on
/// one GPU of `layout`: the flat reserve when the workload names one, else the engine's rule.
MemoryBudget memory_budget(const Gpu& gpu, const Workload& workload, const Layout& layout,
                           Bytes weights);

} // namespace icx
