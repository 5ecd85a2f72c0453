// One stage's step operation by operation: the weight GEMMs of its layers (each priced by the
// GPU's measured GEMM curve, icx/serving/gemm.hpp, or at one utilisation of peak), attention
// and the LM head, so that a step shows which kernel dominates it.
#pragma once

#include <array>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/gemm.hpp"

namespace icx {

/// The operations of a step, in the order a layer runs them.
enum class StepOp {
  qkv,           ///< the attention's input projections (a latent model's low-rank ones too)
  attention,     ///< the score products and the KV cache they read
  attention_out, ///< the attention's output projection
  mlp_up,        ///< the gate and up projections of a dense MLP or the shared experts
  mlp_down,      ///< their down projection
  experts_up,    ///< the routed experts' gate and up projections, one grouped GEMM
  experts_down,  ///< their down projection
  lm_head,       ///< the output projection to the vocabulary, one row per sequence
};

constexpr std::array<EnumName<StepOp>, 8> enum_names(StepOp /*unused*/) {
  return {{{StepOp::qkv, "qkv"},
           {StepOp::attention, "attention"},
           {StepOp::attention_out, "attention-out"},
           {StepOp::mlp_up, "mlp-up"},
           {StepOp::mlp_down, "mlp-down"},
           {StepOp::experts_up, "experts-up"},
           {StepOp::experts_down, "experts-down"},
           {StepOp::lm_head, "lm-head"}}};
}

/// How a tensor group splits a weight: by its outputs (column parallel), by its inputs (row
/// parallel), or not at all (every GPU of the group holds it whole).
enum class WeightSplit { outputs, inputs, none };

/// One weight matrix of a layer, n outputs by k inputs, unsharded (n scaled to the model's
/// parameter count may be fractional).
struct LayerWeight {
  StepOp op = StepOp::qkv;
  double n = 0;
  double k = 0;
  WeightSplit split = WeightSplit::outputs;
  /// Layers that hold it: all, the dense-MLP ones, or the MoE ones.
  int layers = 0;
};

/// The weight GEMMs a token passes through, from the model's architecture: grouped-query or
/// latent attention, a gated MLP (dense layers, shared experts), one routed expert of each MoE
/// layer, and the LM head (layers = 1). Without the heads or the MLP width (a custom model)
/// each layer is taken as GPT's 12·hidden² (QKV 3h², output h², MLP 8h²). The non-expert
/// outputs are scaled so that the weights add up to the model's shared parameters less the
/// input embedding (a lookup, not a GEMM), so a step reads the weights the GPU holds.
std::vector<LayerWeight> layer_weights(const Model& model);

/// One operation's part of a stage: its time, each bound alone, and which one sets it.
struct StepTerm {
  StepOp op = StepOp::qkv;
  Seconds seconds;
  /// The part of `seconds` priced by a measured kernel curve (the rest at an assumed
  /// utilisation of peak): what an engine's prefill pass scale multiplies.
  Seconds measured;
  Seconds compute;
  Seconds memory;
  GemmBound bound = GemmBound::compute;
  Flops flops;
  Bytes read;
};

/// How a stage's GEMMs are priced: by the engine's measured curve on the GPU for the weights'
/// dtype where it has one and `curves` is set, else at `rate` of peak and `hbm_fraction` of HBM
/// bandwidth, the longer. `kernels` null: the default engine's curves.
struct GemmPricing {
  const Gpu* gpu = nullptr;
  const Dtype* dtype = nullptr;
  FlopsPerSecond rate;
  double hbm_fraction = 1;
  bool curves = true;
  const KernelCurves* kernels = nullptr;
  [[nodiscard]] const KernelCurves& engine_curves() const {
    return kernels != nullptr ? *kernels : gpu->curves;
  }
};

/// `term` priced by its FLOPs at `rate` and its bytes at `hbm_fraction` of the GPU's HBM
/// bandwidth: the longer of the two sets its time and its bound.
StepTerm roofline(StepTerm term, const Gpu& gpu, FlopsPerSecond rate, double hbm_fraction);

/// The time of `count` GEMMs of `shape` run as one grouped kernel (one launch), `count`
/// possibly fractional (the experts a rank expects to run).
StepTerm price_gemms(const GemmPricing& pricing, StepOp op, const GemmShape& shape, double count);

/// Adds `term` to the stage's terms: to the one of the same operation if there is one.
void add_term(std::vector<StepTerm>& terms, const StepTerm& term);

} // namespace icx
