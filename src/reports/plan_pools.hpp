// A plan's prefill/decode split: a prefill pool and a decode pool of one system, each a part
// of a node or whole nodes, and where the KV cache goes between them (icx/reports/plan.hpp).
#pragma once

#include <optional>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/plan.hpp"
#include "icx/serving/request_load.hpp"

namespace icx::detail {

/// The cluster of `gpus` GPUs of `system` (a part of one node or whole nodes), or nothing
/// when the system cannot grow so (no scale-out link).
std::optional<Cluster> system_cluster_of(const Catalog& catalog, const System& system, int gpus);

/// Every group of the step is priced by the expected model where it leaves its node: a plan
/// never rests on the headline's lower bound (unpriced_crossing).
bool priced(const LoadedStep& step);

/// Replaces `candidate` (its system's shared deployment) by separate prefill and decode pools
/// when both meet their target on fewer nodes in all, or the candidate meets nothing.
void try_disaggregated(const Catalog& catalog, const PlanRequest& request, const System& system,
                       const LoadWorkloads& workloads, const Load& load, PlanCandidate& candidate);

} // namespace icx::detail
