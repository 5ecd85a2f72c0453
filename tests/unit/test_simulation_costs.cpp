#include "icx/serving/simulation_costs.hpp"

#include <string>

#include <gtest/gtest.h>

#include "load_fixture.hpp"

namespace icx::unit_simulation_costs {
namespace {

using SimulationCostsTest = test::EightBOnOneGpu;

/// A closed loop of `count` clients sending `requests` of the load's fixed lengths.
Traffic clients(std::int64_t count, const Load& load, std::int64_t requests) {
  Traffic t;
  t.arrivals = Arrivals::closed;
  t.concurrency = count;
  t.input = {LengthShape::fixed, load.input, 0};
  t.output = {LengthShape::fixed, load.output, 0};
  t.requests = requests;
  return t;
}

/// `requests` arriving at random at the load's rate, of its fixed lengths.
Traffic arrivals(const Load& load, std::int64_t requests) {
  Traffic t;
  t.rate = load.rate;
  t.input = {LengthShape::fixed, load.input, 0};
  t.output = {LengthShape::fixed, load.output, 0};
  t.requests = requests;
  return t;
}

constexpr double kv_per_token = test::eight_b_kv_per_token;

TEST_F(SimulationCostsTest, TheReplicaTakesTheEnginesLimitsAndTheCacheMemoryHolds) {
  const Load load{1, 1000, 200, 8192};
  const ReplicaModel r =
      replica_model(cluster, workloads(load), one, load, SchedulePolicy::decode_first);
  EXPECT_EQ(r.limits.max_sequences, 256);
  EXPECT_EQ(r.limits.token_budget, 8192);
  // 64 GB usable less 16 GB of weights hold 305 requests of 1200 tokens.
  EXPECT_EQ(r.limits.kv_tokens, 305 * 1200);
  EXPECT_EQ(r.costs.batches.front(), 1);
  EXPECT_EQ(r.costs.batches.back(), 256);
  // A token of context costs its KV cache read at 3.35 TB/s.
  EXPECT_NEAR(r.costs.per_context_token.front().value(), kv_per_token / 3.35e12, 1e-15);
  // One more prompt token: 2 × 8e9 FLOP at 494.5 TFLOP/s, its attention over the prompt adding
  // under 5 %.
  EXPECT_NEAR(r.costs.per_prompt_token.value(), 2 * 8e9 / 494.5e12, 0.05 * 2 * 8e9 / 494.5e12);
}

TEST_F(SimulationCostsTest, APipelineKeepsOneMicroBatchPerStageInFlight) {
  // PP 2 on two GPUs: two lanes, each scheduling half the engine's 256 sequences.
  const Cluster two{&gpu, 2, 8, 8, &nvlink, &ndr, 8};
  const Layout pipeline{1, 2, 1, 1};
  const Load load{1, 1000, 200, 8192};
  const ReplicaModel r =
      replica_model(two, workloads(load), pipeline, load, SchedulePolicy::decode_first);
  EXPECT_EQ(r.lanes, 2);
  EXPECT_EQ(r.schedulers(), 2);
  EXPECT_EQ(r.limits.max_sequences, 128);
  EXPECT_EQ(r.costs.batches.back(), 128);
  // A lane's step at one sequence passes both stages, each reading its 8 GB of weights at
  // 3.35 TB/s: 2 × 2.39 ms, as one GPU reading all 16 GB; the send between the stages and the
  // KV reads add under 5 %.
  EXPECT_NEAR(r.costs.decode.front().value(), 16e9 / 3.35e12, 0.05 * 16e9 / 3.35e12);
}

TEST_F(SimulationCostsTest, APromptLongerThanAChunkCostsItsWholePrefill) {
  // 20,000 tokens in chunks of 2,048: ten steps without decodes. Their sum is the prompt's
  // prefill alone plus a one-token pass for each of the nine further steps: each chunk attends
  // to the tokens before it, so the chunks' attention pairs add up to the whole prompt's
  // 20,000² / 2, and the rest is the line through one token and the prompt.
  const Load load{0.01, 20000, 10, 2048};
  const LoadWorkloads w = workloads(load);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  EXPECT_GT(r.costs.prefill_fixed.value(), 0);
  EXPECT_GT(r.costs.per_prompt_token.value(), 0);
  const SimulationResult s = simulate(r.costs, r.limits, clients(1, load, 5));
  const Seconds alone = evaluate_layout(cluster, w.prefill, one).step.busy();
  const double steps = 10;
  EXPECT_NEAR(s.ttft.mean.value(),
              (alone + r.costs.prefill_fixed * (steps - 1) + r.costs.per_request).value(),
              0.02 * alone.value());
}

TEST_F(SimulationCostsTest, ClientsThatDoNotDivideEvenlyServeWhatTheyAre) {
  // 60 clients over 8 replicas: each simulated with 8 (64 in all), of which 60 send, so the
  // cluster serves 60/64 of eight such replicas.
  const Cluster eight{&gpu, 8, 8, 8, &nvlink, &ndr, 8};
  const Layout replicas{1, 1, 1, 8};
  const Load load{0, 500, 100, 8192};
  const SimulatedLoad s = simulate_load(eight, workloads(load), replicas, load,
                                        SchedulePolicy::decode_first, clients(60, load, 200));
  EXPECT_EQ(s.per_replica.concurrency, 8);
  EXPECT_NEAR(s.output_tokens_per_second, s.result.output_tokens_per_second * 8 * 60.0 / 64.0,
              1e-9 * s.output_tokens_per_second);
  EXPECT_NEAR(s.tokens_per_second_per_gpu, s.output_tokens_per_second / 8, 1e-12);
}

TEST_F(SimulationCostsTest, AtLightLoadTheSimulationAgreesWithTheClosedForm) {
  // One request every 20 s: nothing queues, nothing shares the GPU.
  const Load load{0.05, 1000, 200, 8192};
  const LoadWorkloads w = workloads(load);
  const LoadedStep closed_form = serve_at_load(cluster, w, one, load);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  const SimulationResult s = simulate(r.costs, r.limits, arrivals(load, 200));
  EXPECT_NEAR(s.ttft.mean / closed_form.ttft, 1, 0.05);
  EXPECT_NEAR(s.tpot.mean / closed_form.tpot, 1, 0.05);
}

TEST_F(SimulationCostsTest, AnEnginesPromptPassIsPaidOncePerStepThatPrefills) {
  // The fixture's engine with 30 ms more in each step that prefills and 5 ms per request:
  // the replica's line for a prompt holds it apart (not in the step without decodes), and at
  // light load the simulation's TTFT still agrees with the closed form, which holds it too.
  std::string text = test::engine_overlay;
  const std::string costs = R"("request_us": 0})";
  text.replace(text.find(costs), costs.size(), R"("request_us": 5000, "prefill_step_us": 30000})");
  catalog.overlay_text(text, "pass.json");
  const Load load{0.05, 1000, 200, 8192};
  const LoadWorkloads w = workloads(load);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  EXPECT_NEAR(r.costs.prefill_step.value(), 30e-3, 1e-15);
  const Seconds prefill = evaluate_layout(cluster, w.prefill, one).step.busy();
  EXPECT_NEAR((r.costs.prefill_fixed + r.costs.prefill_step +
               r.costs.per_prompt_token * static_cast<double>(load.input) +
               r.costs.per_prompt_pair * (1000.0 * 1000.0 / 2))
                  .value(),
              prefill.value(), 1e-12);
  const SimulationResult s = simulate(r.costs, r.limits, arrivals(load, 200));
  const LoadedStep closed_form = serve_at_load(cluster, w, one, load);
  EXPECT_NEAR(s.ttft.mean / closed_form.ttft, 1, 0.05);
  // That TTFT holds the 5 ms outside, the 30 ms pass and the prompt's 2 × 8e9 × 1000 FLOP at
  // 494.5 TFLOP/s (32.4 ms), and a little attention.
  EXPECT_GT(s.ttft.mean.value(), 5e-3 + 30e-3 + 2 * 8e9 * 1000 / 494.5e12);
  EXPECT_LT(s.ttft.mean.value(), 1.05 * (5e-3 + 30e-3 + 2 * 8e9 * 1000 / 494.5e12));
}

TEST_F(SimulationCostsTest, EachPromptOfAStepAttendsToItsOwnTokens) {
  // Two 4096-token prompts in one step: their GEMMs run 8192 rows, as one 8192-token prompt's
  // do, but each attends only to its own tokens, 2 × 4096² / 2 pairs against that prompt's
  // 8192² / 2. The costs price the step as the step model prices the two prompts together.
  const Load load{0.05, 4096, 200, 8192};
  const LoadWorkloads w = workloads(load);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  const Seconds both = evaluate_layout(cluster, with_batch(w.prefill, 2), one).step.busy();
  const Seconds priced = r.costs.prefill_fixed + r.costs.prefill_step + r.costs.per_prompt * 2.0 +
                         r.costs.per_prompt_token * 8192.0 +
                         r.costs.per_prompt_pair * (2 * 4096.0 * 4096.0 / 2);
  EXPECT_NEAR(priced / both, 1, 1e-9);
}

TEST_F(SimulationCostsTest, ACachedPrefixIsAttendedToButNotRecomputed) {
  // Half of each 4096-token prompt in the prefix cache: the prompt computes 2048 tokens, each
  // attending to the 2048 cached ones and those before it, 2048 × (2048 + 1024) pairs. Priced
  // alone the prompt costs what the step model prices it at.
  Load load{0.05, 4096, 200, 8192};
  load.prefix_hit = 0.5;
  const LoadWorkloads w = workloads(load);
  ASSERT_EQ(w.prefill.cached, 2048);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  const Seconds alone = evaluate_layout(cluster, w.prefill, one).step.busy();
  const Seconds priced = r.costs.prefill_fixed + r.costs.prefill_step + r.costs.per_prompt +
                         r.costs.per_prompt_token * 2048.0 +
                         r.costs.per_prompt_pair * (2048.0 * (2048 + 1024));
  EXPECT_NEAR(priced / alone, 1, 1e-9);
}

TEST_F(SimulationCostsTest, AtSaturationThroughputIsTheStepModelsCapacity) {
  // 512 clients on a replica that runs 256 sequences of one prompt token and 1000 output
  // tokens: the batch stays full, and the tokens per second are the decode step's at 256
  // sequences at the mean context of 1 + 500 tokens.
  const Load load{1, 1, 1000, 8192};
  const LoadWorkloads w = workloads(load);
  const ReplicaModel r = replica_model(cluster, w, one, load, SchedulePolicy::decode_first);
  Workload full = w.decode;
  full.batch = 256;
  const double capacity = evaluate_layout(cluster, full, one).step.tokens_per_second_per_gpu;
  Traffic t;
  t.arrivals = Arrivals::closed;
  t.concurrency = 512;
  t.input = {LengthShape::fixed, 1, 0};
  t.output = {LengthShape::fixed, 1000, 0};
  t.requests = 3000;
  t.warmup = 500;
  const SimulationResult s = simulate(r.costs, r.limits, t);
  EXPECT_NEAR(s.output_tokens_per_second / capacity, 1, 0.02);
  EXPECT_NEAR(s.mean_batch, 256, 2.6);
}

} // namespace
} // namespace icx::unit_simulation_costs
