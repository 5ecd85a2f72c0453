// What the scheduler simulation (src/serving/simulate.cpp) draws and sums up: request
// lengths from a seeded generator, and a latency's mean and percentiles.
#pragma once

#include <cstdint>
#include <map>
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
  /// A request's prompt and output lengths as `input` and `output` draw them, each at least
  /// one token: one pair of the ShareGPT sample when `input` draws from it, else each apart.
  std::pair<std::int64_t, std::int64_t> lengths(const LengthDistribution& input,
                                                const LengthDistribution& output);

private:
  /// A length as `d` draws it, at least one token (any shape but sharegpt).
  std::int64_t length(const LengthDistribution& d);

  std::mt19937_64 engine_;
};

/// Inter-token gaps, one per decoded token, kept in buckets 0.01 % wide (each holding the
/// least gap that fell in it and how many did): a run of millions of tokens keeps as many
/// buckets as it has distinct gaps at that resolution, and its percentiles are off by at most
/// 0.01 %; the mean is exact.
class GapHistogram {
public:
  void add(double gap, double weight);
  [[nodiscard]] LatencySummary summary() const;

private:
  std::map<std::int64_t, std::pair<double, double>> buckets_;
  double sum_ = 0;
  double weight_ = 0;
};

/// Mean and nearest-rank percentiles of values, each with its weight (none: all zero).
LatencySummary summary_of(std::vector<std::pair<double, double>> values);

} // namespace icx::detail
