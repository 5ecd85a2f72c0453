// What every sweep prints: one table row per point and series, the icx.sweep/1 document with
// rows[] (JSON, and CSV one row per point and series), and the --plot chart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/json_values.hpp"
#include "icx/step_model.hpp"
#include "icx/util/table.hpp"
#include "output.hpp"
#include "plot.hpp"
#include "sweep_option.hpp"

namespace icx::cli {

struct SweepResult {
  /// "icx.sweep/1" with `command`, `sweep` {param, values} and, filled by the command, `rows`
  /// and what was held fixed.
  Json document;
  TextTable table;
  /// Lines printed under the table: what was assumed, points that could not be computed.
  std::vector<std::string> notes;
  /// The chart --plot draws.
  PlotSpec plot;
};

/// The document's head for `command` sweeping `sweep`.
Json sweep_document(std::string_view command, const Sweep& sweep);

/// The value of a point as the table shows it: "4096", "8 GiB".
std::string sweep_value_text(SweepParam param, std::int64_t value);

/// A serving sweep's parameter against the phase: tokens are a prefill's, context a decode
/// step's. Throws UsageError naming --sweep.
void check_sweep_phase(Phase phase, const Sweep& sweep);

/// Sets the swept field of `serving` (tokens, batch or context) to `value`; false for a
/// parameter that is not one of them (gpus: the caller sets its own group or cluster size).
bool set_serving_point(SweepParam param, std::int64_t value, ServingRequest& serving);

/// The x-axis title of a serving sweep; `gpus` names what the GPU count is ("GPUs in the
/// cluster").
std::string serving_axis_label(SweepParam param, Phase phase, std::string_view gpus);

/// Checks the flags a sweep combines with before anything is computed: --plot needs a sweep
/// (`has_sweep`: --sweep or the command's own range) and a drawable file name with gnuplot
/// installed; --explain derives one point, not a sweep. Throws UsageError.
void check_sweep_flags(const SweepOptions& options, const Style& style, bool has_sweep,
                       std::string_view sweep_hint);

/// Draws the chart when --plot was given (before anything is printed, so a failure leaves
/// stdout empty), then prints the table with its notes, the JSON document or the CSV rows.
void emit_sweep(const Style& style, const SweepOptions& options, const SweepResult& result);

} // namespace icx::cli
