// A latency's statistic, and simulations remembered by their inputs (icx/serving/simulate.hpp).
#include <utility>
#include <vector>

#include "icx/serving/simulate.hpp"

namespace icx {

Seconds statistic_of(const LatencySummary& summary, Statistic statistic) {
  switch (statistic) {
  case Statistic::mean:
    return summary.mean;
  case Statistic::p50:
    return summary.p50;
  case Statistic::p90:
    return summary.p90;
  case Statistic::p99:
    break;
  }
  return summary.p99;
}

namespace {

/// Every input of a simulation as numbers (counts and seeds below 2^53, so exact).
std::vector<double> memo_key(const StepCosts& costs, const SchedulerLimits& limits,
                             const Traffic& traffic) {
  std::vector<double> key;
  const auto add = [&](auto value) { key.push_back(static_cast<double>(value)); };
  const auto add_lengths = [&](const LengthDistribution& d) {
    add(static_cast<int>(d.shape));
    add(d.nominal);
    add(d.spread);
  };
  for (std::size_t i = 0; i < costs.batches.size(); ++i) {
    add(costs.batches[i]);
    add(costs.decode[i].value());
    add(costs.per_context_token[i].value());
  }
  add(costs.base_context);
  add(costs.per_prompt_token.value());
  add(costs.per_prompt_pair.value());
  add(costs.per_prompt.value());
  add(costs.prefill_fixed.value());
  add(costs.prefill_step.value());
  add(costs.per_request.value());
  add(limits.max_sequences);
  add(limits.token_budget);
  add(limits.kv_tokens);
  add(static_cast<int>(limits.policy));
  add(static_cast<int>(limits.kv_admission));
  add(limits.prefix_block);
  add(static_cast<int>(traffic.arrivals));
  add(traffic.rate);
  add(traffic.concurrency);
  add_lengths(traffic.input);
  add_lengths(traffic.output);
  add(traffic.prefix_hit);
  add(traffic.warm_prompts);
  add(traffic.requests);
  add(traffic.warmup);
  add(traffic.seed);
  return key;
}

} // namespace

const SimulationResult& SimulationMemo::run(const StepCosts& costs, const SchedulerLimits& limits,
                                            const Traffic& traffic) {
  std::vector<double> key = memo_key(costs, limits, traffic);
  if (const auto found = runs_.find(key); found != runs_.end()) {
    return found->second;
  }
  return runs_.emplace(std::move(key), simulate(costs, limits, traffic)).first->second;
}

} // namespace icx
