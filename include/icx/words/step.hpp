// How --explain shows one step: its operations one line each, then the stage and the latency
// they add up to, so a reader sees which kernel dominates.
#pragma once

#include <string>
#include <string_view>

#include "icx/base/derivation.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"

namespace icx {

/// Appends the step's operations ("qkv per stage = 2.1 TFLOP, 4.3 GB: memory-bound = 810 µs")
/// and the compute and memory they need alone. `label` comes before each quantity ("decode: ");
/// `gpu` is the GPU whose HBM bandwidth the memory line quotes.
void add_operation_terms(Derivations& d, const StepTime& step, const Gpu& gpu,
                         std::string_view label);

/// add_operation_terms, then the stage they add up to (with the exposed collectives and the
/// gaps between layers).
void add_step_terms(Derivations& d, const StepTime& step, const Gpu& gpu, std::string_view label);

/// How the weights' bytes are counted, for a formula: "70,553,706,496 parameters × 2 B", or with
/// the routed experts stored apart "… dense parameters × 2 B + … expert parameters × 0.53125 B".
std::string weights_formula(const Model& model, const Dtype& weights, const Dtype& experts);

/// The weights' dtype before "weights": "bf16", or with the routed experts stored apart
/// "bf16 and mxfp4-expert".
std::string weights_dtype_text(const Dtype& weights, const Dtype& experts);

/// What a step's latency adds up to, for a formula: "pp 2 × 6.1 ms + 40 µs of sends + 741 µs
/// engine step".
std::string latency_formula(const StepTime& step, int pp);

} // namespace icx
