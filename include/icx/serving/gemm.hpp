// One GEMM of a step, C[m×n] = A[m×k] · W[n×k]ᵀ, priced by the GPU's measured curve for the
// weights' dtype (icx/catalog/catalog.hpp GemmCurve) instead of one utilisation of peak.
#pragma once

#include <array>
#include <optional>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// m tokens through a weight of n outputs by k inputs; fractional where a shape is an
/// average (the tokens each expert runs) or a weight's share of a tensor group.
struct GemmShape {
  double m = 0;
  double n = 0;
  double k = 0;
};

/// What sets a GEMM's time.
enum class GemmBound {
  compute, ///< the multiply-adds at the curve's fraction of dense peak
  memory,  ///< the weights and activations read, the output written
  floor,   ///< the shortest kernel of the dtype
};

constexpr std::array<EnumName<GemmBound>, 3> enum_names(GemmBound /*unused*/) {
  return {{{GemmBound::compute, "compute"},
           {GemmBound::memory, "memory"},
           {GemmBound::floor, "floor"}}};
}

struct GemmTime {
  Seconds seconds;
  /// Each bound alone; `memory` includes an 8-bit dtype's quantisation of the activations.
  Seconds compute;
  Seconds memory;
  GemmBound bound = GemmBound::compute;
};

/// The activations a GEMM reads before any quantisation, and the output it writes: 16-bit, as
/// serving engines keep them (BF16 or FP16).
constexpr double gemm_activation_bytes = 2;

/// Two bounds of one kernel blended: (a^q + b^q)^(1/q), the sum at q = 1, the longer as q
/// grows; 0 when both are.
double blend(double a, double b, double q);

/// The time of one GEMM of `shape` with weights in `dtype` on `gpu`, by the GPU's curve for the
/// dtype: compute = 2mnk / (peak × compute_fraction × nk / (nk + half_weights)); memory =
/// (nk + mk) × the dtype's bytes + mn × 2 bytes, at memory_fraction of HBM bandwidth; the two
/// blended as (compute^knee + memory^knee)^(1/knee), never under the floor, plus the launch.
/// A dtype narrower than 16 bits adds its per-call quantisation of the activations (mk × (2 +
/// its bytes) at the same bandwidth), as engines quantise them dynamically. Absent when the GPU
/// has no curve for the dtype. `curves` are one engine's on this GPU (Gpu::curves_for).
std::optional<GemmTime> gemm_time(const Gpu& gpu, const KernelCurves& curves, const Dtype& dtype,
                                  const GemmShape& shape);

} // namespace icx
