// A GEMM's time by the GPU's fitted curve (icx/serving/gemm.hpp).
#include "icx/serving/gemm.hpp"

#include <algorithm>
#include <cmath>

#include "icx/serving/compute.hpp"

namespace icx {

double blend(double a, double b, double q) {
  // Scaled by the larger, so that a large q does not underflow.
  const double larger = std::max(a, b);
  if (larger <= 0) {
    return 0;
  }
  return larger * std::pow(std::pow(a / larger, q) + std::pow(b / larger, q), 1.0 / q);
}

std::optional<GemmTime> gemm_time(const Gpu& gpu, const KernelCurves& curves, const Dtype& dtype,
                                  const GemmShape& shape) {
  const auto curve = curves.gemm.find(curve_dtype(curves.gemm, gpu, dtype));
  const auto peak = gpu.dense_peak.find(kernel_dtype(gpu, dtype));
  if (curve == curves.gemm.end() || peak == gpu.dense_peak.end()) {
    return std::nullopt;
  }
  const GemmCurve& c = curve->second;
  const double m = shape.m;
  const double n = shape.n;
  const double k = shape.k;
  const double weights = n * k;
  const double element = dtype.bytes_per_element;
  const double fraction = c.compute_fraction * weights / (weights + c.half_weights);
  const double bandwidth = gpu.hbm_bandwidth.value() * c.memory_fraction;
  GemmTime t;
  t.compute = Seconds::of(2 * m * n * k / (peak->second.value() * fraction));
  const double moved = (weights + m * k) * element + m * n * gemm_activation_bytes;
  const double quantise =
      element < gemm_activation_bytes ? m * k * (gemm_activation_bytes + element) / bandwidth : 0.0;
  const double memory = moved / bandwidth;
  t.memory = Seconds::of(memory + quantise);
  const double blended = blend(t.compute.value(), memory, c.knee);
  t.bound = blended < c.floor.value()     ? GemmBound::floor
            : t.compute.value() >= memory ? GemmBound::compute
                                          : GemmBound::memory;
  t.seconds = Seconds::of(std::max(blended, c.floor.value()) + c.launch.value() + quantise);
  return t;
}

} // namespace icx
