#include "icx/wire/collectives.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_collectives {
namespace {

// test::nvswitch_link: 900 GB/s headline (both ways summed), 450 GB/s each way, ring
// efficiency 0.8, 2 µs per ring step, a 100 µs ramp with slowdown 1, and in-network
// reduction at 0.6 with 30 µs.
Link test_link(bool with_expected = true, bool with_nvls = true) {
  return test::nvswitch_link(with_expected, with_nvls);
}

CollectiveRequest request(Collective op, int gpus, double bytes,
                          Algorithm algorithm = Algorithm::ring) {
  return {op, algorithm, gpus, Bytes::of(bytes), {}};
}

TEST(Collectives, NcclTestsFactors) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_reduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_gather, 8), 0.875);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce_scatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_to_all, 2), 0.5);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::point_to_point, 8), 1.0);
  EXPECT_DOUBLE_EQ(wire_factor(Collective::all_reduce, Algorithm::nvls, 8), 1.0);
  EXPECT_DOUBLE_EQ(wire_factor(Collective::all_reduce, Algorithm::ring, 2), 1.0);
  EXPECT_EQ(ring_steps(Collective::all_reduce, 8), 14);
  EXPECT_EQ(ring_steps(Collective::all_gather, 8), 7);
  EXPECT_EQ(ring_steps(Collective::point_to_point, 8), 1);
  // 2(n-1) for the largest int n: 2 × 2147483646 = 4294967292, beyond a 32-bit int.
  EXPECT_EQ(ring_steps(Collective::all_reduce, 2147483647), 4294967292);
  EXPECT_EQ(ring_steps(Collective::all_gather, 2147483647), 2147483646);
}

TEST(Collectives, NamesRoundTripAndAcceptSpellings) {
  for (const Collective op : all_collectives) {
    EXPECT_EQ(collective_from_name(to_string(op)), op);
  }
  EXPECT_EQ(collective_from_name("All_Reduce"), Collective::all_reduce);
  EXPECT_EQ(collective_from_name("alltoall"), Collective::all_to_all);
  EXPECT_EQ(collective_from_name("sendrecv"), Collective::point_to_point);
  EXPECT_FALSE(collective_from_name("broadcast"));
  EXPECT_EQ(algorithm_from_name("NVLS"), Algorithm::nvls);
  EXPECT_FALSE(algorithm_from_name("collnet"));
}

TEST(Collectives, HeadlineIsTheBusBytesAtTheVendorFigure) {
  // 1 GiB all-reduce over 8: 2·7/8 × 2^30 B / 900e9 B/s = 2.087831 ms; busbw = 900 GB/s, the
  // vendor's figure; algbw = 900 / 1.75 = 514.3 GB/s.
  const CollectiveCost ar =
      headline_collective(test_link(), request(Collective::all_reduce, 8, 1 << 30));
  EXPECT_NEAR(ar.time.value(), 1.75 * 1073741824.0 / 900e9, 1e-15);
  EXPECT_NEAR(ar.busbw.value(), 900e9, 1e-3);
  EXPECT_NEAR(ar.algbw.value(), 900e9 / 1.75, 1e-3);
  // An all-gather moves 7/8 of S: 0.875e9 B / 900e9 B/s.
  const CollectiveCost ag =
      headline_collective(test_link(), request(Collective::all_gather, 8, 1e9));
  EXPECT_NEAR(ag.time.value(), 0.875e9 / 900e9, 1e-15);
  // A send goes one way: 1e9 B at the link's 450 GB/s each way, not its 900 both ways.
  const CollectiveCost send =
      headline_collective(test_link(), request(Collective::point_to_point, 2, 1e9));
  EXPECT_NEAR(send.time.value(), 1e9 / 450e9, 1e-15);
}

TEST(Collectives, ExpectedRingAllReduceByHand) {
  // n = 8, S = 1e9 B: tb = 1.75 × 1e9 / (450e9 × 0.8) = 4.8611111 ms; 14 steps × 2 µs = 28 µs.
  // ring/LL: 28 µs + (1 + 1) × tb = 9.7502222 ms; ring/Simple: 28 µs + 100 µs + tb =
  // 4.9891111 ms, the faster; busbw = 1e9 / 4.9891111e-3 × 1.75 = 350.7639 GB/s.
  const CollectiveCost cost =
      expected_collective(test_link(), request(Collective::all_reduce, 8, 1e9));
  const double tb = 1.75e9 / 360e9;
  const double expected_seconds = 28e-6 + 100e-6 + tb;
  EXPECT_NEAR(cost.time.value(), expected_seconds, 1e-12);
  EXPECT_NEAR(cost.time.value(), 4.9891111e-3, 1e-10);
  EXPECT_NEAR(cost.busbw.value(), 350.7639e9, 1e5);
  EXPECT_EQ(cost.kernel, Kernel::ring_simple);
  EXPECT_EQ(cost.topology, nullptr);
}

TEST(Collectives, ExpectedSmallMessageIsLatencyBound) {
  // 8 B: tb = 1.75 × 8 / 360e9 ≈ 3.9e-11 s; ring/LL: 28 µs + 2 × tb ≈ 28 µs, against
  // ring/Simple's 128 µs.
  const CollectiveCost cost =
      expected_collective(test_link(), request(Collective::all_reduce, 8, 8));
  EXPECT_NEAR(cost.time.value(), 28e-6, 1e-9);
  EXPECT_EQ(cost.kernel, Kernel::ring_ll);
}

TEST(Collectives, ExpectedNvlsSendsEachByteOnce) {
  // nvls, S = 1e9 B: tb = 1e9 / (450e9 × 0.6) = 3.7037037 ms, L = 30 µs fixed, no ramp:
  // 3.7337037 ms.
  const CollectiveCost cost =
      expected_collective(test_link(), request(Collective::all_reduce, 8, 1e9, Algorithm::nvls));
  EXPECT_NEAR(cost.time.value(), 30e-6 + 1e9 / 270e9, 1e-12);
  EXPECT_NEAR(cost.time.value(), 3.7337037e-3, 1e-10);
  EXPECT_EQ(cost.kernel, Kernel::nvls_simple);
  // busbw uses the all-reduce factor, as all_reduce_perf prints it, so it exceeds the ring's
  // 450 × 0.8 = 360 GB/s ceiling: 1e9 / 3.7337037e-3 × 1.75 = 468.70 GB/s.
  EXPECT_NEAR(cost.busbw.value(), 468.7035e9, 1e5);
}

TEST(Collectives, OtherOperationsUseTheirStepsAndFactors) {
  // all-gather, n = 4, S = 4e6 B: tb = 0.75 × 4e6 / 360e9 = 8.3333 µs, 3 steps × 2 µs;
  // ring/LL: 6 µs + 2 × 8.3333 µs = 22.6667 µs beats ring/Simple's 6 + 100 + 8.3333 µs.
  const CollectiveCost ag =
      expected_collective(test_link(), request(Collective::all_gather, 4, 4e6));
  EXPECT_NEAR(ag.time.value(), 6e-6 + 2 * (0.75 * 4e6 / 360e9), 1e-13);
  EXPECT_NEAR(ag.time.value(), 22.666667e-6, 1e-12);
  EXPECT_EQ(ag.kernel, Kernel::ring_ll);
  // point-to-point: one step, S once: tb = 4e6 / 360e9 = 11.1111 µs; ring/LL 2 µs + 22.2222 µs.
  const CollectiveCost p2p =
      expected_collective(test_link(), request(Collective::point_to_point, 8, 4e6));
  EXPECT_NEAR(p2p.time.value(), 2e-6 + 2 * (4e6 / 360e9), 1e-13);
  EXPECT_NEAR(p2p.time.value(), 24.222222e-6, 1e-12);
}

TEST(Collectives, CrossoverWhereLatencyEqualsBandwidthTerm) {
  // The full-rate line, ring/Simple: L = 28 µs + 100 µs = 128 µs; tb(S) = 1.75 S / 360e9 →
  // S = 128e-6 × 360e9 / 1.75 = 26,331,428.57 B.
  const auto ring = crossover_size(test_link(), request(Collective::all_reduce, 8, 1));
  ASSERT_TRUE(ring);
  EXPECT_NEAR(ring->value(), 26331428.57, 1e-2);
  // nvls: 30e-6 × 270e9 / 1 = 8.1e6 B.
  const auto nvls =
      crossover_size(test_link(), request(Collective::all_reduce, 8, 1, Algorithm::nvls));
  ASSERT_TRUE(nvls);
  EXPECT_NEAR(nvls->value(), 8.1e6, 1e-3);
  // auto: the full-rate line is the one with the least time per byte, nvls (1 / 270e9 s
  // against the ring's 1.75 / 360e9 s): 8.1e6 B again.
  const auto automatic =
      crossover_size(test_link(), request(Collective::all_reduce, 8, 1, Algorithm::automatic));
  ASSERT_TRUE(automatic);
  EXPECT_NEAR(automatic->value(), 8.1e6, 1e-3);
  EXPECT_FALSE(crossover_size(test_link(false), request(Collective::all_reduce, 8, 1)));
}

TEST(Collectives, UnavailableIsSaidNotInvented) {
  const Link bare = test_link(false);
  const Check check = check_expected_model(bare, Algorithm::ring);
  EXPECT_FALSE(check);
  EXPECT_NE(check.reason().find("not available"), std::string::npos);
  EXPECT_THROW((void)expected_collective(bare, request(Collective::all_reduce, 8, 1e6)),
               InputError);
  const Link ring_only = test_link(true, false);
  EXPECT_TRUE(check_expected_model(ring_only, Algorithm::ring));
  EXPECT_FALSE(check_expected_model(ring_only, Algorithm::nvls));
}

TEST(Collectives, RejectsBadRequests) {
  const Link link = test_link();
  EXPECT_THROW((void)expected_collective(link, request(Collective::all_reduce, 1, 1e6)),
               InputError);
  EXPECT_THROW((void)headline_collective(link, request(Collective::all_reduce, 8, 0)), InputError);
  EXPECT_THROW(
      (void)expected_collective(link, request(Collective::all_to_all, 8, 1e6, Algorithm::nvls)),
      InputError);
}

TEST(Collectives, InNetworkTrafficPerGpu) {
  // 8 GPUs: all-reduce sends S and receives the S-byte sum; reduce-scatter sends S and
  // receives its 1/8 share; all-gather sends its 1/8 share and receives all of S.
  const auto all_reduce = in_network_traffic(Collective::all_reduce, 8);
  ASSERT_TRUE(all_reduce);
  EXPECT_DOUBLE_EQ(all_reduce->sent, 1.0);
  EXPECT_DOUBLE_EQ(all_reduce->received, 1.0);
  const auto reduce_scatter = in_network_traffic(Collective::reduce_scatter, 8);
  ASSERT_TRUE(reduce_scatter);
  EXPECT_DOUBLE_EQ(reduce_scatter->sent, 1.0);
  EXPECT_DOUBLE_EQ(reduce_scatter->received, 0.125);
  const auto all_gather = in_network_traffic(Collective::all_gather, 8);
  ASSERT_TRUE(all_gather);
  EXPECT_DOUBLE_EQ(all_gather->sent, 0.125);
  EXPECT_DOUBLE_EQ(all_gather->received, 1.0);
  EXPECT_FALSE(in_network_traffic(Collective::all_to_all, 8));
  EXPECT_FALSE(in_network_traffic(Collective::point_to_point, 8));
  EXPECT_EQ(in_network_collectives(),
            (std::vector<Collective>{Collective::all_reduce, Collective::all_gather,
                                     Collective::reduce_scatter}));
  EXPECT_EQ(in_network_collectives_text(), "all-reduce, all-gather and reduce-scatter");
  // The busier direction carries S for each of the three: wire factor 1, against the ring's
  // (n-1)/n for all-gather and reduce-scatter.
  EXPECT_DOUBLE_EQ(wire_factor(Collective::reduce_scatter, Algorithm::nvls, 8), 1.0);
  EXPECT_DOUBLE_EQ(wire_factor(Collective::all_gather, Algorithm::nvls, 8), 1.0);
  EXPECT_DOUBLE_EQ(wire_factor(Collective::all_gather, Algorithm::ring, 8), 0.875);
}

TEST(Collectives, InNetworkAllGatherAndReduceScatterPricedLikeTheAllReduce) {
  // S = 1e9 B: tb = 1e9 / (450e9 × 0.6) = 3.7037037 ms, L = 30 µs fixed: t = 3.7337037 ms;
  // busbw = S / t × 7/8 = 234.3518 GB/s.
  for (const Collective op : {Collective::all_gather, Collective::reduce_scatter}) {
    const CollectiveCost cost =
        expected_collective(test_link(), request(op, 8, 1e9, Algorithm::nvls));
    EXPECT_NEAR(cost.time.value(), 3.7337037e-3, 1e-10);
    EXPECT_NEAR(cost.busbw.value(), 234.3518e9, 1e5);
    EXPECT_NEAR(crossover_size(test_link(), request(op, 8, 1, Algorithm::nvls))->value(), 8.1e6,
                1e-3);
  }
  // The ring all-gather moves 7/8 of S at 0.8: ring/Simple 14 µs + 100 µs + 2.4305556 ms =
  // 2.5445556 ms, so the ring wins at this size, as NCCL's tuner finds.
  EXPECT_NEAR(
      expected_collective(test_link(), request(Collective::all_gather, 8, 1e9)).time.value(),
      2.5445556e-3, 1e-10);
  // Parameters: ring steps and step latency, or the in-network fixed latency.
  const AlgorithmParameters ring =
      algorithm_parameters(*test_link().expected, request(Collective::all_gather, 8, 1));
  EXPECT_EQ(ring.steps, 7);
  EXPECT_DOUBLE_EQ(ring.latency.value(), 14e-6);
  EXPECT_DOUBLE_EQ(ring.efficiency, 0.8);
  const AlgorithmParameters nvls = algorithm_parameters(
      *test_link().expected, request(Collective::all_gather, 8, 1, Algorithm::nvls));
  EXPECT_FALSE(nvls.steps);
  EXPECT_DOUBLE_EQ(nvls.latency.value(), 30e-6);
  EXPECT_DOUBLE_EQ(nvls.efficiency, 0.6);
  EXPECT_THROW((void)algorithm_parameters(*test_link(true, false).expected,
                                          request(Collective::all_reduce, 8, 1, Algorithm::nvls)),
               InputError);
  // The bytes nccl-tests' busbw counts: 2·7/8 for an all-reduce over 8, 7/8 for the others,
  // one message for a send.
  EXPECT_DOUBLE_EQ(headline_traffic_factor(Collective::all_reduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(headline_traffic_factor(Collective::all_gather, 8), 0.875);
  EXPECT_DOUBLE_EQ(headline_traffic_factor(Collective::point_to_point, 2), 1.0);
}

TEST(Collectives, InNetworkReductionOnAScaleUpSwitch) {
  Link link = test_link();
  EXPECT_TRUE(check_algorithm(link, Collective::all_reduce, Algorithm::nvls));
  EXPECT_TRUE(check_algorithm(link, Collective::all_gather, Algorithm::nvls));
  EXPECT_TRUE(check_algorithm(link, Collective::reduce_scatter, Algorithm::nvls));
  EXPECT_EQ(check_algorithm(link, Collective::all_to_all, Algorithm::nvls).reason(),
            "in-network reduction performs all-reduce, all-gather and reduce-scatter, not "
            "all-to-all");
  EXPECT_FALSE(check_algorithm(link, Collective::point_to_point, Algorithm::nvls));
  link.tier = Tier::host;
  EXPECT_EQ(check_algorithm(link, Collective::all_reduce, Algorithm::nvls).reason(),
            "wire 'testlink' is a host link; in-network reduction runs inside a scale-up switch "
            "(NVSwitch)");
  EXPECT_TRUE(check_algorithm(link, Collective::all_reduce, Algorithm::ring));
  // Pricing follows the same rule, even with parameters in the catalog.
  const CollectiveRequest request{Collective::all_reduce, Algorithm::nvls, 8, Bytes::of(1e6), {}};
  EXPECT_THROW((void)expected_collective(link, request), InputError);
}

} // namespace
} // namespace icx::unit_collectives
