// icx offload --sweep: the decode step at every point of a sweep of the KV load (batch or
// context), one row per point and host link, and its chart: per host link the expected step
// solid and the headline step dashed, with the step that HBM alone would take for reference.
#pragma once

#include <array>

#include "icx/offload_report.hpp"
#include "offload_options.hpp"
#include "sweep_option.hpp"
#include "sweep_view.hpp"

namespace icx::cli {

/// The parameters offload sweeps: the KV load's batch and context. A decode step takes one
/// token per sequence, so prompt tokens do not apply.
inline constexpr std::array<SweepParam, 2> offload_sweep_params = {SweepParam::batch,
                                                                   SweepParam::context};

/// Checks the flags a sweep of `sweep` needs before anything is computed: the swept one not
/// given, the other half of the KV load given. Throws UsageError naming --sweep.
void check_offload_sweep(const OffloadOptions& options, const Sweep& sweep);

/// The options of the sweep's first point: the swept flag set to its first value.
OffloadOptions offload_sweep_base(const OffloadOptions& options, const Sweep& sweep);

/// The sweep of `base` (with a KV load) over `sweep`, into `out`: the catalog is resolved once (in
/// `base`) and only the swept field of the KV load changes per point. A point whose spill does not
/// fit in host memory is a row per host link with a note.
SweepEnd offload_sweep(const OffloadRequest& base, const HostMemoryOrigin& origin,
                       const Sweep& sweep, SweepSink& out);

} // namespace icx::cli
