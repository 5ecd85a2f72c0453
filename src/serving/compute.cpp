#include "icx/serving/compute.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/util/spelling.hpp"

namespace icx {

std::string_view kernel_dtype(const Gpu& gpu, const Dtype& dtype) {
  if (dtype.compute_as.empty() || gpu.dense_peak.contains(dtype.id)) {
    return dtype.id;
  }
  if (gpu.dense_peak.contains(dtype.compute_as) || dtype.weight_only_as.empty()) {
    return dtype.compute_as;
  }
  return dtype.weight_only_as;
}

ComputeRate compute_rate(const Gpu& gpu, const Dtype& dtype, std::span<const Dtype> dtypes,
                         double utilization) {
  const std::string_view kernel = kernel_dtype(gpu, dtype);
  if (kernel != dtype.id) {
    const auto as = std::ranges::find(dtypes, kernel, &Dtype::id);
    if (as != dtypes.end()) {
      return compute_rate(gpu, *as, dtypes, utilization);
    }
  }
  ComputeRate rate{&gpu, {}, {}, utilization};
  double best_width = std::numeric_limits<double>::infinity();
  for (const auto& [peak_dtype, peak] : gpu.dense_peak) {
    // clang 14 cannot capture a structured binding in a lambda.
    const std::string peak_id = fold_case(peak_dtype);
    const auto entry =
        std::ranges::find_if(dtypes, [&](const Dtype& d) { return fold_case(d.id) == peak_id; });
    if (entry == dtypes.end()) {
      continue;
    }
    const double width = entry->bytes_per_element;
    const bool exact = fold_case(entry->id) == fold_case(dtype.id);
    if (exact) {
      return {&gpu, entry->id, peak, utilization};
    }
    if (width >= dtype.bytes_per_element && width < best_width) {
      best_width = width;
      rate.peak_dtype = entry->id;
      rate.peak = peak;
    }
  }
  if (rate.peak_dtype.empty()) {
    throw InputError(
        fmt::format("gpu '{}' lists no dense peak for {} or any wider dtype", gpu.id, dtype.id));
  }
  return rate;
}

const Gpu& reference_gpu(const Catalog& catalog) {
  const auto gpus = catalog.gpus();
  const auto reference = std::ranges::find_if(gpus, [](const Gpu& g) { return g.reference; });
  if (reference != gpus.end()) {
    return *reference;
  }
  if (gpus.empty()) {
    throw InputError(fmt::format("the catalog has no GPUs; add one with {}", Knob::catalog));
  }
  return gpus.front();
}

const Gpu& gpu_for_link(const Catalog& catalog, const Link& link, bool& matched) {
  const auto gpus = catalog.gpus();
  const auto native = std::ranges::find_if(
      gpus, [&](const Gpu& g) { return catalog.link(g.scale_up_link).id == link.id; });
  matched = native != gpus.end();
  return matched ? *native : reference_gpu(catalog);
}

} // namespace icx
