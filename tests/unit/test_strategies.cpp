#include "icx/wire/strategies.hpp"
#include "icx/wire/verdict.hpp"

#include <gtest/gtest.h>

#include "test_fixtures.hpp"

namespace icx::unit_strategies {
namespace {

using test::make_link;

TEST(Strategies, PipelineSendsOneActivationPerBoundary) {
  // 4096 tokens × 16384 hidden × 2 B = 134,217,728 B per boundary.
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 2).value(), 134217728.0);
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 4).value(), 3 * 134217728.0);
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 1).value(), 0.0);
}

TEST(Strategies, PlacementRule) {
  // Tensor and expert parallel stay inside a node (NVLink, or PCIe on a node without it),
  // never on a scale-out link; pipeline and replicas go anywhere.
  EXPECT_TRUE(allowed_on(Strategy::tensor, Tier::scale_up));
  EXPECT_TRUE(allowed_on(Strategy::tensor, Tier::host));
  EXPECT_FALSE(allowed_on(Strategy::tensor, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::expert, Tier::scale_up));
  EXPECT_TRUE(allowed_on(Strategy::expert, Tier::host));
  EXPECT_TRUE(allowed_on(Strategy::expert, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::pipeline, Tier::host));
  EXPECT_TRUE(allowed_on(Strategy::pipeline, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::data, Tier::scale_out));
}

TEST(Verdict, ShareThresholdIsInclusive) {
  EXPECT_EQ(level_for_share(0.0), Level::ok);
  EXPECT_EQ(level_for_share(0.25), Level::ok);
  EXPECT_EQ(level_for_share(0.2501), Level::marginal);
  // A share alone is never avoid: whether a layout is worth running is relative.
  EXPECT_EQ(level_for_share(1.0), Level::marginal);
}

TEST(Verdict, TensorParallelOverPcieIsJudgedByItsShare) {
  // 336 ms of all-reduce in a 482 ms step: 70 % of it, marginal; PCIe inside a node keeps
  // the placement rule.
  const Link pcie = make_link("pcie5", Tier::host, 64);
  const Verdict v = judge(Strategy::tensor, &pcie, Seconds::of(0.336), Seconds::of(0.482));
  EXPECT_EQ(v.level, Level::marginal);
  EXPECT_FALSE(v.breaks_rule);
  EXPECT_NEAR(v.share, 0.336 / 0.482, 1e-12);
  EXPECT_EQ(v.comm.value(), 0.336);
  EXPECT_EQ(v.step.value(), 0.482);
}

TEST(Verdict, RuleBreakIsAvoidEvenWhenCheap) {
  const Link ib = make_link("ib", Tier::scale_out, 50);
  const Verdict tp = judge(Strategy::tensor, &ib, Seconds::of(0.001), Seconds::of(1));
  EXPECT_EQ(tp.level, Level::avoid);
  EXPECT_TRUE(tp.breaks_rule);
  // Expert groups may cross nodes (DeepEP's kernels): judged by their share like a pipeline.
  EXPECT_EQ(judge(Strategy::expert, &ib, Seconds::of(0.001), Seconds::of(1)).level, Level::ok);
  EXPECT_EQ(judge(Strategy::pipeline, &ib, Seconds::of(0.001), Seconds::of(1)).level, Level::ok);
}

TEST(Verdict, TensorParallelOverNvlinkIsASmallShare) {
  // 23.9 ms of all-reduce in a 170 ms step: 14 %.
  const Link nvlink = make_link("nvlink4", Tier::scale_up, 900);
  const Verdict v = judge(Strategy::tensor, &nvlink, Seconds::of(0.0239), Seconds::of(0.170));
  EXPECT_EQ(v.level, Level::ok);
  EXPECT_FALSE(v.breaks_rule);
  EXPECT_NEAR(v.share, 0.0239 / 0.170, 1e-12);
}

TEST(Verdict, NoWireNoTraffic) {
  const Verdict v = judge(Strategy::data, nullptr, Seconds::of(0), Seconds::of(1));
  EXPECT_EQ(v.level, Level::ok);
  EXPECT_EQ(v.share, 0.0);
  EXPECT_FALSE(v.breaks_rule);
  EXPECT_EQ(worst(Level::ok, Level::avoid), Level::avoid);
  EXPECT_EQ(worst(Level::marginal, Level::ok), Level::marginal);
}

} // namespace
} // namespace icx::unit_strategies
