// What the scheduler simulation (src/serving/simulate.cpp) draws and sums up: request
// lengths from a seeded generator, and a latency's mean and percentiles.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "icx/serving/simulate.hpp"

namespace icx::detail {

/// mt19937_64's output is fixed by the standard, so a seed gives the same draws on every
/// platform; the transforms are written out for the same reason (the standard's
/// distributions are not).
class Draws {
public:
  explicit Draws(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1).
  double unit();
  double exponential(double rate);
  double normal();
  /// A length as `d` draws it, at least one token.
  std::int64_t length(const LengthDistribution& d);

private:
  std::mt19937_64 engine_;
};

/// Mean and nearest-rank percentiles of values, each with its weight (none: all zero).
LatencySummary summary_of(std::vector<std::pair<double, double>> values);

} // namespace icx::detail
