// How a plan prices one layout under its load: by the closed form, and with a traffic by the
// simulation of the layouts the closed form puts near the best (icx/reports/plan.hpp).
#pragma once

#include <optional>

#include "icx/serving/plan.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/simulation_costs.hpp"

namespace icx::detail {

/// A layout under the request's load: the closed form's step, and with a traffic the layout
/// simulated under it.
struct Evaluated {
  Layout layout;
  LoadedStep step;
  std::optional<SimulatedLoad> simulated;
  /// The closed form's step, kept when the simulation's figures replace `step`'s.
  LoadedStep closed_form;
};

/// A layout the closed form (means) puts more than this many times as far from the targets as
/// the best of its node count is not simulated: the simulation moves a layout's latencies by
/// far less against another's on the same GPUs (its means agree with the closed form's within
/// a few percent below saturation, and a percentile is never below its mean), and a search
/// over the catalog stays well under a second. When even the best misses by more than this,
/// no layout of the node count can meet, and only the best is simulated, for its figures.
constexpr double simulation_screen = 2;

/// Whether a layout at `distance` from the targets is simulated, when the best of its node
/// count is at `nearest`.
[[nodiscard]] constexpr bool worth_simulating(double distance, double nearest) {
  return nearest > simulation_screen ? distance == nearest
                                     : distance <= simulation_screen * nearest;
}

/// What pricing one system's layouts needs: the request, the load on its GPU with the
/// workloads it makes, the engine's scheduling, and the simulations
/// run so far over the whole plan.
struct Pricing {
  const PlanRequest& request;
  Load load;
  LoadWorkloads workloads;
  SchedulePolicy policy = SchedulePolicy::decode_first;
  SimulationMemo* memo = nullptr;
};

/// The closed form of the request's load: its rate, or its clients at the rate they reach.
LoadedStep closed_form(const PlanRequest& request, const Cluster& cluster,
                       const LoadWorkloads& workloads, const Layout& layout, const Load& load);

/// The layout of `e` simulated under the request's traffic, its step the simulation's figures
/// (TTFT and TPOT at the targets' statistics, the mean batch, the output tokens served,
/// saturated when the open loop fell behind); memory when no request fits the KV cache beside
/// the weights.
void simulate_layout(const Pricing& pricing, const Cluster& cluster, Evaluated& e);

} // namespace icx::detail
