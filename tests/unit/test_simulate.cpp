#include "icx/serving/simulate.hpp"

#include <gtest/gtest.h>

#include "icx/base/error.hpp"

namespace icx::unit_simulate {
namespace {

constexpr double ms = 1e-3;

/// Decode steps of 10 ms at one sequence and 16 ms at four (linear between), no cost for
/// context; 0.1 ms per prompt token, 1 ms of engine time in a step without decodes.
StepCosts hand_costs(Seconds per_request = Seconds{}) {
  StepCosts costs;
  costs.batches = {1, 4};
  costs.decode = {Seconds::of(10 * ms), Seconds::of(16 * ms)};
  costs.per_context_token = {Seconds{}, Seconds{}};
  costs.base_context = 100;
  costs.per_prompt_token = Seconds::of(0.1 * ms);
  costs.prefill_fixed = Seconds::of(1 * ms);
  costs.per_request = per_request;
  return costs;
}

SchedulerLimits roomy(SchedulePolicy policy, std::int64_t budget = 1000) {
  return {8, budget, 1'000'000, policy};
}

Traffic closed(std::int64_t clients, std::int64_t requests, std::int64_t input,
               std::int64_t output) {
  Traffic t;
  t.arrivals = Arrivals::closed;
  t.concurrency = clients;
  t.input = {LengthShape::fixed, input, 0};
  t.output = {LengthShape::fixed, output, 0};
  t.requests = requests;
  return t;
}

TEST(Simulate, DecodeStepsInterpolateInBatchAndAddTheirContext) {
  StepCosts costs;
  costs.batches = {1, 4, 8};
  costs.decode = {Seconds::of(10 * ms), Seconds::of(16 * ms), Seconds::of(20 * ms)};
  costs.per_context_token = {Seconds::of(1e-6), Seconds::of(1e-6), Seconds::of(2e-6)};
  costs.base_context = 100;
  // Halfway between 4 and 8: 18 ms, and 60 tokens beyond 6 × 100 at 1.5 µs each.
  EXPECT_NEAR(costs.decode_seconds(6, 660), 18.09 * ms, 1e-12);
  // On a grid batch: its own row.
  EXPECT_NEAR(costs.decode_seconds(4, 400), 16 * ms, 1e-12);
  // Beyond the grid: the last rows' slope, 1 ms per sequence, carried on to 16.
  EXPECT_NEAR(costs.decode_seconds(16, 1600), 28 * ms, 1e-12);
}

TEST(Simulate, OneRequestAloneIsItsPrefillThenItsDecodes) {
  // Ready after its 5 ms of request time; a 100-token prompt in one step without decodes
  // (1 + 100 × 0.1 = 11 ms), then 10 decode steps of 10 ms.
  const SimulationResult r = simulate(hand_costs(Seconds::of(5 * ms)),
                                      roomy(SchedulePolicy::decode_first), closed(1, 1, 100, 11));
  EXPECT_EQ(r.measured, 1);
  EXPECT_NEAR(r.ttft.mean.value(), 16 * ms, 1e-12);
  EXPECT_NEAR(r.tpot.p99.value(), 10 * ms, 1e-12);
  EXPECT_NEAR(r.itl.p50.value(), 10 * ms, 1e-12);
  EXPECT_NEAR(r.e2e.mean.value(), 116 * ms, 1e-12);
  EXPECT_NEAR(r.duration.value(), 116 * ms, 1e-12);
  // 11 tokens over the 116 ms from its issue to its end.
  EXPECT_NEAR(r.output_tokens_per_second, 11 / (116 * ms), 1e-9);
  EXPECT_EQ(r.preemptions, 0);
}

TEST(Simulate, EachPromptOfAStepPaysItsOwnSequence) {
  // Two clients' 100-token prompts arrive together and prefill in one step without decodes:
  // 1 ms + 200 × 0.1 ms + 2 prompts × 0.5 ms = 22 ms, the first token of both.
  StepCosts costs = hand_costs();
  costs.per_prompt = Seconds::of(0.5 * ms);
  const SimulationResult r =
      simulate(costs, roomy(SchedulePolicy::decode_first), closed(2, 2, 100, 2));
  EXPECT_NEAR(r.ttft.mean.value(), 22 * ms, 1e-12);
  // Without it, 21 ms.
  const SimulationResult bare =
      simulate(hand_costs(), roomy(SchedulePolicy::decode_first), closed(2, 2, 100, 2));
  EXPECT_NEAR(bare.ttft.mean.value(), 21 * ms, 1e-12);
}

TEST(Simulate, EveryStepThatPrefillsPaysTheEnginesPromptPassOnce) {
  // 4 ms more in a step that prefills. One client: its 100-token prompt's step is 1 + 10 + 4
  // = 15 ms, its decodes 10 ms each.
  StepCosts costs = hand_costs();
  costs.prefill_step = Seconds::of(4 * ms);
  const SimulationResult one =
      simulate(costs, roomy(SchedulePolicy::decode_first), closed(1, 1, 100, 3));
  EXPECT_NEAR(one.ttft.mean.value(), 15 * ms, 1e-12);
  EXPECT_NEAR(one.e2e.mean.value(), 35 * ms, 1e-12);
  // Two prompts in one step pay it once: 1 + 20 + 4 = 25 ms.
  const SimulationResult two =
      simulate(costs, roomy(SchedulePolicy::decode_first), closed(2, 2, 100, 2));
  EXPECT_NEAR(two.ttft.mean.value(), 25 * ms, 1e-12);
  // A step that decodes and prefills pays it too. Budget 150, decode first: the first step
  // prefills 100 tokens and 50 of the second prompt (1 + 15 + 4 = 20 ms); the second decodes
  // the first request and prefills the other 50 (10 + 5 + 4 = 19 ms, its TTFT 39 ms).
  const SimulationResult mixed =
      simulate(costs, roomy(SchedulePolicy::decode_first, 150), closed(2, 2, 100, 2));
  EXPECT_NEAR(mixed.ttft.p99.value(), 39 * ms, 1e-12);
  // Without the pass, the same two steps 4 ms shorter each: 16 + 15 = 31 ms.
  const SimulationResult bare =
      simulate(hand_costs(), roomy(SchedulePolicy::decode_first, 150), closed(2, 2, 100, 2));
  EXPECT_NEAR(bare.ttft.p99.value(), 31 * ms, 1e-12);
}

TEST(Simulate, ACachedPrefixIsHeldButNotComputed) {
  // 75 of a 100-token prompt in the prefix cache: the step prefills the other 25 (1 + 2.5 =
  // 3.5 ms), then 10 decode steps of 10 ms.
  Traffic t = closed(1, 1, 100, 11);
  t.prefix_hit = 0.75;
  const SimulationResult r = simulate(hand_costs(), roomy(SchedulePolicy::decode_first), t);
  EXPECT_NEAR(r.ttft.mean.value(), 3.5 * ms, 1e-12);
  EXPECT_NEAR(r.e2e.mean.value(), 103.5 * ms, 1e-12);
  // The cache still holds the whole prompt: 100 + 10 tokens do not fit in 105.
  SchedulerLimits small = roomy(SchedulePolicy::decode_first);
  small.kv_tokens = 105;
  EXPECT_THROW((void)simulate(hand_costs(), small, t), KvCacheError);
}

TEST(Simulate, TheClientsWarmPromptIsCachedForTheFirstRequestOnly) {
  // One client, four 100-token prompts in blocks of 16 tokens. The first finds 96 of its
  // tokens cached (the prompt's last token is always computed, and whole blocks only): its
  // step prefills 4 (1 + 0.4 = 1.4 ms); the other three prefill all 100 (11 ms). Mean TTFT
  // (1.4 + 3 × 11) / 4 = 8.6 ms; the median and p99 are the uncached 11 ms.
  Traffic t = closed(1, 4, 100, 3);
  t.warm_prompts = 1;
  SchedulerLimits blocks = roomy(SchedulePolicy::decode_first);
  blocks.prefix_block = 16;
  const SimulationResult r = simulate(hand_costs(), blocks, t);
  EXPECT_NEAR(r.ttft.mean.value(), 8.6 * ms, 1e-12);
  EXPECT_NEAR(r.ttft.p50.value(), 11 * ms, 1e-12);
  EXPECT_NEAR(r.ttft.p99.value(), 11 * ms, 1e-12);
  // Without it every request prefills its whole prompt.
  t.warm_prompts = 0;
  EXPECT_NEAR(simulate(hand_costs(), blocks, t).ttft.mean.value(), 11 * ms, 1e-12);
}

TEST(Simulate, AWaveOfPromptsQueuesBehindItself) {
  // Three clients send 100-token prompts at once; a step prefills 100 tokens, prefill first
  // (SGLang): the prompts finish at 11, 22 and 33 ms, then one decode step of the three
  // (10 + 6 × 2/3 = 14 ms) ends every request at 47 ms.
  const SimulationResult r =
      simulate(hand_costs(), roomy(SchedulePolicy::prefill_first, 100), closed(3, 3, 100, 2));
  EXPECT_NEAR(r.ttft.mean.value(), 22 * ms, 1e-12);
  EXPECT_NEAR(r.ttft.p50.value(), 22 * ms, 1e-12);
  EXPECT_NEAR(r.ttft.p90.value(), 33 * ms, 1e-12);
  EXPECT_NEAR(r.tpot.mean.value(), 25 * ms, 1e-12); // (36 + 25 + 14) / 3
  EXPECT_NEAR(r.tpot.p99.value(), 36 * ms, 1e-12);
  EXPECT_NEAR(r.e2e.p50.value(), 47 * ms, 1e-12);
  EXPECT_NEAR(r.output_tokens_per_second, 6 / (47 * ms), 1e-9);
  EXPECT_NEAR(r.requests_per_second, 3 / (47 * ms), 1e-9);
  // Three sequences decoding for 14 of the 47 ms.
  EXPECT_NEAR(r.mean_batch, 3 * 14.0 / 47, 1e-9);
}

TEST(Simulate, DecodeFirstLetsPromptsRideWithTheDecodes) {
  // vLLM's order on the same wave: step 1 prefills A (1 + 10 = 11 ms); step 2 decodes A and
  // prefills 99 tokens of B (10 + 9.9 ms), ending A at 30.9 ms; step 3 has no decodes and
  // prefills B's last token and 99 of C's (1 + 10 ms): B's first token at 41.9 ms; step 4
  // decodes B beside C's last token (10 + 0.1 ms): B ends and C's first token comes at 52 ms;
  // step 5 decodes C, ending it at 62 ms.
  const SimulationResult r =
      simulate(hand_costs(), roomy(SchedulePolicy::decode_first, 100), closed(3, 3, 100, 2));
  EXPECT_NEAR(r.ttft.mean.value(), (11 + 41.9 + 52) / 3 * ms, 1e-12);
  EXPECT_NEAR(r.e2e.p99.value(), 62 * ms, 1e-12);
}

TEST(Simulate, AClosedLoopSendsTheNextRequestWhenOneEnds) {
  // One client, three requests of a 10-token prompt and 2 tokens: each is 1 + 1 ms of
  // prefill and a 10 ms decode, back to back.
  const SimulationResult r =
      simulate(hand_costs(), roomy(SchedulePolicy::decode_first), closed(1, 3, 10, 2));
  EXPECT_NEAR(r.duration.value(), 3 * 12 * ms, 1e-12);
  EXPECT_NEAR(r.ttft.p99.value(), 2 * ms, 1e-12);
}

TEST(Simulate, WarmUpAndCoolDownAreLeftOut) {
  Traffic t = closed(1, 5, 10, 2);
  t.warmup = 1;
  const SimulationResult r = simulate(hand_costs(), roomy(SchedulePolicy::decode_first), t);
  EXPECT_EQ(r.measured, 3);
  // The window runs from the second request's issue (12 ms) to the fourth's end (48 ms).
  EXPECT_NEAR(r.requests_per_second, 3 / (36 * ms), 1e-9);
}

TEST(Simulate, AFullCacheTakesTheNewestRequestsCacheBack) {
  // 120 tokens of cache: two 50-token prompts fit, but their decodes soon do not; the newer
  // is preempted and recomputed, so it finishes after the older.
  SchedulerLimits limits = roomy(SchedulePolicy::decode_first);
  limits.kv_tokens = 120;
  const SimulationResult r = simulate(hand_costs(), limits, closed(2, 2, 50, 60));
  EXPECT_GE(r.preemptions, 1);
  EXPECT_EQ(r.measured, 2);
  EXPECT_LE(r.kv_occupancy, 1.0);
}

TEST(Simulate, AWholeRequestReservationWaitsInsteadOfPreempting) {
  // The same cache under TensorRT-LLM's admission: each request reserves its 50 + 60 = 110
  // tokens, so the second waits for the first to finish. The first prefills alone (1 ms + 50 x
  // 0.1 ms = 6 ms) and decodes 59 tokens at 10 ms: done at 596 ms. The second then prefills
  // (first token at 602 ms) and finishes 590 ms later, at 1,192 ms. Mean TTFT (6 + 602) / 2 =
  // 304 ms, mean end-to-end (596 + 1,192) / 2 = 894 ms, nothing preempted.
  SchedulerLimits limits = roomy(SchedulePolicy::decode_first);
  limits.kv_tokens = 120;
  limits.kv_admission = KvAdmission::whole_request;
  const SimulationResult r = simulate(hand_costs(), limits, closed(2, 2, 50, 60));
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_NEAR(r.ttft.mean.value(), 304 * ms, 1e-9);
  EXPECT_NEAR(r.e2e.mean.value(), 894 * ms, 1e-9);
  EXPECT_NEAR(r.tpot.mean.value(), 10 * ms, 1e-9);
}

TEST(Simulate, TheSameSeedGivesTheSameRun) {
  Traffic t;
  t.arrivals = Arrivals::poisson;
  t.rate = 2;
  t.input = {LengthShape::lognormal, 200, 0.5};
  t.output = {LengthShape::uniform, 50, 0.2};
  t.requests = 500;
  t.seed = 7;
  const StepCosts costs = hand_costs();
  const SimulationResult a = simulate(costs, roomy(SchedulePolicy::decode_first), t);
  const SimulationResult b = simulate(costs, roomy(SchedulePolicy::decode_first), t);
  EXPECT_EQ(a.ttft.p99, b.ttft.p99);
  EXPECT_EQ(a.duration, b.duration);
  t.seed = 8;
  const SimulationResult c = simulate(costs, roomy(SchedulePolicy::decode_first), t);
  EXPECT_NE(a.duration, c.duration);
  // Poisson at 2 per second, well within what the engine serves: 500 requests over about
  // 250 s.
  EXPECT_NEAR(a.requests_per_second, 2, 0.2);
}

Traffic constant_rate(double rate) {
  Traffic t;
  t.arrivals = Arrivals::constant;
  t.rate = rate;
  t.input = {LengthShape::fixed, 100, 0};
  t.output = {LengthShape::fixed, 11, 0};
  t.requests = 1000;
  t.warmup = 100;
  return t;
}

TEST(Simulate, AnOpenLoopBeyondItsCapacityFallsBehind) {
  // Eight sequences at most: a step of eight decodes is 24 ms (16 ms at four, 2 ms a sequence
  // beyond), and each request needs ten of them and its 10 ms of prompt: at most about
  // 8 / (10 x 24 ms + 8 x 10 ms) = 25 requests per second.
  const StepCosts costs = hand_costs();
  const SimulationResult light =
      simulate(costs, roomy(SchedulePolicy::decode_first), constant_rate(10));
  // One request every 100 ms, 800 measured: sent at exactly 10 per second, finished as fast.
  EXPECT_NEAR(light.offered_rate, 10, 1e-9);
  EXPECT_NEAR(light.served_rate, 10, 0.1);
  EXPECT_FALSE(light.saturated);
  const SimulationResult heavy =
      simulate(costs, roomy(SchedulePolicy::decode_first), constant_rate(100));
  EXPECT_NEAR(heavy.offered_rate, 100, 1e-9);
  EXPECT_LT(heavy.served_rate, 25);
  EXPECT_TRUE(heavy.saturated);
  // A closed loop never falls behind its own clients.
  EXPECT_FALSE(
      simulate(costs, roomy(SchedulePolicy::decode_first), closed(64, 500, 100, 11)).saturated);
}

TEST(Simulate, RefusesWhatCannotRun) {
  SchedulerLimits limits = roomy(SchedulePolicy::decode_first);
  limits.kv_tokens = 100;
  EXPECT_THROW(simulate(hand_costs(), limits, closed(1, 1, 90, 20)), InputError);
  // That one is the layout's memory (a plan counts it so), not a bad traffic.
  EXPECT_THROW(simulate(hand_costs(), limits, closed(1, 1, 90, 20)), KvCacheError);
  Traffic t = closed(1, 4, 10, 2);
  t.warmup = 2;
  EXPECT_THROW(simulate(hand_costs(), roomy(SchedulePolicy::decode_first), t), InputError);
}

} // namespace
} // namespace icx::unit_simulate
