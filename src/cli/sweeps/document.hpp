// What every sweep shares: the icx.sweep/1 document's head, a point's value as text, the
// checks of the flags a sweep combines with, and how a serving sweep sets its point.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/util/table.hpp"
#include "options/sweep.hpp"
#include "output/output.hpp"
#include "output/plot.hpp"
#include "sweeps/engine.hpp"

namespace icx::cli {

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

} // namespace icx::cli
