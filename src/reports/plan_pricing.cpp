#include "reports/plan_pricing.hpp"

#include <algorithm>
#include <cmath>

#include "icx/base/error.hpp"

namespace icx::detail {

namespace {

/// The simulation's figures in the closed form's step: TTFT and TPOT at the targets'
/// statistics, the mean batch, the output tokens served, and saturated when the open loop fell
/// behind (whatever the closed form found: the simulation queues what memory does not hold).
void take_simulated(LoadedStep& step, const SimulatedLoad& sim, const PlanTargets& targets) {
  const SimulationResult& r = sim.result;
  step.ttft = statistic_of(r.ttft, targets.ttft_statistic);
  step.tpot = statistic_of(r.tpot, targets.tpot_statistic);
  // The schedulers' batches, the busier share each (clients that do not divide evenly), at
  // most the requests there are: a closed loop's clients.
  const double batch = r.mean_batch * sim.replica.schedulers();
  step.batch = std::max<std::int64_t>(
      1, std::llround(sim.traffic.arrivals == Arrivals::closed
                          ? std::min(batch, static_cast<double>(sim.traffic.concurrency))
                          : batch));
  step.tokens_per_second_per_gpu = sim.tokens_per_second_per_gpu;
  step.limit = r.saturated ? ServeLimit::saturated : ServeLimit::none;
}

} // namespace

LoadedStep closed_form(const PlanRequest& request, const Cluster& cluster,
                       const LoadWorkloads& workloads, const Layout& layout, const Load& load) {
  if (request.traffic && request.traffic->arrivals == Arrivals::closed) {
    return serve_clients(cluster, workloads, layout, load, request.traffic->concurrency);
  }
  return serve_at_load(cluster, workloads, layout, load);
}

void simulate_layout(const Pricing& pricing, const Cluster& cluster, Evaluated& e) {
  const PlanRequest& request = pricing.request;
  try {
    e.simulated = simulate_load(cluster, pricing.workloads, e.layout, pricing.load, pricing.policy,
                                *request.traffic, pricing.memo);
  } catch (const KvCacheError&) {
    e.step.limit = ServeLimit::memory;
    return;
  }
  e.closed_form = e.step;
  take_simulated(e.step, *e.simulated, request.targets);
}

} // namespace icx::detail
