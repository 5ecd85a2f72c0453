// What the scheduler simulation (icx/serving/simulate.hpp) needs from the step model for one
// layout: a replica's decode step by batch and context, a prompt's cost per token, the engine's
// own times, and the replica's scheduler limits and KV cache.
#pragma once

#include <cstdint>

#include "icx/base/json_values.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/simulate.hpp"

namespace icx {

/// One replica of `layout` (a data-parallel rank; its expert ranks scheduling together) as the
/// simulation sees it.
struct ReplicaModel {
  StepCosts costs;
  SchedulerLimits limits;
  /// Replicas the cluster's load is spread over, evenly (a load balancer's round robin).
  int replicas = 1;
  /// Micro-batches a replica's pipeline keeps in flight, one per stage (vLLM's batch queue of
  /// pipeline-parallel size): each is simulated as a scheduler of its own share of the
  /// replica's requests, sequences and KV cache, whose step is a pass through every stage.
  int lanes = 1;
  /// Schedulers the cluster's load is shared by: replicas × lanes.
  [[nodiscard]] int schedulers() const { return replicas * lanes; }
};

/// The replica's costs from the step model, for one lane (one micro-batch of its pipeline):
/// decode steps at batches 1, 2, 4, … up to the engine's sequence limit per lane, each a pass
/// through every stage with each stage's micro-batch that size, at the load's mean context
/// and at its full length (the slope between them is what a token of context costs); a prompt
/// of the load's length prefilled alone through the pipeline, over its tokens (with
/// data-parallel attention, one prompt per expert rank at once). Limits per lane: the
/// engine's sequences per replica and the KV cache (the tokens of the requests memory holds
/// at full length), each shared by the lanes; the prefill chunk per scheduler (times its
/// expert ranks); the engine's scheduling policy. Throws InputError as evaluate_layout
/// does, KvCacheError when the weights leave no memory for one request's KV cache.
ReplicaModel replica_model(const Cluster& cluster, const LoadWorkloads& workloads,
                           const Layout& layout, const Load& load, SchedulePolicy policy);

/// A load simulated on one layout: the replica model, the traffic each lane of a replica sees
/// (the cluster's clients spread evenly over the schedulers, rounded up, or its rate divided
/// among them) and what the simulation found.
struct SimulatedLoad {
  ReplicaModel replica;
  /// The cluster's traffic, and the part of it one replica sees.
  Traffic traffic;
  Traffic per_replica;
  SimulationResult result;
  /// The cluster's requests and output tokens per second (the replicas together), and the
  /// latter per GPU.
  double requests_per_second = 0;
  double output_tokens_per_second = 0;
  double tokens_per_second_per_gpu = 0;
};

/// Simulates `traffic` (over the whole cluster) on `layout` (replica_model's assumptions),
/// through `memo` when given.
SimulatedLoad simulate_load(const Cluster& cluster, const LoadWorkloads& workloads,
                            const Layout& layout, const Load& load, SchedulePolicy policy,
                            const Traffic& traffic, SimulationMemo* memo = nullptr);

/// {arrivals, concurrency, rate_per_second, requests, warmup, measured, seed, input, output
/// (each {shape, nominal, spread}), prefix_hit, warm_prompts, prefix_block_tokens, replicas,
/// lanes_per_replica, policy, max_sequences,
/// token_budget, kv_tokens, ttft, tpot, itl, e2e (each {mean, p50, p90, p99} in seconds),
/// requests_per_second, output_tokens_per_second (the cluster's), tokens_per_second_per_gpu,
/// mean_batch, kv_occupancy, preemptions, duration_seconds, offered_rate_per_second and
/// served_rate_per_second (one replica's, open loop only; else null), saturated}.
Json simulated_json(const SimulatedLoad& load);

} // namespace icx
