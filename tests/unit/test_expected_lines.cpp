// The expected model's NCCL lines (collectives.hpp): ring/LL, ring/Simple and nvls/Simple,
// the fastest of those the request's algorithm allows.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_expected_lines {
namespace {

// test::nvswitch_link: 450 GB/s each way; ring 0.8 at 2 µs per step, ramp 100 µs, slowdown 1;
// in-network reduction 0.6 with 30 µs. For an 8-GPU all-reduce of S bytes:
//   ring/LL      14 × 2 µs + 2 × 1.75 S / 360e9 = 28 µs + 3.5 S / 360e9
//   ring/Simple  28 µs + 100 µs + 1.75 S / 360e9
//   nvls/Simple  30 µs + S / 270e9
CollectiveRequest all_reduce(double bytes, Algorithm algorithm = Algorithm::automatic) {
  return {Collective::all_reduce, algorithm, 8, Bytes::of(bytes), {}};
}

Kernel kernel_at(const Link& link, const CollectiveRequest& request) {
  return *expected_collective(link, request).kernel;
}

std::vector<Kernel> kernels_of(const Link& link, const CollectiveRequest& request) {
  std::vector<Kernel> kernels;
  for (const ExpectedLine& line : expected_lines(link, *link.expected, request)) {
    kernels.push_back(line.kernel);
  }
  return kernels;
}

TEST(ExpectedLines, AutoTakesLowLatencyRingSmallAndNvlsLarge) {
  const Link link = test::nvswitch_link();
  // 8 B: ring/LL ≈ 28 µs against nvls' 30 µs and ring/Simple's 128 µs.
  const CollectiveCost small = expected_collective(link, all_reduce(8));
  EXPECT_EQ(small.kernel, Kernel::ring_ll);
  EXPECT_NEAR(small.time.value(), 28e-6 + 3.5 * 8 / 360e9, 1e-15);
  // 64 MiB = 67,108,864 B: ring/LL 680.45 µs, ring/Simple 454.22 µs, nvls 30 µs +
  // 67108864 / 270e9 = 278.55 µs, the fastest.
  const CollectiveCost large = expected_collective(link, all_reduce(67108864));
  EXPECT_EQ(large.kernel, Kernel::nvls_simple);
  EXPECT_NEAR(large.time.value(), 278.55135e-6, 1e-11);
  // ring/LL and nvls cross where 28 µs + 3.5 S / 360e9 = 30 µs + S / 270e9:
  // S = 2 µs / (10.5 / 1080e9 - 4 / 1080e9) = 2e-6 × 1080e9 / 6.5 = 332,307.7 B.
  // 300,000 B: LL 30.9167 µs < nvls 31.1111 µs; 370,000 B: LL 31.5972 µs > nvls 31.3704 µs.
  EXPECT_EQ(kernel_at(link, all_reduce(300000)), Kernel::ring_ll);
  EXPECT_NEAR(expected_collective(link, all_reduce(300000)).time.value(), 30.916667e-6, 1e-12);
  EXPECT_EQ(kernel_at(link, all_reduce(370000)), Kernel::nvls_simple);
  EXPECT_NEAR(expected_collective(link, all_reduce(370000)).time.value(), 31.370370e-6, 1e-12);
}

TEST(ExpectedLines, SimpleBeatsLowLatencyForLargeRings) {
  // ring/LL = ring/Simple where 2 tb = 100 µs + tb: tb = 100 µs, S = 100e-6 × 360e9 / 1.75 =
  // 20,571,428.6 B. 16 MiB: LL 28 + 163.11 = 191.11 µs < Simple 128 + 81.56 = 209.56 µs;
  // 32 MiB: LL 28 + 326.22 = 354.22 µs > Simple 128 + 163.11 = 291.11 µs.
  const Link link = test::nvswitch_link();
  const CollectiveCost mid = expected_collective(link, all_reduce(16777216, Algorithm::ring));
  EXPECT_EQ(mid.kernel, Kernel::ring_ll);
  EXPECT_NEAR(mid.time.value(), 191.11182e-6, 1e-11);
  const CollectiveCost large = expected_collective(link, all_reduce(33554432, Algorithm::ring));
  EXPECT_EQ(large.kernel, Kernel::ring_simple);
  EXPECT_NEAR(large.time.value(), 291.11182e-6, 1e-11);
  EXPECT_EQ(kernel_at(link, all_reduce(20.5e6, Algorithm::ring)), Kernel::ring_ll);
  EXPECT_EQ(kernel_at(link, all_reduce(20.7e6, Algorithm::ring)), Kernel::ring_simple);
  // The terms are those of the line that ran: 128 µs and 1.75 × 32 MiB / 360e9.
  const ExpectedTerms terms = expected_terms(link, all_reduce(33554432, Algorithm::ring));
  EXPECT_NEAR(terms.latency.value(), 128e-6, 1e-15);
  EXPECT_NEAR(terms.bandwidth.value(), 1.75 * 33554432 / 360e9, 1e-15);
}

TEST(ExpectedLines, TheAlgorithmDecidesWhichLinesCompete) {
  const Link link = test::nvswitch_link();
  EXPECT_EQ(kernels_of(link, all_reduce(1)),
            (std::vector<Kernel>{Kernel::ring_ll, Kernel::ring_simple, Kernel::nvls_simple}));
  EXPECT_EQ(kernels_of(link, all_reduce(1, Algorithm::ring)),
            (std::vector<Kernel>{Kernel::ring_ll, Kernel::ring_simple}));
  EXPECT_EQ(kernels_of(link, all_reduce(1, Algorithm::nvls)),
            std::vector<Kernel>{Kernel::nvls_simple});
  // auto without in-network reduction, for an operation nvls does not serve, or on a host
  // link: the ring's two protocols only.
  const Link ring_only = test::nvswitch_link(true, false);
  EXPECT_EQ(kernels_of(ring_only, all_reduce(1)).size(), 2U);
  const CollectiveRequest all_to_all{
      Collective::all_to_all, Algorithm::automatic, 8, Bytes::of(1), {}};
  EXPECT_EQ(kernels_of(link, all_to_all).size(), 2U);
  Link host = link;
  host.tier = Tier::host;
  EXPECT_EQ(kernels_of(host, all_reduce(67108864)).size(), 2U);
  EXPECT_EQ(kernel_at(host, all_reduce(67108864)), Kernel::ring_simple);
}

TEST(ExpectedLines, KernelsNameTheirAlgorithmAndProtocol) {
  EXPECT_EQ(kernel_algorithm(Kernel::ring_ll), "ring");
  EXPECT_EQ(kernel_algorithm(Kernel::ring_simple), "ring");
  EXPECT_EQ(kernel_algorithm(Kernel::nvls_simple), "nvls");
  EXPECT_EQ(kernel_algorithm(Kernel::one_shot), "one-shot");
  EXPECT_EQ(kernel_algorithm(Kernel::two_shot), "two-shot");
  EXPECT_EQ(kernel_algorithm(Kernel::multimem), "multimem");
  EXPECT_EQ(kernel_protocol(Kernel::ring_ll), Protocol::ll);
  EXPECT_EQ(kernel_protocol(Kernel::ring_simple), Protocol::simple);
  EXPECT_EQ(kernel_protocol(Kernel::nvls_simple), Protocol::simple);
  for (const Kernel engine : {Kernel::one_shot, Kernel::two_shot, Kernel::multimem}) {
    EXPECT_FALSE(kernel_protocol(engine)) << to_string(engine);
  }
  EXPECT_EQ(to_string(Kernel::ring_ll), "ring/LL");
  EXPECT_EQ(to_string(Protocol::simple), "Simple");
  EXPECT_EQ(implementation_from_name("One-Shot"), Implementation::one_shot);
  EXPECT_EQ(implementation_from_name("vllm"), Implementation::vllm);
  EXPECT_FALSE(implementation_from_name("trtllm"));
}

TEST(ExpectedLines, AFullMeshGroupCrossesOnlyTheLinksToItsPeers) {
  // The shipped Infinity Fabric: 7 links, one to each peer, 448 GB/s each way in all. A group
  // of 4 GPUs reaches its 3 peers over 3 links, 192 GB/s; of 8, all 448; NVLink's switch gives
  // any group the whole figure.
  const Catalog catalog = Catalog::shipped();
  const Link& mesh = catalog.link("infinity-fabric");
  ASSERT_TRUE(mesh.full_mesh);
  EXPECT_NEAR(group_bandwidth(mesh, 4).value(), 192e9, 1);
  EXPECT_NEAR(group_bandwidth(mesh, 2).value(), 64e9, 1);
  EXPECT_NEAR(group_bandwidth(mesh, 8).value(), 448e9, 1);
  EXPECT_NEAR(group_bandwidth(catalog.link("nvlink4"), 4).value(), 450e9, 1);
  // 64 MiB over 4 of them, ring/Simple: 6 steps × 3.59 µs + the 57.6 µs ramp + 1.5 × S at
  // 72.2 % of 192 GB/s = 805.3 µs; RCCL 2.20.5 measured 761.2 µs (QuickReduce's README).
  const CollectiveRequest request{
      Collective::all_reduce, Algorithm::automatic, 4, Bytes::of(67108864), {}};
  const double simple = 6 * 3.59e-6 + 57.6e-6 + 1.5 * 67108864 / (192e9 * 0.722);
  EXPECT_NEAR(expected_collective(mesh, request).time.value(), simple, 1e-9);
  EXPECT_NEAR(simple, 805.3e-6, 0.1e-6);
}

TEST(ExpectedLines, AFullMeshNeedsOneLinkToEachPeer) {
  const std::string error = test::catalog_error(Catalog::shipped(), R"({"links": [{"id": "m",
    "name": "M", "connects": "GPU <-> GPU, same node", "tier": "scale-up", "gpu_fabric": "xgmi",
    "headline_GBps": 896, "headline_convention": "both-directions-summed",
    "per_direction_GBps": 448, "max_domain_gpus": 8, "links_per_gpu": 6, "full_mesh": true,
    "latency_us": 1, "source": "s"}]})");
  EXPECT_NE(error.find("/links/0/full_mesh"), std::string::npos) << error;
  EXPECT_NE(error.find("max_domain_gpus - 1"), std::string::npos) << error;
}

} // namespace
} // namespace icx::unit_expected_lines
