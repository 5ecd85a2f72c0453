// One layer's routed experts on one rank priced by the GPU's measured fused-MoE curve
// (icx/catalog/catalog.hpp MoeCurve) instead of as grouped GEMMs by the dense GEMM curve.
#pragma once

#include <optional>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/gemm.hpp"

namespace icx {

/// The rank's share of one MoE layer: `assignments` token-expert pairs over `experts` distinct
/// experts, each a gated MLP of `hidden` × `width` (the rank's share of the expert width under
/// a tensor split), and the routing `entries` its kernel sorts.
struct MoeShape {
  double assignments = 0;
  double experts = 0;
  double hidden = 0;
  double width = 0;
  double entries = 0;
};

/// The layer's time by the GPU's curve for the experts' `dtype`: with m = assignments /
/// experts tokens per expert,
///   compute = 2 × assignments × 3 × hidden × width / (peak × compute_fraction × m / (m +
///             half_tokens)),
///   memory  = (experts × 3 × hidden × width × the dtype's bytes + assignments × (2 hidden + 3
///             width) × 2 B of 16-bit activations) / (HBM × memory_fraction),
/// blended as (compute^knee + memory^knee)^(1/knee), plus the launch and entries × the cost per
/// entry. Absent when the GPU has no curve or dense peak for the dtype. `curves` are one
/// engine's on this GPU (Gpu::curves_for).
std::optional<GemmTime> moe_time(const Gpu& gpu, const KernelCurves& curves, const Dtype& dtype,
                                 const MoeShape& shape);

} // namespace icx
