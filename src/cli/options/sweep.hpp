// The --sweep option shared by tp, place, collective, coldstart and offload: one parameter
// stepped over a range, PARAM=FROM:TO[:STEP|xFACTOR], and the --plot file that charts it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/base/enum_names.hpp"

namespace icx::cli {

/// What a sweep steps. Each is a whole number: tokens, sequences, context tokens, GPUs or
/// message bytes.
enum class SweepParam { tokens, batch, context, gpus, size };

constexpr std::array<EnumName<SweepParam>, 5> enum_names(SweepParam /*unused*/) {
  return {{{SweepParam::tokens, "tokens"},
           {SweepParam::batch, "batch"},
           {SweepParam::context, "context"},
           {SweepParam::gpus, "gpus"},
           {SweepParam::size, "size"}}};
}

/// Most points one sweep may have: the limit keeps a typo ("1:1e8:1") from running for
/// minutes. A point of most sweeps prices one request (100,000 of icx place take about 9 s on
/// a 2-core machine, tests/bench/limits_bench.sh); a point of a gpus sweep is a whole cluster
/// with every layout of it (a few ms near a million GPUs), so gpus sweeps stop at
/// max_cluster_sweep_points.
constexpr std::size_t max_sweep_points = 100'000;
constexpr std::size_t max_cluster_sweep_points = 1'000;

/// The most points a sweep of `param` may have.
constexpr std::size_t max_points(SweepParam param) {
  return param == SweepParam::gpus ? max_cluster_sweep_points : max_sweep_points;
}

struct Sweep {
  SweepParam param = SweepParam::tokens;
  /// Ascending, distinct, each inside the parameter's bounds.
  std::vector<std::int64_t> values;
  /// The flag as given, for messages.
  std::string text;
};

/// Parses PARAM=FROM:TO[:STEP|xFACTOR]: every FROM + k·STEP up to TO, or every FROM·FACTOR^k
/// (rounded to a whole number, repeats dropped) up to TO; without a step, xFACTOR 2. FROM and
/// TO are included when the steps land on them. `size` takes byte units (8B, 4KiB, 1GB) in
/// FROM, TO and STEP. `allowed` names the parameters the command sweeps. Throws UsageError
/// naming --sweep and what would be valid.
Sweep parse_sweep(const std::string& text, std::span<const SweepParam> allowed);

/// The values of one RANGE, FROM:TO[:STEP|xFACTOR], of `param`, as parse_sweep reads it;
/// messages start with `flag` ("--size 8B:8GiB:x4").
std::vector<std::int64_t> sweep_values(SweepParam param, std::string_view range,
                                       const std::string& flag);

struct SweepOptions {
  std::string sweep;
  std::string plot;
};

/// --sweep (with `allowed` in its help) and --plot.
void add_sweep_options(CLI::App& app, SweepOptions& options, std::span<const SweepParam> allowed);

/// The parsed --sweep, or nothing when it was not given.
std::optional<Sweep> sweep_of(const SweepOptions& options, std::span<const SweepParam> allowed);

} // namespace icx::cli
