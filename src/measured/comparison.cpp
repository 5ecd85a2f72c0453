// The bound a prediction is held to (icx/measured/comparison.hpp).
#include "icx/measured/comparison.hpp"

#include <cmath>

namespace icx {

bool within_bound(double error, const Bound& bound) {
  if (bound.kind == Bound::Kind::tolerance) {
    return std::abs(error) <= bound.value;
  }
  const double ratio = 1.0 + error;
  return ratio > 0 && ratio <= bound.value && 1.0 / ratio <= bound.value;
}

} // namespace icx
