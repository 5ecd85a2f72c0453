#include "icx/strategies.hpp"
#include "icx/verdict.hpp"

#include <gtest/gtest.h>

#include "test_fixtures.hpp"

namespace icx {
namespace {

using test::make_link;

TEST(Strategies, ExpertParallelAllToAllBytes) {
  // Mixtral-like: 4096 tokens × top-2 × 4096 hidden × 2 B = 67,108,864 B routed per
  // all-to-all; half leaves the GPU in a group of 2; two all-to-alls × 32 layers.
  EXPECT_EQ(expert_parallel_bytes({4096, 32, 2.0}, 4096, 2, 2).value(), 2147483648.0);
  // In a group of 8, 7/8 of the routed bytes leave.
  EXPECT_EQ(expert_parallel_bytes({4096, 1, 2.0}, 4096, 2, 8).value(), 67108864.0 * 7 / 8 * 2);
  EXPECT_EQ(expert_parallel_bytes({4096, 32, 2.0}, 4096, 2, 1).value(), 0.0);
}

TEST(Strategies, PipelineSendsOneActivationPerBoundary) {
  // 4096 tokens × 16384 hidden × 2 B = 134,217,728 B per boundary.
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 2).value(), 134217728.0);
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 4).value(), 3 * 134217728.0);
  EXPECT_EQ(pipeline_parallel_bytes({16384, 126, 2.0}, 4096, 1).value(), 0.0);
}

TEST(Strategies, SeedPlacementRule) {
  EXPECT_TRUE(allowed_on(Strategy::tensor, Tier::scale_up));
  EXPECT_FALSE(allowed_on(Strategy::tensor, Tier::host));
  EXPECT_FALSE(allowed_on(Strategy::tensor, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::expert, Tier::scale_up));
  EXPECT_FALSE(allowed_on(Strategy::expert, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::pipeline, Tier::host));
  EXPECT_TRUE(allowed_on(Strategy::pipeline, Tier::scale_out));
  EXPECT_TRUE(allowed_on(Strategy::data, Tier::scale_out));
}

TEST(Verdict, ThresholdsAreInclusive) {
  EXPECT_EQ(level_for_ratio(0.0), Level::ok);
  EXPECT_EQ(level_for_ratio(0.25), Level::ok);
  EXPECT_EQ(level_for_ratio(0.2501), Level::marginal);
  EXPECT_EQ(level_for_ratio(1.0), Level::marginal);
  EXPECT_EQ(level_for_ratio(1.01), Level::avoid);
}

TEST(Verdict, SeedTensorParallelOverPcieIsAvoid) {
  // 336 ms of all-reduce vs 146 ms of compute: 2.3×, and off the placement rule.
  const Link pcie = make_link("pcie5", Tier::host, 64);
  const Verdict v = judge(Strategy::tensor, &pcie, Seconds::of(0.336), Seconds::of(0.146));
  EXPECT_EQ(v.level, Level::avoid);
  EXPECT_TRUE(v.breaks_rule);
  EXPECT_NEAR(v.ratio, 2.3, 0.01);
}

TEST(Verdict, RuleBreakIsAvoidEvenWhenCheap) {
  const Link ib = make_link("ib", Tier::scale_out, 50);
  EXPECT_EQ(judge(Strategy::tensor, &ib, Seconds::of(0.001), Seconds::of(1)).level, Level::avoid);
  EXPECT_EQ(judge(Strategy::pipeline, &ib, Seconds::of(0.001), Seconds::of(1)).level, Level::ok);
}

TEST(Verdict, SeedTensorParallelOverNvlinkIsHidden) {
  const Link nvlink = make_link("nvlink4", Tier::scale_up, 900);
  const Verdict v = judge(Strategy::tensor, &nvlink, Seconds::of(0.0239), Seconds::of(0.146));
  EXPECT_EQ(v.level, Level::ok);
  EXPECT_FALSE(v.breaks_rule);
}

TEST(Verdict, NoWireNoTraffic) {
  const Verdict v = judge(Strategy::data, nullptr, Seconds::of(0), Seconds::of(1));
  EXPECT_EQ(v.level, Level::ok);
  EXPECT_EQ(v.ratio, 0.0);
  EXPECT_EQ(worst(Level::ok, Level::avoid), Level::avoid);
  EXPECT_EQ(worst(Level::marginal, Level::ok), Level::marginal);
}

} // namespace
} // namespace icx
