// The words of a plan: why a candidate meets or misses the targets, what the load model
// assumed, and the chain --explain shows from the targets to the layout and its cost.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icx/serving/plan.hpp"
#include "icx/words/targets.hpp"

namespace icx::detail {

/// Why no layout's weights fit any node count of `system` the plan tried.
std::string weights_reason(const PlanRequest& request, const System& system, Bytes usable,
                           Bytes weights);

/// The closest layout on fewer nodes than a meeting candidate needs: its step, its simulation
/// when the plan simulated, and the node count.
struct FewerNodes {
  const LoadedStep* step = nullptr;
  const SimulatedLoad* simulated = nullptr;
  int nodes = 0;
};

/// Sets the candidate's reason from its step and its miss (target_miss); a meeting candidate
/// on more than one node also says why fewer nodes miss (`fewer`, when there is one).
void describe_candidate(const PlanRequest& request, const Load& load, PlanCandidate& candidate,
                        const FewerNodes& fewer);

/// The reason of a disaggregated candidate: each pool, its layout and figures, and what
/// sharing the GPUs needs (`shared`, the same system's candidate with both phases on the
/// same GPUs).
void describe_disaggregated(const PlanRequest& request, const PlanCandidate& shared,
                            PlanCandidate& candidate);

/// What the load model assumed, each with the flag that changes it.
std::vector<std::string> plan_assumptions(const Catalog& catalog, const PlanRequest& request);

/// The chain from the targets to the winner's (else the closest candidate's) figures.
Derivations plan_derivations(const PlanReport& report);

} // namespace icx::detail
