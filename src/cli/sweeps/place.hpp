// icx place --sweep: the ranked layouts at every point of a sweep (prompt tokens, batch,
// context or cluster size), one row per point and layout, and its chart: per layout that is
// in the top N at some point, its TTFT or TPOT.
#pragma once

#include <array>
#include <cstddef>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/place.hpp"
#include "options/sweep.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

/// The parameters place sweeps.
inline constexpr std::array<SweepParam, 4> place_sweep_params = {
    SweepParam::tokens, SweepParam::batch, SweepParam::context, SweepParam::gpus};

/// The sweep of `base` over `sweep` into `out`, `top` ranked layouts per point (and the given
/// layout, when one is): the catalog is resolved once (in `base` and `cluster`, the cluster as
/// named) and only the swept field changes per point; a gpus sweep resolves the cluster at each
/// size, a size that cannot hold the model or split into nodes gives a row with a note. Throws
/// UsageError naming --sweep when the parameter does not apply to the phase.
SweepEnd place_sweep(const Catalog& catalog, const PlaceRequest& base,
                     const ClusterRequest& cluster, const Sweep& sweep, std::size_t top,
                     SweepSink& out);

} // namespace icx::cli
