// The compute rate a step runs at (a GPU's dense peak for a dtype × a utilisation), and the GPU
// assumed for a wire.
#pragma once

#include <span>
#include <string>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// The compute rate a verdict assumes: a GPU's dense peak for a dtype times a utilisation.
struct ComputeRate {
  const Gpu* gpu = nullptr;
  /// The dtype whose peak is used (may be wider than the model's when the GPU lacks it).
  std::string peak_dtype;
  FlopsPerSecond peak;
  double utilization = 0;
  [[nodiscard]] FlopsPerSecond achieved() const { return peak * utilization; }
};

/// The dtype whose dense peak and kernel curves a GEMM on `dtype` weights runs by on `gpu`: its
/// own where the GPU lists it; a block-scaled dtype's compute_as (MXFP4 on FP4 tensor cores)
/// where the GPU lists that, else its weight_only_as (dequantised to BF16, as weight-only
/// kernels run it on GPUs without FP4); any other dtype its own id.
std::string_view kernel_dtype(const Gpu& gpu, const Dtype& dtype);

/// The dtype whose curve in `curves` (a GPU's GEMM or MoE curves by dtype) prices `dtype`'s
/// kernels on `gpu`: kernel_dtype's where `curves` has one, else the dtype's kernels_as where
/// `curves` has that (FP16 weights by the BF16 curve), else kernel_dtype's (the lookup misses).
/// The dense peak stays kernel_dtype's.
template <class Curves>
std::string_view curve_dtype(const Curves& curves, const Gpu& gpu, const Dtype& dtype) {
  const std::string_view kernel = kernel_dtype(gpu, dtype);
  if (!curves.contains(kernel) && !dtype.kernels_as.empty() && curves.contains(dtype.kernels_as)) {
    return dtype.kernels_as;
  }
  return kernel;
}

/// The GPU's dense peak for `dtype` (by kernel_dtype); a GPU without that dtype's tensor cores
/// computes in the narrowest type it has that is at least as wide (FP8 weights on A100 run at BF16
/// rate). Throws InputError when the GPU has no such type.
ComputeRate compute_rate(const Gpu& gpu, const Dtype& dtype, std::span<const Dtype> dtypes,
                         double utilization);

/// The catalog's reference GPU (else its first); throws InputError when it has none.
const Gpu& reference_gpu(const Catalog& catalog);

/// The GPU assumed for a wire: the first catalog GPU whose scale-up link is `link`, else the
/// catalog's reference GPU (else the first GPU). `matched` tells which rule applied.
const Gpu& gpu_for_link(const Catalog& catalog, const Link& link, bool& matched);

} // namespace icx
