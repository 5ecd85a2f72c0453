// A GPU's kernel curves once every catalog file is read: each engine's completed from the
// default engine's, and a borrower's copied from its lender (curves_from).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/util/spelling.hpp"

namespace icx {

namespace {

/// Every set of curves a GPU has: the default engine's and each other engine's.
std::vector<const KernelCurves*> engines_curves(const Gpu& gpu) {
  std::vector<const KernelCurves*> all{&gpu.curves};
  for (const auto& [engine, curves] : gpu.engine_curves) {
    all.push_back(&curves);
  }
  return all;
}

} // namespace

void Catalog::borrow_curves() {
  for (Gpu& gpu : entries_.gpus) {
    if (gpu.curves_from.empty()) {
      continue;
    }
    const auto at = names_.gpus.find(fold_case(gpu.curves_from));
    if (at == names_.gpus.end()) {
      throw CatalogError(fmt::format("{}: gpu '{}': curves_from '{}' is not a known gpu id",
                                     gpu.origin, gpu.id, gpu.curves_from));
    }
    const Gpu& from = entries_.gpus[at->second];
    if (!from.curves_from.empty()) { // a chain, or the GPU itself
      throw CatalogError(fmt::format("{}: gpu '{}': curves_from '{}' borrows its own curves; "
                                     "name a GPU with curves of its own",
                                     gpu.origin, gpu.id, gpu.curves_from));
    }
    // Each curve scales a peak of this GPU's own.
    const auto missing_peak = [&](const std::string& dtype) {
      return !gpu.dense_peak.contains(dtype);
    };
    std::vector<std::string> needed;
    for (const KernelCurves* curves : engines_curves(from)) {
      for (const auto& [dtype, curve] : curves->gemm) {
        needed.push_back(dtype);
      }
      for (const auto& [dtype, curve] : curves->moe) {
        needed.push_back(dtype);
      }
      if (curves->attention || curves->mla) {
        needed.emplace_back(attention_peak_dtype);
      }
    }
    if (const auto lacking = std::ranges::find_if(needed, missing_peak); lacking != needed.end()) {
      throw CatalogError(fmt::format("{}: gpu '{}': curves_from '{}' has a {} curve, and "
                                     "dense_tflops has no {} peak to scale it",
                                     gpu.origin, gpu.id, gpu.curves_from, *lacking, *lacking));
    }
    gpu.curves = from.curves;
    gpu.engine_curves = from.engine_curves;
  }
}

void Catalog::complete_engine_curves() {
  for (Gpu& gpu : entries_.gpus) {
    for (auto& [engine, curves] : gpu.engine_curves) {
      // A dtype of the default's the engine has no curve for takes the default's.
      curves.gemm.insert(gpu.curves.gemm.begin(), gpu.curves.gemm.end());
      curves.moe.insert(gpu.curves.moe.begin(), gpu.curves.moe.end());
      if (!curves.attention) {
        curves.attention = gpu.curves.attention;
      }
      if (!curves.mla) {
        curves.mla = gpu.curves.mla;
      }
    }
  }
}

void Catalog::check_kernels_as(const Dtype& dtype) const {
  if (dtype.kernels_as.empty()) {
    return;
  }
  const Dtype& as = this->dtype(dtype.kernels_as);
  if (as.bytes_per_element != dtype.bytes_per_element) {
    throw CatalogError(fmt::format("{}: dtype '{}': kernels_as '{}' has {:g} bytes per element "
                                   "where '{}' has {:g}; a dtype's curves price the bytes its "
                                   "GEMMs move, so name a dtype of the same width",
                                   dtype.origin, dtype.id, as.id, as.bytes_per_element, dtype.id,
                                   dtype.bytes_per_element));
  }
}

const KernelCurves& Gpu::curves_for(const Engine* engine) const {
  if (engine != nullptr) {
    if (const auto it = engine_curves.find(engine->kernels_id()); it != engine_curves.end()) {
      return it->second;
    }
  }
  return curves;
}

} // namespace icx
