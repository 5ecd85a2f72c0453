// icx tp --sweep: the tensor-parallel report at every point of a sweep (prompt tokens, batch,
// context or group size), one row per point and wire, and its chart: per wire the expected
// time solid and the headline time dashed, with the compute of the pass for reference.
#pragma once

#include "icx/catalog/catalog.hpp"
#include "icx/reports/tp.hpp"
#include "options/sweep.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

/// The parameters tp sweeps.
inline constexpr std::array<SweepParam, 4> tp_sweep_params = {
    SweepParam::tokens, SweepParam::batch, SweepParam::context, SweepParam::gpus};

/// The sweep of `base` over `sweep` on the wires of `wires`, into `out`: the catalog is
/// resolved once (in `base` and `wires`) and only the swept field changes per point. Throws
/// UsageError naming --sweep when the parameter does not apply to the phase.
SweepEnd tp_sweep(const Catalog& catalog, const TpRequest& base, const WireChoice& wires,
                  const Sweep& sweep, SweepSink& out);

/// Refuses a sweep that would price more than max_sweep_points wire points (each point ranks
/// the layouts of every wire): UsageError naming --sweep and --wire.
void check_tp_sweep_size(const Sweep& sweep, const WireChoice& wires);

} // namespace icx::cli
