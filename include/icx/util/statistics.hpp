// Small summary statistics.
#pragma once

#include <algorithm>
#include <vector>

namespace icx::detail {

/// The median of `values` (0 for none); takes a copy to sort.
inline double median(std::vector<double> values) {
  if (values.empty()) {
    return 0;
  }
  std::ranges::sort(values);
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

} // namespace icx::detail
