#include "serving/simulate_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <span>
#include <stdexcept>

#include "icx/serving/length_sample.hpp"

namespace icx {

double StepCosts::decode_seconds(std::int64_t batch, double context_tokens) const {
  // The grid rows around the batch: the two it lies between, or the last two beyond them.
  const auto found = std::lower_bound(batches.begin(), batches.end(), batch);
  const std::size_t hi =
      std::min(static_cast<std::size_t>(found - batches.begin()), batches.size() - 1);
  const std::size_t lo = hi == 0 ? 0 : hi - 1;
  const double share = hi == lo ? 0
                                : static_cast<double>(batch - batches[lo]) /
                                      static_cast<double>(batches[hi] - batches[lo]);
  const auto between = [&](const std::vector<Seconds>& row) {
    return row[lo].value() + (row[hi] - row[lo]).value() * share;
  };
  // The step with every sequence at the base context, then what the context beyond adds.
  const double extra_context =
      context_tokens - static_cast<double>(batch) * static_cast<double>(base_context);
  return between(decode) + between(per_context_token) * extra_context;
}

namespace detail {

double Draws::unit() {
  return static_cast<double>(engine_() >> 11U) * 0x1.0p-53;
}

double Draws::exponential(double rate) {
  return -std::log1p(-unit()) / rate;
}

double Draws::normal() {
  // Box–Muller; 1 − unit() lies in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2 * std::log(1 - unit()));
  return radius * std::cos(2 * std::numbers::pi * unit());
}

std::pair<std::int64_t, std::int64_t> Draws::lengths(const LengthDistribution& input,
                                                     const LengthDistribution& output) {
  if (input.shape != LengthShape::sharegpt) {
    const std::int64_t prompt = length(input);
    return {prompt, length(output)};
  }
  const std::span<const LengthPair> sample = sharegpt_sample();
  const auto index = std::min(
      sample.size() - 1, static_cast<std::size_t>(unit() * static_cast<double>(sample.size())));
  const auto scaled = [](std::int64_t nominal, double fraction) {
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(nominal) * fraction));
  };
  return {scaled(input.nominal, sample[index].input), scaled(output.nominal, sample[index].output)};
}

std::int64_t Draws::length(const LengthDistribution& d) {
  const auto nominal = static_cast<double>(d.nominal);
  double value = nominal;
  switch (d.shape) {
  case LengthShape::fixed:
    break;
  case LengthShape::uniform:
    value = nominal * (1 - d.spread * unit());
    break;
  case LengthShape::lognormal: {
    const double sigma2 = std::log1p(d.spread * d.spread);
    value = std::exp(std::log(nominal) - sigma2 / 2 + std::sqrt(sigma2) * normal());
    break;
  }
  case LengthShape::sharegpt:
    throw std::logic_error("Draws::length: ShareGPT lengths are drawn in pairs (Draws::lengths)");
  }
  return std::max<std::int64_t>(1, std::llround(value));
}

namespace {

/// Nearest-rank percentile of values sorted ascending, each with its weight.
double percentile(const std::vector<std::pair<double, double>>& sorted, double total, double p) {
  const double rank = std::max(1.0, std::ceil(p * total - 1e-9));
  double seen = 0;
  for (const auto& [value, weight] : sorted) {
    seen += weight;
    if (seen >= rank) {
      return value;
    }
  }
  return sorted.back().first;
}

} // namespace

LatencySummary summary_of(std::vector<std::pair<double, double>> values) {
  if (values.empty()) {
    return {};
  }
  std::sort(values.begin(), values.end());
  double total = 0;
  double sum = 0;
  for (const auto& [value, weight] : values) {
    total += weight;
    sum += value * weight;
  }
  return {Seconds::of(sum / total), Seconds::of(percentile(values, total, 0.5)),
          Seconds::of(percentile(values, total, 0.9)),
          Seconds::of(percentile(values, total, 0.99))};
}

void GapHistogram::add(double gap, double weight) {
  // Buckets 0.01 % wide from 1 ns: log(gap / 1 ns) / log(1.0001).
  constexpr double from = 1e-9;
  constexpr double width = 1e-4;
  const auto key = static_cast<std::int64_t>(
      std::floor(std::log(std::max(gap, from) / from) / std::log1p(width)));
  const auto at = buckets_.try_emplace(key, gap, 0.0).first;
  at->second.first = std::min(at->second.first, gap);
  at->second.second += weight;
  sum_ += gap * weight;
  weight_ += weight;
}

LatencySummary GapHistogram::summary() const {
  std::vector<std::pair<double, double>> values;
  values.reserve(buckets_.size());
  for (const auto& [key, bucket] : buckets_) {
    values.push_back(bucket);
  }
  LatencySummary summary = summary_of(std::move(values));
  if (weight_ > 0) {
    summary.mean = Seconds::of(sum_ / weight_);
  }
  return summary;
}

} // namespace detail

} // namespace icx
