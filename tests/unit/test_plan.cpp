#include "icx/reports/plan.hpp"

#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/reports/place.hpp"

namespace icx::unit_plan {
namespace {

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

/// The plan: Llama 3.1 70B in BF16, 5 requests/s of 2048 + 256 tokens, TTFT ≤ 2 s,
/// TPOT ≤ 50 ms, on every shipped system.
PlanRequest seventy_b(double tpot_seconds = 0.05) {
  const Catalog& catalog = shipped();
  PlanRequest r;
  r.model = &catalog.model("70b");
  r.dtype = &catalog.dtype("bf16");
  r.serving.act_dtype = r.dtype;
  r.serving.kv_dtype = r.dtype;
  r.load = {5, 2048, 256};
  r.targets = {Seconds::of(2), Seconds::of(tpot_seconds)};
  for (const System& system : catalog.systems()) {
    r.systems.push_back(&system);
  }
  return r;
}

TEST(Plan, NoMeetingCandidateIsCheaperThanTheWinner) {
  const PlanReport report = plan(shipped(), seventy_b());
  ASSERT_TRUE(report.winner.has_value());
  const PlanCandidate& winner = report.candidates[*report.winner];
  EXPECT_TRUE(winner.meets_targets);
  EXPECT_LE(winner.step.ttft.value(), 2.0);
  EXPECT_LE(winner.step.tpot.value(), 0.05);
  for (const PlanCandidate& c : report.candidates) {
    if (c.meets_targets && c.cost_per_hour()) {
      EXPECT_GE(*c.cost_per_hour(), *winner.cost_per_hour()) << c.system->id;
    }
  }
}

TEST(Plan, CostPerMillionOutputTokensIsTheHourOverItsTokens) {
  // aws-p5 lists $55.04 per node-hour; 5 requests/s × 256 tokens × 3600 s = 4,608,000 output
  // tokens an hour: $11.944 per million.
  PlanRequest request = seventy_b();
  request.systems = {&shipped().system("aws-p5")};
  const PlanReport report = plan(shipped(), request);
  const PlanCandidate& c = report.candidates.front();
  ASSERT_EQ(c.nodes, 1);
  EXPECT_NEAR(*c.cost_per_hour(), 55.04, 1e-9);
  EXPECT_NEAR(*c.cost_per_million_output_tokens(report.load), 55.04 / 4.608, 1e-9);
}

TEST(Plan, AGivenPriceReplacesTheCatalogsAndCanWin) {
  PlanRequest request = seventy_b();
  request.prices["dgx-h100"] = 1.0;
  const PlanReport report = plan(shipped(), request);
  ASSERT_TRUE(report.winner.has_value());
  const PlanCandidate& winner = report.candidates[*report.winner];
  EXPECT_EQ(winner.system->id, "dgx-h100");
  EXPECT_EQ(winner.price, nullptr);
  EXPECT_EQ(*winner.usd_per_node_hour, 1.0);
}

TEST(Plan, WithoutPricesTheFewestGpusThatMeetWin) {
  // Neither has a list price in the catalog; both serve a 70B model at TPOT 50 ms on one node.
  PlanRequest request = seventy_b();
  request.systems = {&shipped().system("gb200-nvl72"), &shipped().system("dgx-h100")};
  const PlanReport report = plan(shipped(), request);
  ASSERT_TRUE(report.winner.has_value());
  const PlanCandidate& winner = report.candidates[*report.winner];
  EXPECT_EQ(winner.system->id, "dgx-h100") << "8 GPUs, not a 72-GPU rack";
  EXPECT_FALSE(winner.cost_per_hour().has_value());
}

TEST(Plan, TheWinnerIsTheFewestNodesThatMeet) {
  // aws-p4d's 40 GB A100s: the plan's node count meets, one node fewer does not.
  PlanRequest request = seventy_b();
  request.systems = {&shipped().system("aws-p4d")};
  const PlanReport report = plan(shipped(), request);
  const PlanCandidate& c = report.candidates.front();
  ASSERT_TRUE(c.meets_targets);
  ASSERT_GT(c.nodes, 1);
  request.max_nodes = c.nodes - 1;
  const PlanReport fewer = plan(shipped(), request);
  EXPECT_FALSE(fewer.candidates.front().meets_targets);
  EXPECT_FALSE(fewer.winner.has_value());
}

TEST(Plan, AnUnmetTargetSaysWhichAndByHowMuch) {
  // A 1 ms TPOT is below any 70B decode step on these systems.
  const PlanReport report = plan(shipped(), seventy_b(0.001));
  EXPECT_FALSE(report.winner.has_value());
  ASSERT_TRUE(report.closest.has_value());
  const double closest = report.candidates[*report.closest].miss_factor;
  for (const PlanCandidate& c : report.candidates) {
    EXPECT_FALSE(c.meets_targets);
    if (c.miss == PlanMiss::ttft || c.miss == PlanMiss::tpot) {
      EXPECT_GE(c.miss_factor, closest) << c.system->id;
    }
    if (c.miss == PlanMiss::tpot) {
      EXPECT_NEAR(c.miss_factor, c.step.tpot.value() / 0.001, 1e-9) << c.system->id;
      EXPECT_EQ(c.reason.rfind("TPOT ", 0), 0U) << c.reason;
    }
  }
}

TEST(Plan, PlaceReproducesTheWinnerUnderTheSameLoad) {
  const PlanReport report = plan(shipped(), seventy_b());
  ASSERT_TRUE(report.winner.has_value());
  const PlanCandidate& winner = report.candidates[*report.winner];
  PlaceRequest place;
  place.cluster = winner.cluster;
  place.system = winner.system;
  place.model = report.model;
  place.dtype = report.dtype;
  place.serving = seventy_b().serving;
  place.serving.batch = winner.step.batch;
  const Layout& l = winner.step.layout;
  place.layout = LayoutRequest::of(l);
  place.load = report.load;
  const PlaceReport placed = place_report(shipped(), place);
  ASSERT_TRUE(placed.loaded.has_value());
  EXPECT_EQ(placed.placement().layout, l);
  EXPECT_EQ(placed.loaded->batch, winner.step.batch);
  EXPECT_DOUBLE_EQ(placed.loaded->ttft.value(), winner.step.ttft.value());
  EXPECT_DOUBLE_EQ(placed.loaded->tpot.value(), winner.step.tpot.value());
}

} // namespace
} // namespace icx::unit_plan

namespace icx::unit_plan {
namespace {

/// 70B at 2 requests/s of 8192 + 512 tokens, TTFT ≤ 3 s, TPOT ≤ 12 ms on aws-p5: sharing the
/// GPUs, the 8192-token prefills stretch every decode step; split, one node prefills and one
/// decodes.
PlanRequest long_prompts(bool disaggregate) {
  PlanRequest r = seventy_b(0.012);
  r.load = {2, 8192, 512};
  r.targets.ttft = Seconds::of(3);
  r.systems = {&shipped().system("aws-p5")};
  r.disaggregate = disaggregate;
  return r;
}

TEST(Plan, DisaggregationIsTakenWhereItNeedsFewerNodes) {
  const PlanCandidate shared = plan(shipped(), long_prompts(false)).candidates.front();
  const PlanCandidate split = plan(shipped(), long_prompts(true)).candidates.front();
  ASSERT_TRUE(split.disaggregated.has_value());
  const Disaggregated& d = *split.disaggregated;
  EXPECT_TRUE(split.meets_targets);
  EXPECT_EQ(split.nodes, d.nodes());
  EXPECT_LT(split.nodes, shared.meets_targets ? shared.nodes : 1 << 20);
  EXPECT_LE(d.prefill.ttft.value(), 3.0);
  EXPECT_LE(d.decode.tpot.value(), 0.012);
  EXPECT_EQ(split.step.ttft, d.prefill.ttft);
  EXPECT_EQ(split.step.tpot, d.decode.tpot);
  EXPECT_NEAR(*split.cost_per_hour(), 55.04 * split.nodes, 1e-9);
}

TEST(Plan, TheKvCacheCrossesTheScaleOutLinkInShards) {
  // Llama 3.1 70B: 80 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 327,680 B per token; 8192
  // tokens = 2,684,354,560 B, a 335,544,320 B shard on each of TP 8's GPUs, each GPU over its
  // own 100 Gb/s EFA card (32 per node): 12.5 GB/s, the headline time (efa-100 has no
  // expected model).
  const PlanCandidate split = plan(shipped(), long_prompts(true)).candidates.front();
  ASSERT_TRUE(split.disaggregated.has_value());
  const Disaggregated& d = *split.disaggregated;
  ASSERT_EQ(d.prefill.layout.tp * d.prefill.layout.pp, 8);
  EXPECT_EQ(d.kv_route, KvRoute::between_nodes);
  EXPECT_NEAR(d.prefill.kv_transfer.value(), 335544320 / 12.5e9, 1e-12);
}

TEST(Plan, ACachedPrefixIsSentWithTheRestOfTheCache) {
  // Half of each prompt in the prefill pool's prefix cache: its prefill computes 4096 tokens,
  // but the decode pool still receives all 8192 tokens' cache, 2,684,354,560 B, each GPU of
  // the prefill group its shard over its own 12.5 GB/s card.
  PlanRequest r = long_prompts(true);
  r.load.prefix_hit = 0.5;
  const PlanCandidate split = plan(shipped(), r).candidates.front();
  ASSERT_TRUE(split.disaggregated.has_value());
  const Disaggregated& d = *split.disaggregated;
  ASSERT_EQ(d.kv_route, KvRoute::between_nodes);
  const double shards = d.prefill.layout.tp * d.prefill.layout.pp;
  EXPECT_NEAR(d.prefill.kv_transfer.value(), 2684354560 / shards / 12.5e9, 1e-12);
}

/// 70B with FP8 weights (the KV cache in BF16) at 2 requests/s of 8192 + 512 tokens, TTFT ≤
/// 2 s, TPOT ≤ 15 ms, by the closed form, on one system.
PlanRequest fp8_long_prompts(const char* system, bool disaggregate) {
  PlanRequest r = long_prompts(disaggregate);
  r.dtype = &shipped().dtype("fp8");
  r.serving.act_dtype = r.dtype;
  r.targets = {Seconds::of(2), Seconds::of(0.015)};
  r.systems = {&shipped().system(system)};
  return r;
}

// One prompt's KV cache: 8192 tokens × 327,680 B (80 layers × 8 KV heads × 128 × 2 × 2 B) =
// 2,684,354,560 B; a TP 4 prefill pool sends a quarter, 671,088,640 B, from each GPU.
constexpr double quarter_shard = 671088640;

TEST(Plan, PoolsInsideOneNodeSendTheKvCacheOverNvlink) {
  // Sharing the GPUs, the 8192-token prefills stretch the decode steps past 15 ms on one DGX
  // H200; split 4 + 4 inside it, each pool meets its own target.
  const PlanCandidate shared = plan(shipped(), fp8_long_prompts("dgx-h200", false)).candidates[0];
  const PlanCandidate split = plan(shipped(), fp8_long_prompts("dgx-h200", true)).candidates[0];
  ASSERT_TRUE(split.disaggregated.has_value());
  const Disaggregated& d = *split.disaggregated;
  EXPECT_EQ(split.nodes, 1);
  EXPECT_GT(shared.nodes, 1);
  EXPECT_EQ(d.prefill_cluster.gpus + d.decode_cluster.gpus, 8);
  EXPECT_EQ(d.kv_route, KvRoute::scale_up);
  EXPECT_LE(d.prefill.ttft.value(), 2.0);
  EXPECT_LE(d.decode.tpot.value(), 0.015);
  ASSERT_EQ(d.prefill.layout.tp * d.prefill.layout.pp, 4);
  // Over NVLink 4 at its expected 82.2 % of 450 GB/s each way, plus under 0.1 ms of fixed
  // costs; over the node's NICs (50 GB/s each) it would take over 13 ms.
  const double nvlink = quarter_shard / (0.822 * 450e9);
  EXPECT_GE(d.prefill.kv_transfer.value(), nvlink);
  EXPECT_LE(d.prefill.kv_transfer.value(), nvlink + 1e-4);
}

TEST(Plan, PoolsInDifferentBridgeDomainsSendOverPcie) {
  // h200-nvl-8: two 4-GPU NVLink-bridge domains joined by PCIe 5.0, so a 4-GPU prefill pool
  // and a 4-GPU decode pool share a node but not a domain: 82 % of 63 GB/s each way. At 1.5
  // prompts a second (not 2) a 4-GPU pool of H200 NVLs prefills them within 2 s.
  PlanRequest request = fp8_long_prompts("h200-nvl-8", true);
  request.load.rate = 1.5;
  const PlanCandidate split = plan(shipped(), request).candidates[0];
  ASSERT_TRUE(split.disaggregated.has_value());
  const Disaggregated& d = *split.disaggregated;
  EXPECT_EQ(split.nodes, 1);
  EXPECT_EQ(d.kv_route, KvRoute::between_domains);
  ASSERT_EQ(d.prefill.layout.tp * d.prefill.layout.pp, 4);
  const double pcie = quarter_shard / (0.82 * 63e9);
  EXPECT_GE(d.prefill.kv_transfer.value(), pcie);
  EXPECT_LE(d.prefill.kv_transfer.value(), pcie + 1e-4);
}

/// The 70B plan on one system, each layout simulated under 5 requests/s (Poisson) or 64
/// clients, 1,000 requests with a tenth left out at each end.
PlanRequest simulated(const char* system, Arrivals arrivals) {
  PlanRequest r = seventy_b();
  r.systems = {&shipped().system(system)};
  Traffic t;
  t.arrivals = arrivals;
  t.rate = r.load.rate;
  t.concurrency = 64;
  t.input = {LengthShape::fixed, r.load.input, 0};
  t.output = {LengthShape::fixed, r.load.output, 0};
  t.requests = 1000;
  t.warmup = 100;
  t.seed = 1;
  r.traffic = t;
  if (arrivals == Arrivals::closed) {
    r.load.rate = 0;
  }
  return r;
}

TEST(Plan, ATargetIsHeldAgainstItsStatisticOfTheSimulatedRequests) {
  PlanRequest request = simulated("aws-p5", Arrivals::poisson);
  const PlanCandidate mean = plan(shipped(), request).candidates.front();
  ASSERT_TRUE(mean.simulated.has_value());
  const SimulationResult& r = mean.simulated->result;
  EXPECT_EQ(mean.step.ttft, r.ttft.mean);
  EXPECT_EQ(mean.step.tpot, r.tpot.mean);
  // A TTFT target between the winner's mean and its p99 is met by the mean and missed by the
  // p99 on the same node.
  ASSERT_LT(r.ttft.mean, r.ttft.p99);
  request.targets.ttft = (r.ttft.mean + r.ttft.p99) / 2;
  const PlanCandidate by_mean = plan(shipped(), request).candidates.front();
  EXPECT_TRUE(by_mean.meets_targets);
  EXPECT_EQ(by_mean.nodes, 1);
  request.targets.ttft_statistic = Statistic::p99;
  const PlanCandidate by_p99 = plan(shipped(), request).candidates.front();
  EXPECT_TRUE(!by_p99.meets_targets || by_p99.nodes > 1);
  // The closed form's step is kept beside the simulated one.
  EXPECT_GT(by_mean.closed_form.decode.step.latency.value(), 0);
}

TEST(Plan, AClosedLoopCostsWhatItsClientsReach) {
  const PlanReport report = plan(shipped(), simulated("aws-p5", Arrivals::closed));
  const PlanCandidate& c = report.candidates.front();
  ASSERT_TRUE(c.simulated.has_value());
  const double tokens = c.simulated->output_tokens_per_second;
  EXPECT_GT(tokens, 0);
  EXPECT_DOUBLE_EQ(c.output_tokens_per_second(report.load), tokens);
  EXPECT_NEAR(*c.cost_per_million_output_tokens(report.load), 55.04 / (tokens * 3600) * 1e6, 1e-9);
}

TEST(Plan, AClosedLoopByTheClosedFormKeepsItsClientsInFlight) {
  // --fast: no simulation; the 64 clients all in flight at the rate Little's law gives them,
  // their tokens per second those of the closed form's step on the candidate's GPUs.
  PlanRequest request = simulated("aws-p5", Arrivals::closed);
  request.simulate = false;
  const PlanReport report = plan(shipped(), request);
  EXPECT_FALSE(report.simulated);
  const PlanCandidate& c = report.candidates.front();
  EXPECT_FALSE(c.simulated.has_value());
  EXPECT_EQ(c.step.batch, 64);
  const double tokens = c.step.tokens_per_second_per_gpu * c.cluster.gpus;
  EXPECT_GT(tokens, 0);
  EXPECT_DOUBLE_EQ(c.output_tokens_per_second(report.load), tokens);
  // Little's law: 64 clients each holding a request for TTFT + (output - 1) x TPOT, or
  // TTFT + output x TPOT, produce output tokens at 64 x output / that time.
  const auto output = static_cast<double>(report.load.output);
  const double per_request = (c.step.ttft + c.step.tpot * output).value();
  EXPECT_NEAR(tokens, 64.0 * output / per_request, 0.02 * tokens);
}

TEST(Plan, RefusesDisaggregationOfAClosedLoopOrAPercentile) {
  PlanRequest request = simulated("aws-p5", Arrivals::closed);
  request.disaggregate = true;
  EXPECT_THROW(plan(shipped(), request), InputError);
  request = simulated("aws-p5", Arrivals::poisson);
  request.disaggregate = true;
  request.targets.tpot_statistic = Statistic::p90;
  EXPECT_THROW(plan(shipped(), request), InputError);
}

} // namespace
} // namespace icx::unit_plan
