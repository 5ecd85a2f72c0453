// Serving under load, step by step: a seeded, deterministic simulation of one engine
// scheduler running requests by continuous batching. Requests arrive open-loop (Poisson or at
// a constant rate) or closed-loop (N clients, each sending its next request when the last one
// finishes); each engine step runs the decodes in flight and up to a budget of prompt tokens
// (chunked prefill), admits waiting requests while sequences and KV cache allow, and preempts
// the newest request, to recompute later, when the cache fills. What a step costs comes from
// the step model (StepCosts, built by step_costs_for in icx/serving/simulation_costs.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/error.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

enum class Arrivals {
  /// Open loop, exponential gaps at the rate (what `vllm bench serve --request-rate` sends).
  poisson,
  /// Open loop, one request every 1 / rate.
  constant,
  /// Closed loop: a fixed number of clients (`--max-concurrency`, genai-perf's concurrency).
  closed,
};

constexpr std::array<EnumName<Arrivals>, 3> enum_names(Arrivals /*unused*/) {
  return {{{Arrivals::poisson, "poisson"},
           {Arrivals::constant, "constant"},
           {Arrivals::closed, "closed"}}};
}

enum class LengthShape {
  /// Every request the nominal length.
  fixed,
  /// Uniform between (1 − spread) × nominal and nominal, as InferenceMAX draws 0.8–1.0.
  uniform,
  /// Lognormal with the nominal length as its mean and `spread` as its coefficient of
  /// variation.
  lognormal,
  /// A (prompt, output) pair of a published ShareGPT benchmark run's requests
  /// (sharegpt_sample()), each scaled so that the sample's means are the nominal lengths:
  /// ShareGPT's skew (most prompts short, a few long) and its long prompts' shorter answers
  /// kept; `spread` is not used.
  sharegpt,
};

constexpr std::array<EnumName<LengthShape>, 4> enum_names(LengthShape /*unused*/) {
  return {{{LengthShape::fixed, "fixed"},
           {LengthShape::uniform, "uniform"},
           {LengthShape::lognormal, "lognormal"},
           {LengthShape::sharegpt, "sharegpt"}}};
}

/// How a request's prompt or output length is drawn; every draw is at least one token.
struct LengthDistribution {
  LengthShape shape = LengthShape::fixed;
  std::int64_t nominal = 1;
  double spread = 0;
};

/// One scheduler's limits (the engine's defaults for the GPU, or the user's).
struct SchedulerLimits {
  /// Sequences in flight at once (vLLM's --max-num-seqs).
  std::int64_t max_sequences = 1;
  /// Tokens one step may run, decodes included under decode_first (vLLM's
  /// --max-num-batched-tokens); prompt tokens only under prefill_first.
  std::int64_t token_budget = 1;
  /// Tokens the KV cache holds beside the weights.
  std::int64_t kv_tokens = 1;
  SchedulePolicy policy = SchedulePolicy::decode_first;
  /// Tokens per block of the prefix cache (prefix_cached).
  std::int64_t prefix_block = 1;
  /// whole_request: a request is admitted only when its prompt and every output token fit
  /// beside those already admitted, and none is preempted.
  KvAdmission kv_admission = KvAdmission::on_demand;
};

/// The query-key pairs causal attention computes for `tokens` new tokens after `before` already
/// in the cache: each attends to those before it and to itself, tokens × (before + tokens / 2).
/// A prompt's chunks add up to the whole prompt's count.
[[nodiscard]] constexpr double attention_pairs(double tokens, double before) {
  return tokens * (before + tokens / 2);
}

/// What one engine step costs: a decode step by its batch and the tokens its sequences attend
/// to, interpolated from the step model at grid batches (linear in both), plus each prompt
/// token it prefills at a prompt's marginal cost; a step without decodes pays what a prompt
/// costs before its first token (the engine's step, the weights read once) instead.
struct StepCosts {
  /// Ascending decode batches the table holds, the first 1.
  std::vector<std::int64_t> batches;
  /// The decode step at each batch with every sequence at `base_context` tokens.
  std::vector<Seconds> decode;
  /// What each further token of context adds to that step, at each batch.
  std::vector<Seconds> per_context_token;
  std::int64_t base_context = 0;
  /// What one more prompt token adds to a step, its attention apart.
  Seconds per_prompt_token;
  /// What a prompt's attention adds per pair of a query token and a key token it attends to: a
  /// chunk of q tokens after c already in the cache (a cached prefix, earlier chunks) attends to
  /// attention_pairs(q, c) pairs, so a long prompt's later chunks cost more than its first.
  Seconds per_prompt_pair;
  /// What each prompt a step prefills a chunk of adds: the engine's host work on its sequence.
  Seconds per_prompt;
  /// A step without decodes before its prompt tokens, less the engine's prompt pass (added
  /// apart, below): below zero where that pass is longer than the rest.
  Seconds prefill_fixed;
  /// What a step that prefills adds, with decodes or without: the engine's own prompt pass.
  Seconds prefill_step;
  /// The engine's time per request outside the GPUs' steps (part of TTFT and e2e latency).
  Seconds per_request;
  /// The step of `batch` decodes attending to `context_tokens` in all: what the table holds
  /// between its grid batches, its last row's slope beyond.
  [[nodiscard]] double decode_seconds(std::int64_t batch, double context_tokens) const;
};

/// Requests a simulation runs when nothing says how many: vllm bench serve's default
/// --num-prompts.
constexpr std::int64_t default_simulated_requests = 1000;

/// The load one scheduler sees.
struct Traffic {
  Arrivals arrivals = Arrivals::poisson;
  /// Requests per second (open loop).
  double rate = 0;
  /// Clients (closed loop).
  std::int64_t concurrency = 1;
  LengthDistribution input;
  LengthDistribution output;
  /// Fraction of each prompt found in the prefix cache (prefix_cached): prefilled without
  /// computing, held in the KV cache as the request's own.
  double prefix_hit = 0;
  /// The first this many requests find their whole prompt in the prefix cache, in whole blocks:
  /// the benchmark client sent those prompts once before the run (vllm bench serve's initial
  /// test prompt and SGLang bench_serving's warm-up both send request 0's).
  std::int64_t warm_prompts = 0;
  /// Requests simulated; the first and last `warmup` are left out of every figure.
  std::int64_t requests = 0;
  std::int64_t warmup = 0;
  std::uint64_t seed = 0;
};

/// Mean and nearest-rank percentiles of one latency.
struct LatencySummary {
  Seconds mean;
  Seconds p50;
  Seconds p90;
  Seconds p99;
};

/// Which figure of a latency a target holds: its mean or a percentile.
enum class Statistic { mean, p50, p90, p99 };

constexpr std::array<EnumName<Statistic>, 4> enum_names(Statistic /*unused*/) {
  return {{{Statistic::mean, "mean"},
           {Statistic::p50, "p50"},
           {Statistic::p90, "p90"},
           {Statistic::p99, "p99"}}};
}

/// That figure of `summary`.
Seconds statistic_of(const LatencySummary& summary, Statistic statistic);

struct SimulationResult {
  /// Requests the figures cover: those issued after the first `warmup` and before the last.
  std::int64_t measured = 0;
  LatencySummary ttft;
  /// Per request: (finish − first token) / (output − 1), over requests of two tokens or more.
  LatencySummary tpot;
  /// Every gap between two tokens of a sequence, one per decoded token.
  LatencySummary itl;
  LatencySummary e2e;
  /// Between the warm-up's last completion and the cool-down's first.
  double requests_per_second = 0;
  double output_tokens_per_second = 0;
  /// Time-weighted over that window: sequences decoding per step, and the KV cache's share in
  /// use.
  double mean_batch = 0;
  double kv_occupancy = 0;
  std::int64_t preemptions = 0;
  /// The simulated time until the last request finished.
  Seconds duration;
  /// Open loop: the rate the measured requests were sent at, and the rate requests finished
  /// at while they were being sent (zero for a closed loop).
  double offered_rate = 0;
  double served_rate = 0;
  /// Open loop: the scheduler fell behind its arrivals (served_rate short of offered_rate by
  /// more than three standard deviations of a Poisson count, offered / sqrt(measured)): its
  /// queue grows for as long as requests come, and the latencies depend on how many did.
  bool saturated = false;
};

/// A request that can never run: its prompt and output need more KV cache than the GPUs hold
/// beside the weights (a layout's memory, not the user's input, is what falls short).
class KvCacheError : public InputError {
public:
  using InputError::InputError;
};

/// Simulates `traffic` on one scheduler. Throws KvCacheError when a request cannot ever run
/// (its prompt and output exceed the KV cache), InputError when the traffic leaves nothing to
/// measure or is more than one simulation runs.
SimulationResult simulate(const StepCosts& costs, const SchedulerLimits& limits,
                          const Traffic& traffic);

/// Simulations already run, by everything they depend on: a search that meets the same
/// replica under the same traffic twice (two systems of one GPU, one node) runs it once.
class SimulationMemo {
public:
  /// simulate(costs, limits, traffic), or the result of the same inputs before.
  const SimulationResult& run(const StepCosts& costs, const SchedulerLimits& limits,
                              const Traffic& traffic);

private:
  std::map<std::vector<double>, SimulationResult> runs_;
};

} // namespace icx
