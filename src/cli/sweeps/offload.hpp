// icx offload --sweep: the decode step at every point of a sweep of the KV load (batch or
// context), one row per point and host link, and its chart: per host link the expected step
// solid and the headline step dashed, with the step that HBM alone would take for reference.
#pragma once

#include <array>

#include "icx/reports/offload.hpp"
#include "options/offload.hpp"
#include "options/sweep.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

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
