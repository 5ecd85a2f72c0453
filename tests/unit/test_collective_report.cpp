#include "icx/reports/collective.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_collective_report {
namespace {

using test::nvswitch_link; // 450 GB/s each way; ring 0.8, 2 µs/step, ramp 100 µs, slowdown 1;
                           // in-network reduction 0.6, 30 µs

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
  // Headline: the bus bytes 2·7/8 × 1e9 B at 900 GB/s = 1.9444 ms.
  EXPECT_DOUBLE_EQ(report.headline_factor, 1.75);
  EXPECT_NEAR(report.rows[0].headline.time.value(), 1.75 / 900, 1e-12);
  EXPECT_DOUBLE_EQ(report.busbw_factor, 1.75);
  ASSERT_TRUE(report.expected);
  // 14 steps × 2 µs = 28 µs; wire factor 2·7/8 = 1.75; the ring's rate 450e9 × 0.8 / 1.75 =
  // 205.714 GB/s of S for Simple, half that (slowdown 1) for LL, which has no ramp.
  const std::vector<LineFormula>& lines = report.expected->lines;
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].kernel, Kernel::ring_ll);
  EXPECT_NEAR(lines[0].latency.value(), 28e-6, 1e-15);
  EXPECT_NEAR(lines[0].rate.value(), 360e9 / 1.75 / 2, 1e-3);
  EXPECT_EQ(lines[1].kernel, Kernel::ring_simple);
  EXPECT_NEAR(lines[1].latency.value(), 128e-6, 1e-15);
  EXPECT_NEAR(lines[1].rate.value(), 360e9 / 1.75, 1e-3);
  EXPECT_EQ(report.expected->topology, nullptr);
  // Crossover of ring/Simple: 128 µs = tb(S) at S = 128e-6 × 450e9 × 0.8 / 1.75 = 26.331 MB.
  EXPECT_NEAR(report.expected->crossover.value(), 26331428.57, 1e-2);
  // At 1e9 B ring/Simple runs: L = 28 + 100 µs, tb = 1.75e9 / (450e9 × 0.8) = 4.8611 ms.
  ASSERT_TRUE(report.rows[0].terms);
  EXPECT_NEAR(report.rows[0].terms->latency.value(), 128e-6, 1e-15);
  EXPECT_NEAR(report.rows[0].terms->bandwidth.value(), 1.75 / 360, 1e-12);
  EXPECT_EQ(report.rows[0].expected->kernel, Kernel::ring_simple);
  EXPECT_TRUE(report.assumptions.empty());
}

TEST(CollectiveReport, AcrossNodesReportsTheFabricAndItsLines) {
  const Link up = nvswitch_link();
  const Link nic = test::nic_link(); // 50 GB/s at 0.9, 5 µs per step, ramp 100 µs
  CollectiveReportRequest r = request(Collective::all_reduce, Algorithm::tree, {8e9});
  r.gpus = 16;
  const CollectiveReport report = collective_report(Fabric{&up, 8, &nic, 4}, r);
  ASSERT_TRUE(report.fabric);
  EXPECT_EQ(report.nodes, 2);
  EXPECT_EQ(report.link, &nic);
  // Headline: the tree asked for, nothing lost, over the node's 4 × 50 GB/s NICs together:
  // 2S = 16e9 B / 200 GB/s = 80 ms (the chain inside, 2S at 450 GB/s, is shorter). The
  // formula shown: 2 × S over 200 GB/s.
  EXPECT_NEAR(report.rows[0].headline.time.value(), 0.08, 1e-12);
  EXPECT_NEAR(report.headline_factor, 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(report.headline_bandwidth.value(), 200e9);
  // Tree over 4 NICs (180 GB/s): 2S through them = 88.89 ms, the chain 2S at 360 GB/s =
  // 44.44 ms; latency 2·(7·2 + 5) = 38 µs, Simple adds the NIC's 100 µs ramp.
  ASSERT_TRUE(report.expected);
  ASSERT_EQ(report.expected->lines.size(), 2U);
  EXPECT_EQ(report.expected->lines[1].kernel, Kernel::tree_simple);
  EXPECT_NEAR(report.expected->lines[1].latency.value(), 138e-6, 1e-15);
  EXPECT_NEAR(report.rows[0].expected->time.value(), 16e9 / 180e9 + 138e-6, 1e-9);
  EXPECT_EQ(report.assumptions.size(), 1U);
  const Json json(report);
  EXPECT_EQ(json["fabric"]["nics_per_node"], 4);
  EXPECT_EQ(json["algo"], "tree");
  EXPECT_EQ(json["wire"], "nic");
}

TEST(CollectiveReport, SweepAndUnavailableExpectedModel) {
  Link link = nvswitch_link();
  link.expected.reset();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_gather, Algorithm::ring, {8, 16, 32}));
  EXPECT_TRUE(report.sweep);
  ASSERT_EQ(report.rows.size(), 3U);
  // Headline all-gather over 8: 7/8 of S at 900 GB/s; 32 B take 28 / 900e9 s.
  EXPECT_DOUBLE_EQ(report.headline_factor, 0.875);
  EXPECT_NEAR(report.rows[2].headline.time.value(), 28 / 900e9, 1e-24);
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
  // One line: 30 µs fixed, S once (wire factor 1) at 450e9 × 0.6 = 270 GB/s.
  ASSERT_EQ(report.expected->lines.size(), 1U);
  EXPECT_EQ(report.expected->lines[0].kernel, Kernel::nvls_simple);
  EXPECT_NEAR(report.expected->lines[0].latency.value(), 30e-6, 1e-15);
  EXPECT_NEAR(report.expected->lines[0].rate.value(), 270e9, 1e-3);
  // 30 µs + 1e9 / (450e9 × 0.6) = 3.7337037 ms (see test_collectives).
  EXPECT_NEAR(report.rows[0].expected->time.value(), 3.7337037e-3, 1e-10);
  ASSERT_EQ(report.assumptions.size(), 1U);
  const Json json = report;
  EXPECT_EQ(json.at("algo"), "nvls");
  EXPECT_EQ(json.at("size_bytes"), 1000000000);
  EXPECT_EQ(json.at("assumptions").size(), 1U);
}

TEST(CollectiveReport, AutoNamesTheAlgorithmThatRan) {
  // 64 MiB = 67,108,864 B over 8 GPUs: ring/LL 28 µs + 2 × 1.75 S / 360e9 = 680.46 µs;
  // ring/Simple 128 µs + 326.23 µs = 454.23 µs; nvls 30 µs + S / 270e9 = 278.55 µs, the fastest.
  const Link link = nvswitch_link();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_reduce, Algorithm::automatic, {67108864}));
  ASSERT_TRUE(report.expected);
  EXPECT_EQ(report.expected->lines.size(), 3U); // both ring protocols and nvls
  EXPECT_NEAR(report.rows[0].expected->time.value(), 30e-6 + 67108864 / 270e9, 1e-12);
  const Json json = report;
  EXPECT_EQ(json.at("algo"), "nvls");
  EXPECT_EQ(json.at("algo_requested"), "auto");
  EXPECT_EQ(json.at("impl"), "nccl");
  EXPECT_EQ(json.at("expected").at("algo"), "nvls");
  EXPECT_EQ(json.at("expected").at("protocol"), "Simple");
  EXPECT_FALSE(json.contains("topology"));
  // A sweep: the top-level algo is the one asked for, each row names what ran; 8 B is
  // latency-bound, ring/LL (28 µs against nvls' 30 µs).
  const Json sweep =
      collective_report(link, request(Collective::all_reduce, Algorithm::automatic, {8, 67108864}));
  EXPECT_EQ(sweep.at("algo"), "auto");
  EXPECT_EQ(sweep.at("rows")[0].at("expected").at("algo"), "ring");
  EXPECT_EQ(sweep.at("rows")[0].at("expected").at("protocol"), "LL");
  EXPECT_EQ(sweep.at("rows")[1].at("expected").at("algo"), "nvls");
  // The headline has no line that ran.
  EXPECT_FALSE(sweep.at("rows")[0].at("headline").contains("algo"));
}

TEST(CollectiveReport, HostLinkReportsItsTopology) {
  // test::pcie_link at 8 GPUs: the "host" topology (the default up to 8), 0.5 at 4 µs per
  // step. 1e9 B: ring/Simple 14 × 4 µs + 100 µs + 1.75e9 / (64e9 × 0.5) = 54.8435 ms;
  // crossover 156 µs × 32e9 / 1.75 = 2,852,571.43 B.
  const Link link = test::pcie_link();
  const CollectiveReport report =
      collective_report(link, request(Collective::all_reduce, Algorithm::automatic, {1e9}));
  ASSERT_TRUE(report.expected);
  ASSERT_NE(report.expected->topology, nullptr);
  EXPECT_EQ(report.expected->topology->id, "host");
  EXPECT_EQ(report.expected->lines.size(), 2U); // a host link has no nvls
  EXPECT_NEAR(report.rows[0].expected->time.value(), 54.8435e-3, 1e-10);
  EXPECT_NEAR(report.expected->crossover.value(), 2852571.43, 1e-2);
  const Json json = report;
  EXPECT_EQ(json.at("algo"), "ring");
  EXPECT_EQ(json.at("topology"), "host");
  EXPECT_EQ(json.at("expected").at("topology"), "host");
  EXPECT_EQ(json.at("expected").at("protocol"), "Simple");
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
} // namespace icx::unit_collective_report

namespace icx::unit_collective_report {
namespace {

/// An all_gather_perf or all_reduce_perf log of 8 ranks with two sizes, written by hand.
std::string log_text(const char* test) {
  std::string text = std::string("# Collective test starting: ") + test + "\n#\n";
  for (int rank = 0; rank < 8; ++rank) {
    text += "#  Rank  " + std::to_string(rank) + " Group  0 Pid 1 on host device " +
            std::to_string(rank) + " [0x01] NVIDIA H100 80GB HBM3\n";
  }
  text += "#       size         count      type   redop    root     time   algbw   busbw #wrong "
          "    time   algbw   busbw #wrong\n"
          "          16             4     float     sum      -1    10.00    0.00    0.00      0 "
          "   30.00    0.00    0.00      0\n"
          "     1048576        262144     float     sum      -1   100.00   10.49   18.35      0 "
          "  100.00   10.49   18.35      0\n"
          "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 9.17\n";
  return text;
}

TEST(CollectiveReport, MeasuredRunLiesOverTheRowsOfItsSizes) {
  const Link link = nvswitch_link(); // the report points at it
  CollectiveReport report = collective_report(
      link, request(Collective::all_reduce, Algorithm::ring, {16, 4096, 1048576}));
  attach_measured(report, parse_nccl_test_log(log_text("all_reduce_perf"), "run.log"), "run.log");
  EXPECT_EQ(report.measured_from, "run.log");
  ASSERT_EQ(report.measured_points.size(), 2U);
  // 16 B: mean of 10 µs and 30 µs = 20 µs; algbw 16 / 20e-6 = 0.8 MB/s; busbw × 2·7/8.
  ASSERT_TRUE(report.rows[0].measured);
  EXPECT_NEAR(report.rows[0].measured->time.value(), 20e-6, 1e-12);
  EXPECT_NEAR(report.rows[0].measured->algbw.value(), 0.8e6, 1e-3);
  EXPECT_NEAR(report.rows[0].measured->busbw.value(), 0.8e6 * 1.75, 1e-3);
  EXPECT_FALSE(report.rows[1].measured); // 4096 B is not in the log
  // 1 MiB in 100 µs: 10.49 GB/s algbw, 18.35 GB/s busbw as the log prints.
  ASSERT_TRUE(report.rows[2].measured);
  EXPECT_NEAR(report.rows[2].measured->busbw.value(), 18.35e9, 0.01e9);
  const Json json = report;
  EXPECT_EQ(json.at("measured_from"), "run.log");
  EXPECT_TRUE(json.at("rows")[1].at("measured").is_null());
}

TEST(CollectiveReport, MeasuredRunOfAnotherOperationOrGroupIsRefused) {
  const Link link = nvswitch_link(); // the reports point at it
  CollectiveReport report =
      collective_report(link, request(Collective::all_reduce, Algorithm::ring, {16, 1048576}));
  EXPECT_THROW(
      attach_measured(report, parse_nccl_test_log(log_text("all_gather_perf"), "g.log"), "g.log"),
      InputError);
  CollectiveReportRequest four = request(Collective::all_reduce, Algorithm::ring, {16});
  four.gpus = 4;
  CollectiveReport small = collective_report(link, four);
  EXPECT_THROW(
      attach_measured(small, parse_nccl_test_log(log_text("all_reduce_perf"), "r.log"), "r.log"),
      InputError);
}

} // namespace
} // namespace icx::unit_collective_report
