// One layer's routed experts by the GPU's fitted fused-MoE curve (icx/serving/moe.hpp).
#include "icx/serving/moe.hpp"

#include "icx/serving/compute.hpp"

namespace icx {

namespace {

/// A gated expert's weights: gate and up projections (2 × hidden × width) and down (width ×
/// hidden).
constexpr double gated_matrices = 3;

} // namespace

std::optional<GemmTime> moe_time(const Gpu& gpu, const KernelCurves& curves, const Dtype& dtype,
                                 const MoeShape& shape) {
  const auto curve = curves.moe.find(curve_dtype(curves.moe, gpu, dtype));
  const auto peak = gpu.dense_peak.find(kernel_dtype(gpu, dtype));
  if (curve == curves.moe.end() || peak == gpu.dense_peak.end()) {
    return std::nullopt;
  }
  const MoeCurve& c = curve->second;
  GemmTime t;
  const Seconds fixed = c.launch + c.per_entry * shape.entries;
  if (!(shape.assignments > 0 && shape.experts > 0)) {
    t.seconds = fixed;
    t.bound = GemmBound::floor;
    return t;
  }
  const double per_expert = gated_matrices * shape.hidden * shape.width;
  const double m = shape.assignments / shape.experts;
  const double fraction = c.compute_fraction * m / (m + c.half_tokens);
  t.compute = Seconds::of(2 * shape.assignments * per_expert / (peak->second.value() * fraction));
  const double activations =
      shape.assignments * (2 * shape.hidden + gated_matrices * shape.width) * gemm_activation_bytes;
  t.memory = Seconds::of((shape.experts * per_expert * dtype.bytes_per_element + activations) /
                         (gpu.hbm_bandwidth.value() * c.memory_fraction));
  const double blended = blend(t.compute.value(), t.memory.value(), c.knee);
  t.seconds = Seconds::of(blended) + fixed;
  t.bound = blended < fixed.value()                 ? GemmBound::floor
            : t.compute.value() >= t.memory.value() ? GemmBound::compute
                                                    : GemmBound::memory;
  return t;
}

} // namespace icx
