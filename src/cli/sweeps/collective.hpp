// icx collective's charts and its sweep of group sizes: busbw against message size (headline
// dashed, expected solid, a measured nccl-tests run as points: the picture of icx calibrate),
// and time against GPUs at one size (--sweep gpus=…).
#pragma once

#include <array>
#include <functional>

#include "icx/reports/collective.hpp"
#include "options/sweep.hpp"
#include "output/plot.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

inline constexpr std::array<SweepParam, 2> collective_sweep_params = {SweepParam::size,
                                                                      SweepParam::gpus};

/// busbw against S for a report of several sizes, with its measured points if it has them.
PlotSpec collective_size_plot(const CollectiveReport& report);

/// The report at each GPU count of `sweep` (`at` builds one, throwing UsageError for a count
/// the wire cannot run, which becomes a row with a note), into `out`: one row per point with the
/// headline and expected time and busbw, and the chart of time against GPUs.
SweepEnd collective_gpus_sweep(const Sweep& sweep,
                               const std::function<CollectiveReport(int gpus)>& at, SweepSink& out);

} // namespace icx::cli
