// The words of icx place: each split's reason, what the step model took that icx cannot know
// (one line each with the flag that changes it), and its derivations.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/simulation_costs.hpp"
#include "icx/serving/step_model.hpp"

namespace icx {

/// A split's verdict reason for a `phase` pass on `cluster`; a group pushed off the scale-up
/// link says what that costs ("TP crosses the node boundary onto ib-ndr: … vs …; …").
std::string strategy_reason(const Cluster& cluster, const StrategyCost& cost, Phase phase);

/// How place's figures for `placement` were computed (--explain): weights, their share per
/// GPU, the KV cache per GPU, compute, memory, the stage and the latency, with the values
/// substituted.
Derivations place_derivations(const Workload& workload, const Cluster& cluster,
                              const Placement& placement);

/// The assumptions behind placing `workload` on `cluster`, under `load` when one is given:
/// dtypes, overlap, HBM fraction, the load or batch, expert routing and kernels, pipeline
/// micro-batches, the all-reduce implementation and link topologies.
std::vector<std::string> place_assumptions(const Workload& workload, const Cluster& cluster,
                                           const std::optional<Load>& load);

/// "8192 prompt", or with a prefix-cache hit "8192 prompt (6554 cached)".
std::string prompt_text(std::int64_t input, double prefix_hit, std::int64_t prefix_block);

/// How a simulation drew its requests' lengths around the nominal ones, from `input`'s shape
/// and spread (not fixed), e.g. "drawn lognormal with spread 0.5".
std::string length_draw_text(const LengthDistribution& input);

/// "the first request" or "the first N requests".
std::string first_requests_text(std::int64_t count);

/// What `load` takes of the prefix cache: the share of each prompt found there and what that
/// spares (or that none is), with the flag that changes it.
std::string prefix_cache_text(const Load& load);

/// What a simulated load assumed: where its clients go, how one replica is priced and
/// scheduled, its KV cache, and each with the flag that changes it.
std::string simulation_assumption(const SimulatedLoad& load);

} // namespace icx
