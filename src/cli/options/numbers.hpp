// Numbers as every flag takes them: decimal only (no octal, no hex), whole or decimal within
// the flag's bounds, fractions, durations with a unit.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "icx/base/limits.hpp"
#include "icx/serving/simulate.hpp"

namespace icx::cli {

/// Accepts a whole number in [min, max] written as any number flag is ("4096", "04096",
/// "4.096e3"; no sign or hex, nothing whose value is not whole); the message names the range.
/// Use with `->transform`.
CLI::Validator whole_number(std::int64_t min, std::int64_t max);

/// Accepts a finite decimal number inside `bounds`, e.g. "2.5", "70.6e9". Use with
/// `->transform`.
CLI::Validator decimal_number(const limits::Bounds& bounds);

/// Accepts a duration with a unit, s, ms, us (or µs) or ns ("50ms", "2 s", "1.5s"), inside
/// `bounds` in seconds, and gives it in seconds. Use with `->transform`.
CLI::Validator duration_seconds(const limits::Bounds& bounds);

/// A latency target: a duration held against the mean or a percentile of the requests.
struct LatencyTarget {
  Statistic statistic = Statistic::mean;
  double seconds = 0;
};

/// Accepts a duration as duration_seconds does, optionally after a statistic and a colon
/// ("2s", "p99:2s", "mean:500ms"; mean, p50, p90 or p99), and gives "<statistic>:<seconds>"
/// for latency_target_of. Use with `->transform`.
CLI::Validator latency_target(const limits::Bounds& bounds);

/// The target a latency_target transform gave.
LatencyTarget latency_target_of(const std::string& transformed);

/// Accepts a decimal fraction from 0 to below 1 (e.g. "0.1"). Use with `->transform`.
CLI::Validator unit_fraction();

} // namespace icx::cli
