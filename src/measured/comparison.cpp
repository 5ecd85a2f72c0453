// The bound a prediction is held to, and a row against it (icx/measured/comparison.hpp).
#include "icx/measured/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "icx/util/statistics.hpp"

namespace icx {

bool within_bound(double error, const Bound& bound) {
  if (bound.kind == Bound::Kind::tolerance) {
    return std::abs(error) <= bound.value;
  }
  const double ratio = 1.0 + error;
  return ratio > 0 && ratio <= bound.value && 1.0 / ratio <= bound.value;
}

std::optional<Bound> factor_bound(const std::optional<double>& factor) {
  if (!factor) {
    return std::nullopt;
  }
  return Bound{Bound::Kind::factor, *factor};
}

bool Comparison::within() const {
  return predicted && bound && within_bound(error, *bound);
}

bool Comparison::misses() const {
  return held && predicted && !within();
}

Comparison compare(std::optional<double> measured, std::optional<double> predicted,
                   std::optional<Bound> bound, bool held) {
  if (predicted && !measured) {
    throw std::logic_error("a prediction needs a measurement to be compared with");
  }
  Comparison c{measured, predicted, 0, bound, held};
  if (predicted) {
    c.error = *predicted / *measured - 1.0;
  }
  return c;
}

RowVerdict verdict(const Comparison& c) {
  if (!c.predicted) {
    return RowVerdict::unpriced;
  }
  if (!c.held) {
    return RowVerdict::shown;
  }
  return c.within() ? RowVerdict::within : RowVerdict::out;
}

void ComparisonTally::add(const Comparison& c) {
  ++counts_.rows;
  counts_.within += c.within() ? 1 : 0;
  if (c.predicted) {
    ++counts_.predicted;
    abs_errors_.push_back(std::abs(c.error));
  }
}

ComparisonSummary ComparisonTally::summary() const {
  ComparisonSummary s = counts_;
  s.median_abs_error = detail::median(abs_errors_);
  s.worst_abs_error = abs_errors_.empty() ? 0 : std::ranges::max(abs_errors_);
  return s;
}

} // namespace icx
