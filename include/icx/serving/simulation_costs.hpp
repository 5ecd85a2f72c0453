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
};

/// The replica's costs from the step model: decode steps at batches 1, 2, 4, … up to the
/// engine's sequence limit per replica, each at the load's mean context and at its full
/// length (the slope between them is what a token of context costs); a prompt of the load's
/// length prefilled alone, over its tokens (with data-parallel attention, one prompt per
/// expert rank at once). Limits: the engine's sequences per replica, the prefill chunk per
/// scheduler (times its expert ranks), the KV cache as the tokens of the requests memory holds
/// at full length, and the engine's scheduling policy. Throws InputError as evaluate_layout
/// does, or when the weights leave no memory for a KV cache.
ReplicaModel replica_model(const Cluster& cluster, const LoadWorkloads& workloads,
                           const Layout& layout, const Load& load, SchedulePolicy policy);

/// A load simulated on one layout: the replica model, the traffic each replica sees (the
/// cluster's clients spread evenly over the replicas, rounded up, or its rate divided among
/// them) and what the simulation found.
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

/// Simulates `traffic` (over the whole cluster) on `layout` (replica_model's assumptions).
SimulatedLoad simulate_load(const Cluster& cluster, const LoadWorkloads& workloads,
                            const Layout& layout, const Load& load, SchedulePolicy policy,
                            const Traffic& traffic);

/// {arrivals, concurrency, rate_per_second, requests, warmup, measured, seed, input, output
/// (each {shape, nominal, spread}), replicas, policy, max_sequences, token_budget, kv_tokens,
/// ttft, tpot, itl, e2e (each {mean, p50, p90, p99} in seconds), requests_per_second,
/// output_tokens_per_second (the cluster's), tokens_per_second_per_gpu, mean_batch,
/// kv_occupancy, preemptions, duration_seconds, offered_rate_per_second and
/// served_rate_per_second (one replica's, open loop only; else null), saturated}.
Json simulated_json(const SimulatedLoad& load);

} // namespace icx
