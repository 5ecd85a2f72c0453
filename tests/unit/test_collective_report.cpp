#include "icx/collective_report.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/error.hpp"

namespace icx {
namespace {

// 900 GB/s headline (both ways summed), 450 GB/s each way; ring at 0.8 with 2 µs per step,
// a 100 µs ramp with slowdown 1; in-network reduction at 0.6 with 30 µs.
Link nvswitch_link() {
  Link link;
  link.id = "testlink";
  link.tier = Tier::scale_up;
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(900));
  link.headline_convention = Convention::both_directions_summed;
  link.per_direction_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(450));
  ExpectedModel model;
  model.efficiency = 0.8;
  model.step_latency = microseconds(2);
  model.ramp = microseconds(100);
  model.small_message_slowdown = 1.0;
  model.in_network_reduction = InNetworkReduction{0.6, microseconds(30)};
  link.expected = model;
  return link;
}

CollectiveReportRequest request(Collective op, Algorithm algorithm, std::vector<double> sizes) {
  CollectiveReportRequest r{op, algorithm, 8, {}, {}};
  for (const double size : sizes) {
    r.sizes.push_back(Bytes::of(size));
  }
  return r;
}

TEST(CollectiveReport, RingAllReduceCarriesItsFormulaTerms) {
  const Link link = nvswitch_link();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_reduce, Algorithm::ring, {1e9}));
  EXPECT_FALSE(report.sweep);
  ASSERT_EQ(report.rows.size(), 1U);
  // Headline: 2 × 1e9 B / 900 GB/s = 2.2222 ms.
  EXPECT_DOUBLE_EQ(report.headline_factor, 2.0);
  EXPECT_NEAR(report.rows[0].headline.time.value(), 2.0 / 900, 1e-12);
  EXPECT_DOUBLE_EQ(report.busbw_factor, 1.75);
  ASSERT_TRUE(report.expected);
  // 14 steps × 2 µs = 28 µs; wire factor 2·7/8 = 1.75; tb = 1.75e9 / (450e9 × 0.8) = 4.8611 ms.
  EXPECT_EQ(report.expected->parameters.steps, 14);
  EXPECT_NEAR(report.expected->parameters.latency.value(), 28e-6, 1e-15);
  EXPECT_DOUBLE_EQ(report.expected->wire_factor, 1.75);
  // Crossover: L = tb(S) at S = 28e-6 × 450e9 × 0.8 / 1.75 = 5.76e6 B.
  EXPECT_NEAR(report.expected->crossover.value(), 5.76e6, 1e-3);
  ASSERT_TRUE(report.rows[0].terms);
  EXPECT_NEAR(report.rows[0].terms->latency.value(), 28e-6, 1e-15);
  EXPECT_NEAR(report.rows[0].terms->bandwidth.value(), 1.75 / 360, 1e-12);
  // Ramp term: 100 µs × tb / (tb + 100 µs) = 97.984 µs.
  EXPECT_NEAR(report.rows[0].terms->ramp.value(), 97.984e-6, 1e-9);
  EXPECT_TRUE(report.assumptions.empty());
}

TEST(CollectiveReport, SweepAndUnavailableExpectedModel) {
  Link link = nvswitch_link();
  link.expected.reset();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_gather, Algorithm::ring, {8, 16, 32}));
  EXPECT_TRUE(report.sweep);
  ASSERT_EQ(report.rows.size(), 3U);
  // Headline all-gather: S / 900 GB/s; 32 B take 32 / 900e9 s.
  EXPECT_DOUBLE_EQ(report.headline_factor, 1.0);
  EXPECT_NEAR(report.rows[2].headline.time.value(), 32 / 900e9, 1e-24);
  EXPECT_FALSE(report.expected);
  EXPECT_FALSE(report.rows[0].expected);
  ASSERT_FALSE(report.expected_model);
  EXPECT_NE(report.expected_model.reason().find("no expected-model parameters"), std::string::npos);
  const Json json = report;
  EXPECT_EQ(json.at("schema"), "icx.collective/1");
  EXPECT_FALSE(json.contains("size_bytes")); // a sweep has rows only
  EXPECT_TRUE(json.at("crossover_bytes").is_null());
  EXPECT_EQ(json.at("rows").size(), 3U);
  EXPECT_EQ(json.at("rows")[1].at("size_bytes"), 16);
}

TEST(CollectiveReport, InNetworkAllGatherSaysWhatItAssumes) {
  const Link link = nvswitch_link();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_gather, Algorithm::nvls, {1e9}));
  ASSERT_TRUE(report.expected);
  EXPECT_FALSE(report.expected->parameters.steps);
  EXPECT_DOUBLE_EQ(report.expected->parameters.efficiency, 0.6);
  EXPECT_DOUBLE_EQ(report.expected->wire_factor, 1.0);
  // 30 µs + 1e9 / (450e9 × 0.6) + ramp = 3.831075 ms (see test_collectives).
  EXPECT_NEAR(report.rows[0].expected->time.value(), 3.831075e-3, 1e-9);
  ASSERT_EQ(report.assumptions.size(), 1U);
  const Json json = report;
  EXPECT_EQ(json.at("algo"), "nvls");
  EXPECT_EQ(json.at("size_bytes"), 1000000000);
  EXPECT_EQ(json.at("assumptions").size(), 1U);
}

TEST(CollectiveReport, RefusesWhatTheWireCannotRun) {
  Link link = nvswitch_link();
  EXPECT_THROW((void)collective_report(link, request(Collective::all_to_all, Algorithm::nvls, {1})),
               InputError);
  link.expected->in_network_reduction.reset();
  EXPECT_THROW((void)collective_report(link, request(Collective::all_reduce, Algorithm::nvls, {1})),
               InputError);
  EXPECT_THROW((void)collective_report(link, request(Collective::all_reduce, Algorithm::ring, {})),
               InputError);
}

} // namespace
} // namespace icx
