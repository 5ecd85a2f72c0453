#include "icx/serving/simulation_costs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/units_format.hpp"

namespace icx {

namespace {

/// Batches 1, 2, 4, … and the last one itself: the decode step is close to linear between
/// them (its weight reads are fixed, its KV reads and GEMM rows grow with the batch).
std::vector<std::int64_t> grid_batches(std::int64_t most) {
  std::vector<std::int64_t> batches;
  for (std::int64_t b = 1; b < most; b *= 2) {
    batches.push_back(b);
  }
  batches.push_back(most);
  return batches;
}

/// A prompt's cost per token in a step and per attention pair, what a step without decodes
/// pays first, and the engine's time per request.
void price_prompts(const Cluster& cluster, const LoadWorkloads& workloads, const Layout& layout,
                   const Load& load, StepCosts& costs) {
  const std::int64_t ranks = layout.ep;
  // One prompt per scheduler (each expert rank's, with data-parallel attention) at once, of
  // the load's length and of twice it. The attention, which grows with the square of the
  // length, is priced per pair; the rest's difference is a prompt token's marginal cost (the
  // weights are read once either way), what is left what a step without decodes pays first.
  Workload prompts = with_batch(workloads.prefill, schedulers(layout));
  const auto priced = [&](std::int64_t tokens) {
    prompts.tokens = tokens;
    return evaluate_layout(cluster, prompts, layout).step;
  };
  const auto without_attention = [&](const StepTime& step) {
    return step.busy() - attention_busy(step, layout.pp);
  };
  const std::int64_t length = workloads.prefill.tokens;
  const StepTime one = priced(length);
  const Seconds prefill = without_attention(one);
  const Seconds longer = without_attention(priced(length * 2));
  const auto scale = static_cast<double>(ranks);
  costs.per_prompt_pair =
      attention_busy(one, layout.pp) /
      (attention_pairs(static_cast<double>(length), static_cast<double>(prompts.cached)) * scale);
  const auto tokens = static_cast<double>(length) * scale;
  costs.per_prompt_token = (longer - prefill) / tokens;
  costs.prefill_fixed = prefill - costs.per_prompt_token * tokens;
  if (length > load.prefill_chunk) {
    // A prompt longer than a step's chunk is prefilled over several steps, each of fewer
    // tokens than the line above was drawn through: the line through a one-token prompt and
    // the load's instead, the whole prompt's cost kept (and a one-token pass more per further
    // step), no step negative.
    costs.prefill_fixed = without_attention(priced(1));
    costs.per_prompt_token = std::max(Seconds{}, prefill - costs.prefill_fixed) /
                             (static_cast<double>(length - 1) * scale);
  }
  // The engine's host work on a prompt's sequence, which the line above holds once (one
  // prompt per scheduler): apart, each prompt of a step pays it.
  const Engine* engine = workloads.prefill.engine;
  costs.per_prompt = engine != nullptr ? engine->costs.sequence : Seconds{};
  // The engine's own prompt pass, which the line above also holds once: apart, every step
  // that prefills pays it, a mixed one too.
  costs.prefill_step = engine != nullptr ? engine->costs.prefill_step : Seconds{};
  costs.prefill_fixed = costs.prefill_fixed - costs.per_prompt - costs.prefill_step;
  costs.per_request = one.request;
}

} // namespace

ReplicaModel replica_model(const Cluster& cluster, const LoadWorkloads& workloads,
                           const Layout& layout, const Load& load, SchedulePolicy policy) {
  ReplicaModel replica;
  replica.replicas = layout.dp;
  const LayoutMemory memory =
      layout_memory(*cluster.gpu, workloads.full_length, layout, std::nullopt);
  if (memory.weights_per_gpu > memory.usable_per_gpu) {
    throw InputError(fmt::format("the weights ({} per GPU) do not fit the {} usable per GPU on "
                                 "this layout: give more --gpus",
                                 format_bytes(memory.weights_per_gpu),
                                 format_bytes(memory.usable_per_gpu)));
  }
  if (memory.replica_capacity == 0) {
    throw KvCacheError(fmt::format("one request of {} tokens needs more KV cache than the {} per "
                                   "GPU the weights leave: shorten --input or --output, or give "
                                   "more --gpus",
                                   workloads.full_length.context + 1,
                                   format_bytes(memory.usable_per_gpu - memory.weights_per_gpu)));
  }
  const std::int64_t full_tokens = workloads.full_length.context + 1;
  const std::int64_t ranks = layout.ep;
  const std::int64_t lanes = layout.pp;
  replica.lanes = layout.pp;
  replica.limits.max_sequences =
      std::max<std::int64_t>(1, scheduler_limit(workloads.decode, layout) / lanes);
  replica.limits.token_budget = load.prefill_chunk * ranks;
  replica.limits.kv_tokens = memory.replica_capacity * full_tokens / lanes;
  replica.limits.policy = policy;
  replica.limits.prefix_block = load.prefix_block;
  replica.limits.kv_admission = load.kv_admission;

  StepCosts& costs = replica.costs;
  costs.batches = grid_batches(replica.limits.max_sequences);
  costs.base_context = workloads.decode.context;
  const auto extra = static_cast<double>(workloads.full_length.context - costs.base_context);
  for (const std::int64_t b : costs.batches) {
    // Every lane of every replica at `b`: each stage's micro-batch is b.
    const std::int64_t cluster_batch = b * lanes * layout.dp;
    const Seconds mean =
        evaluate_layout(cluster, with_batch(workloads.decode, cluster_batch), layout).step.latency;
    const Seconds full =
        evaluate_layout(cluster, with_batch(workloads.full_length, cluster_batch), layout)
            .step.latency;
    costs.decode.push_back(mean);
    costs.per_context_token.push_back(extra > 0 ? (full - mean) / (extra * static_cast<double>(b))
                                                : Seconds{});
  }
  price_prompts(cluster, workloads, layout, load, costs);
  return replica;
}

SimulatedLoad simulate_load(const Cluster& cluster, const LoadWorkloads& workloads,
                            const Layout& layout, const Load& load, SchedulePolicy policy,
                            const Traffic& traffic, SimulationMemo* memo) {
  SimulatedLoad out;
  out.replica = replica_model(cluster, workloads, layout, load, policy);
  out.traffic = traffic;
  out.per_replica = traffic;
  const auto replicas = static_cast<std::int64_t>(out.replica.schedulers());
  out.per_replica.concurrency = (traffic.concurrency + replicas - 1) / replicas;
  out.per_replica.rate = traffic.rate / static_cast<double>(replicas);
  out.result = memo != nullptr ? memo->run(out.replica.costs, out.replica.limits, out.per_replica)
                               : simulate(out.replica.costs, out.replica.limits, out.per_replica);
  // Every replica serves its share alike. Clients that do not divide evenly are simulated on
  // the busier replicas' share (their latencies, an upper bound for the others), the
  // throughput that of the clients there are: 64 over 9 replicas is 8 each (72), of which 64
  // send.
  const double present = traffic.arrivals == Arrivals::closed
                             ? static_cast<double>(traffic.concurrency) /
                                   static_cast<double>(out.per_replica.concurrency * replicas)
                             : 1.0;
  const double served = static_cast<double>(replicas) * present;
  out.requests_per_second = out.result.requests_per_second * served;
  out.output_tokens_per_second = out.result.output_tokens_per_second * served;
  out.tokens_per_second_per_gpu = out.output_tokens_per_second / static_cast<double>(cluster.gpus);
  return out;
}

namespace {

Json summary_json(const LatencySummary& s) {
  return {{"mean", json_number(s.mean.value())},
          {"p50", json_number(s.p50.value())},
          {"p90", json_number(s.p90.value())},
          {"p99", json_number(s.p99.value())}};
}

Json lengths_json(const LengthDistribution& d) {
  return {{"shape", std::string(to_string(d.shape))},
          {"nominal", d.nominal},
          {"spread", json_number(d.spread)}};
}

} // namespace

Json simulated_json(const SimulatedLoad& load) {
  const Traffic& t = load.traffic;
  const SimulationResult& r = load.result;
  const ReplicaModel& m = load.replica;
  return {{"arrivals", std::string(to_string(t.arrivals))},
          {"concurrency", t.arrivals == Arrivals::closed ? Json(t.concurrency) : Json()},
          {"rate_per_second", t.arrivals == Arrivals::closed ? Json() : json_number(t.rate)},
          {"requests", t.requests},
          {"warmup", t.warmup},
          {"measured", r.measured},
          {"seed", t.seed},
          {"input", lengths_json(t.input)},
          {"output", lengths_json(t.output)},
          {"prefix_hit", json_number(t.prefix_hit)},
          {"warm_prompts", t.warm_prompts},
          {"prefix_block_tokens", m.limits.prefix_block},
          {"replicas", m.replicas},
          {"lanes_per_replica", m.lanes},
          {"policy", std::string(to_string(m.limits.policy))},
          {"max_sequences", m.limits.max_sequences},
          {"token_budget", m.limits.token_budget},
          {"kv_tokens", m.limits.kv_tokens},
          {"ttft", summary_json(r.ttft)},
          {"tpot", summary_json(r.tpot)},
          {"itl", summary_json(r.itl)},
          {"e2e", summary_json(r.e2e)},
          {"requests_per_second", json_number(load.requests_per_second)},
          {"output_tokens_per_second", json_number(load.output_tokens_per_second)},
          {"tokens_per_second_per_gpu", json_number(load.tokens_per_second_per_gpu)},
          {"mean_batch", json_number(r.mean_batch)},
          {"kv_occupancy", json_number(r.kv_occupancy)},
          {"preemptions", r.preemptions},
          {"duration_seconds", json_number(r.duration.value())},
          {"offered_rate_per_second",
           t.arrivals == Arrivals::closed ? Json() : json_number(r.offered_rate)},
          {"served_rate_per_second",
           t.arrivals == Arrivals::closed ? Json() : json_number(r.served_rate)},
          {"saturated", r.saturated}};
}

} // namespace icx
