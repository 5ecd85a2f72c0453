// icx coldstart --sweep: the load at every GPU count of a sweep, one row per point for the floor
// (the headline lower bound) and one per loader (its expected load), and its chart: each
// loader's expected load solid, the floor dashed, the budget as a level.
#pragma once

#include <array>

#include "icx/reports/coldstart.hpp"
#include "options/sweep.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

/// The parameter coldstart sweeps: the GPUs sharing the weights. Tokens, batch and context do
/// not change what a load moves.
inline constexpr std::array<SweepParam, 1> coldstart_sweep_params = {SweepParam::gpus};

/// The sweep of `base` over `sweep`, into `out`: the catalog is resolved once (in `base`: model,
/// host link, storage tier, loaders, GPUs per node) and only the GPU count changes per point. A
/// count the weights cannot be split over is a row per series with a note.
SweepEnd coldstart_sweep(const ColdStartRequest& base, const Sweep& sweep, SweepSink& out);

} // namespace icx::cli
