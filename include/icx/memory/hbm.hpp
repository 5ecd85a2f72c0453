// How much of a GPU's memory the weights and KV cache may fill under a flat reserve: the
// --reserve of every command that checks fit (serving commands apply their engine's own rule,
// icx/serving/engine_memory.hpp, unless one is given), and the bandwidth its reads reach.
#pragma once

#include <optional>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// Fraction of each GPU's memory kept free for what a fit check does not count: activations,
/// the runtime's buffers and fragmentation, and any KV cache not given (the engines' own
/// rules keep 14–20 % of an H100 out of the weights' and cache's reach). Used by offload and
/// by a serving engine the catalog gives no memory rule.
constexpr double default_memory_reserve = 0.2;

/// The memory of `gpus` GPUs (Gpu::memory()) less the reserved fraction of each. Throws InputError
/// on a reserve outside [0, 1) or a GPU count below 1.
Bytes usable_hbm(const Gpu& gpu, int gpus, double reserve);

/// The fraction of `gpu`'s HBM bandwidth a stream of reads reaches: `given` (a flag), else
/// the catalog's achievable_hbm_fraction, else the whole bandwidth.
double achieved_hbm_fraction(const Gpu& gpu, std::optional<double> given);

/// The same with a GPU setup between the two: `given`, else `tuning`'s figure (a null tuning
/// has none), else the catalog's. The one rule `place`, `plan` and `offload` price HBM by.
double achieved_hbm_fraction(const Gpu& gpu, std::optional<double> given, const GpuTuning* tuning);

/// The time `gpus` GPUs take to read `bytes` spread evenly over their HBM, each at
/// `fraction` of its bandwidth: the one HBM rule every decode step is priced by.
Seconds hbm_read_time(const Gpu& gpu, int gpus, Bytes bytes, double fraction);

} // namespace icx
