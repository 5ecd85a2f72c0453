// Which target a plan's step misses, and what a candidate costs (icx/serving/plan.hpp).
#include "icx/serving/plan.hpp"

#include <algorithm>

namespace icx {

TargetMiss target_miss(const LoadedStep& step, const PlanTargets& targets) {
  if (!step.serves()) {
    return {step.limit == ServeLimit::memory ? PlanMiss::memory : PlanMiss::saturated, 1};
  }
  const double ttft = step.ttft / targets.ttft;
  const double tpot = step.tpot / targets.tpot;
  return {tpot >= ttft ? PlanMiss::tpot : PlanMiss::ttft, std::max(ttft, tpot)};
}

std::optional<int> whole_nodes(const Cluster& pool) {
  if (pool.gpus < pool.gpus_per_node) {
    return std::nullopt;
  }
  return pool.gpus / pool.gpus_per_node;
}

int Disaggregated::nodes() const {
  // A pool is a divisor of a node's GPUs or whole nodes, so pools under a node share one and
  // a pool of whole nodes leaves the other a node of its own.
  const int gpus = prefill_cluster.gpus + decode_cluster.gpus;
  const int per_node = prefill_cluster.gpus_per_node;
  return (gpus + per_node - 1) / per_node;
}

std::optional<double> PlanCandidate::cost_per_hour() const {
  if (!usd_per_node_hour) {
    return std::nullopt;
  }
  return *usd_per_node_hour * nodes;
}

double PlanCandidate::output_tokens_per_second(const Load& load) const {
  if (simulated &&
      (simulated->traffic.arrivals == Arrivals::closed || simulated->result.saturated)) {
    // What the clients reached, or what an open loop that fell behind served.
    return simulated->output_tokens_per_second;
  }
  if (load.rate <= 0) {
    // A closed loop by the closed form (--fast): what its clients reach at Little's rate.
    return step.tokens_per_second_per_gpu * static_cast<double>(cluster.gpus);
  }
  if (step.limit != ServeLimit::none) {
    // The closed form cannot serve the load here: no tokens to price.
    return 0;
  }
  return load.rate * static_cast<double>(load.output);
}

double PlanCandidate::output_tokens_per_second_per_gpu(const Load& load) const {
  return output_tokens_per_second(load) / static_cast<double>(nodes * system->gpus_per_node);
}

std::optional<double> PlanCandidate::cost_per_million_output_tokens(const Load& load) const {
  const std::optional<double> hourly = cost_per_hour();
  const double tokens = output_tokens_per_second(load);
  if (!hourly || tokens <= 0) {
    return std::nullopt;
  }
  // Output tokens the load asks for in an hour (all of which the candidate serves when it
  // meets the targets), or a closed loop's clients reach.
  constexpr double seconds_per_hour = 3600;
  constexpr double million = 1e6;
  return *hourly / (tokens * seconds_per_hour) * million;
}

} // namespace icx
