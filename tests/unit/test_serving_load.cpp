#include "icx/serving/request_load.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "load_fixture.hpp"

namespace icx::unit_serving_load {
namespace {

using ServingLoadTest = test::EightBOnOneGpu;

constexpr double kv_per_token = test::eight_b_kv_per_token;

/// The activations one token's decode step reads and writes beside the weights: 2 B per input
/// and per output of each GEMM. Without an MLP width the fixture's layer is GPT's (QKV 3h × h,
/// output h × h, MLP 8h × h and h × 4h), its outputs scaled by 8e9 / (12 × 4096² × 32) to the
/// parameter count: 7h = 28,672 inputs and 9h = 36,864 × that scale outputs per layer, 32
/// layers.
const double activations_per_token = 2.0 * (28672 + 36864 * 8e9 / (12.0 * 4096 * 4096 * 32)) * 32;

/// A decode step of `batch` sequences at 1100 tokens of context: weights, cache and
/// activations read at 3.35 TB/s.
double decode_step(double batch) {
  return (16e9 + batch * (1100 * kv_per_token + activations_per_token)) / 3.35e12;
}

TEST_F(ServingLoadTest, ALightLoadIsOneRequestAlone) {
  // At one request a day nothing queues and nothing shares the GPU: TTFT is the prompt's
  // prefill alone (no other request's decodes to ride with), TPOT the decode step.
  const Load load{1.0 / 86400, 1000, 200, 8192};
  const LoadedStep s = serve_at_load(cluster, workloads(load), one, load);
  ASSERT_TRUE(s.serves());
  EXPECT_EQ(s.batch, 1);
  // Prefill: 2 × 8e9 × 1000 FLOP at 494.5 TFLOP/s = 32.36 ms, plus attention's score
  // products (under 2 %).
  EXPECT_NEAR(s.prefill.step.latency.value(), 2 * 8e9 * 1000 / 494.5e12, 0.02 * 32.36e-3);
  // Decode at the mean context of 1000 + 100 tokens: 16 GB of weights, 1100 tokens of cache
  // and the token's activations read at 3.35 TB/s.
  const double decode = decode_step(1);
  EXPECT_NEAR(s.decode.step.latency.value(), decode, 1e-9);
  EXPECT_NEAR(s.tpot.value(), decode, 1e-6);
  EXPECT_NEAR(s.ttft.value(), s.prefill.step.latency.value(), 1e-6);
  EXPECT_DOUBLE_EQ(s.tokens_per_second_per_gpu, 200.0 / 86400);
}

TEST_F(ServingLoadTest, APrefixCacheHitSparesItsShareOfThePrefill) {
  // 750 of the 1000 prompt tokens found in the prefix cache: prefill computes 250, 2 × 8e9 ×
  // 250 FLOP, and their attention over all 1000: 250 × 750 + 250²/2 = 218,750 query-key pairs
  // at 2 × 32 heads × 256 × 32 layers = 524,288 FLOP each; at 494.5 TFLOP/s, 8.32 ms. The
  // decode step and what memory holds are those of the whole prompt, as without the hit.
  const Load cold{1.0 / 86400, 1000, 200, 8192};
  Load warm = cold;
  warm.prefix_hit = 0.75;
  const LoadedStep s = serve_at_load(cluster, workloads(warm), one, warm);
  const LoadedStep c = serve_at_load(cluster, workloads(cold), one, cold);
  ASSERT_TRUE(s.serves());
  EXPECT_NEAR(s.prefill.step.latency.value(), (2 * 8e9 * 250 + 524288.0 * 218750) / 494.5e12, 1e-9);
  EXPECT_NEAR(s.ttft.value(), s.prefill.step.latency.value(), 1e-6);
  EXPECT_NEAR(s.decode.step.latency.value(), decode_step(1), 1e-9);
  EXPECT_EQ(s.capacity, c.capacity);
  EXPECT_EQ(workloads(warm).prefill.tokens, 250);
  EXPECT_EQ(workloads(warm).prefill.cached, 750);
  // In vLLM's blocks of 16 tokens: 46 whole blocks of the 750, 736 tokens; 264 computed.
  warm.prefix_block = 16;
  EXPECT_EQ(workloads(warm).prefill.cached, 736);
  EXPECT_EQ(workloads(warm).prefill.tokens, 264);
}

TEST_F(ServingLoadTest, TimesFollowTheQueueAndLittlesLaw) {
  const Load load{10, 1000, 200, 512};
  const LoadWorkloads w = workloads(load);
  const LoadedStep s = serve_at_load(cluster, w, one, load);
  ASSERT_TRUE(s.serves());
  const double prefill = s.prefill.step.latency.value();
  const double rho = 10 * s.prefill.step.stage.value();
  EXPECT_DOUBLE_EQ(s.prefill_share, rho);
  const double decode = decode_step(static_cast<double>(s.batch));
  EXPECT_NEAR(s.decode.step.latency.value(), decode, 1e-9);
  EXPECT_NEAR(s.tpot.value(), decode / (1 - rho), 1e-12);
  // 1000 prompt tokens in chunks of 512: two decode steps ride along whenever another request
  // is in flight, 1 − e^(−n) of the time with n = 10 × (prefill + 200 decode steps) ≈ 11.
  const double riding = 1 - std::exp(-10 * (prefill + 200 * decode));
  const double service = prefill + 2 * decode * riding;
  EXPECT_NEAR(s.prefill_service.value(), service, 1e-12);
  EXPECT_NEAR(s.ttft.value(), service + rho * service / (2 * (1 - rho)), 1e-12);
  // Little's law holds at the batch found, and it is the least such batch.
  const auto needed = [&](const LoadedStep& at) {
    return static_cast<std::int64_t>(
        std::ceil(10 * (at.ttft.value() + 200 * at.tpot.value()) - 1e-9));
  };
  EXPECT_LE(needed(s), s.batch);
  const LoadedStep below = serve_at_load(cluster, w, one, load, s.batch - 1);
  EXPECT_GT(needed(below), s.batch - 1);
}

TEST_F(ServingLoadTest, ClientsSendAtTheRateTheirLatencyAllows) {
  // Sixteen clients keep sixteen requests in flight: the decode step is the fixture's at 16
  // sequences, and the rate they send at is 16 over a request's latency, to a percent.
  const Load load{0, 1000, 200, 8192};
  const LoadWorkloads w = workloads(load);
  const LoadedStep s = serve_clients(cluster, w, one, load, 16);
  ASSERT_TRUE(s.serves());
  EXPECT_EQ(s.batch, 16);
  EXPECT_NEAR(s.decode.step.latency.value(), decode_step(16), 0.02 * decode_step(16));
  const double rate = 16 / (s.ttft + s.tpot * 200.0).value();
  Load at = load;
  at.rate = rate;
  const LoadedStep again = serve_at_load(cluster, w, one, at, 16);
  EXPECT_NEAR(16 / (again.ttft + again.tpot * 200.0).value(), rate, 0.01 * rate);
}

TEST_F(ServingLoadTest, PrefillThatNeedsEveryMomentSaturates) {
  const LoadWorkloads probe = workloads({1, 1000, 200, 8192});
  const double stage =
      serve_at_load(cluster, probe, one, {1, 1000, 200, 8192}).prefill.step.stage.value();
  const Load load{1.1 / stage, 1000, 200, 8192};
  const LoadedStep s = serve_at_load(cluster, workloads(load), one, load);
  EXPECT_EQ(s.limit, ServeLimit::saturated);
  EXPECT_NE(load_limit_reason(s, load).find("110 %"), std::string::npos);
}

TEST_F(ServingLoadTest, TheSchedulerCapsRequestsInFlight) {
  ServingRequest serving;
  serving.max_batch = 4;
  const Load load{10, 1000, 200, 8192};
  const LoadWorkloads w = load_workloads(catalog, model, bf16, gpu, serving, load);
  const LoadedStep s = serve_at_load(cluster, w, one, load);
  EXPECT_EQ(s.capacity, 4);
  EXPECT_EQ(s.limit, ServeLimit::memory);
  EXPECT_GT(s.batch, 4);
}

TEST_F(ServingLoadTest, MemoryHoldsTheFullLength) {
  // 80 GB less a 20 % reserve = 64 GB; 48 GB free beside the weights, 1200 tokens ×
  // 131,072 B = 157.3 MB per request: 305 requests.
  const Load load{1, 1000, 200, 8192};
  ServingRequest serving;
  serving.max_batch = 100000;
  const LoadedStep s =
      serve_at_load(cluster, load_workloads(catalog, model, bf16, gpu, serving, load), one, load);
  EXPECT_EQ(s.capacity, 305);
}

TEST_F(ServingLoadTest, AGivenBatchIsEvaluatedAsIs) {
  const Load load{10, 1000, 200, 8192};
  const LoadedStep s = serve_at_load(cluster, workloads(load), one, load, 7);
  EXPECT_EQ(s.batch, 7);
  EXPECT_NEAR(s.decode.step.latency.value(), decode_step(7), 1e-9);
}

} // namespace
} // namespace icx::unit_serving_load
