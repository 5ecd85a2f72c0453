// The expected model across nodes (icx/wire/fabric.hpp), worked by hand on links built here: an
// NVSwitch link of 450 GB/s each way (ring 0.8 at 2 µs per step, NVLS 0.6 with 30 µs, ramp
// 100 µs, LL slowdown 1) and a NIC of 50 GB/s at 0.9 with 5 µs per step.
#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/wire/fabric.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_fabric {
namespace {

struct Parts {
  Link up = test::nvswitch_link();
  Link nic = test::nic_link();
  [[nodiscard]] Fabric fabric(int gpus_per_node, int nics) const {
    return {&up, gpus_per_node, &nic, nics};
  }
};

CollectiveRequest request(Collective op, int gpus, double bytes,
                          Algorithm algorithm = Algorithm::automatic) {
  return {op, algorithm, gpus, Bytes::of(bytes), {}};
}

TEST(Fabric, TwoNodesRunNvlsTreeBoundByTheSwitch) {
  const Parts p;
  // Node NICs 8 × 50 × 0.9 = 360 GB/s. NVLS-tree: inside, 8e9 · (30/16)/(14/8) = 8.571e9 B at
  // 450 · 0.6 = 270 GB/s = 31.746 ms; between two nodes S once over 360 GB/s = 22.2 ms;
  // latency 30 + 2·5·1 + 100 µs. Ring: 15e9 B at 360 GB/s = 41.667 ms + 166 µs; tree: 2S on
  // the chain at 360 GB/s = 44.4 ms.
  const CollectiveCost cost =
      fabric_collective(p.fabric(8, 8), request(Collective::all_reduce, 16, 8e9));
  EXPECT_EQ(cost.kernel, Kernel::nvls_tree_simple);
  EXPECT_NEAR(cost.time.value(), 8e9 * (30.0 / 16) / (14.0 / 8) / 270e9 + 140e-6, 1e-9);
  EXPECT_NEAR(cost.busbw.value() / 1e9, 470.4, 0.1);
}

TEST(Fabric, FourNodesRunTheRingAtTheNodesNicRate) {
  const Parts p;
  // Ring: 62/32 · 8e9 = 15.5e9 B at 360 GB/s = 43.056 ms; 62 steps, 6 of them between
  // nodes: 56·2 + 6·5 + 100 (ramp) = 242 µs. NVLS-tree: the NICs carry 2S = 44.4 ms.
  const CollectiveCost cost =
      fabric_collective(p.fabric(8, 8), request(Collective::all_reduce, 32, 8e9));
  EXPECT_EQ(cost.kernel, Kernel::ring_simple);
  EXPECT_NEAR(cost.time.value(), 15.5e9 / 360e9 + 242e-6, 1e-9);
}

TEST(Fabric, ManyNodesKeepTheBandwidthAndALogarithmicTreeLatency) {
  const Parts p;
  // 32 nodes: tree 2S through the NICs (44.444 ms) and 2S on the chain (44.444 ms), latency
  // 2·(7·2 + 5·5) + 100 = 178 µs; the ring pays 448·2 + 62·5 + 100 = 1306 µs.
  const CollectiveCost big =
      fabric_collective(p.fabric(8, 8), request(Collective::all_reduce, 256, 8e9));
  EXPECT_EQ(big.kernel, Kernel::tree_simple);
  EXPECT_NEAR(big.time.value(), 16e9 / 360e9 + 178e-6, 1e-9);
  const CollectiveCost two =
      fabric_collective(p.fabric(8, 8), request(Collective::all_reduce, 16, 8e9));
  EXPECT_GT(big.busbw.value(), two.busbw.value() / 2);
}

TEST(Fabric, OneGpuPerNodeIsTheFlatRingOnTheNic) {
  const Parts p;
  // 1e9 B at 45 GB/s = 22.222 ms; 2 steps of 5 µs + 100 µs ramp.
  const CollectiveCost cost =
      fabric_collective(p.fabric(1, 1), request(Collective::all_reduce, 2, 1e9));
  EXPECT_NEAR(cost.time.value(), 1e9 / 45e9 + 110e-6, 1e-9);
  EXPECT_EQ(cost.kernel, Kernel::ring_simple);
  EXPECT_NEAR(cost.time.value(),
              expected_collective(p.nic, request(Collective::all_reduce, 2, 1e9)).time.value(),
              1e-12);
}

TEST(Fabric, AllToAllIsBoundByTheNodesNics) {
  const Parts p;
  // 16 GPUs on 2 nodes: a node's 8 GPUs send 8/16 of S each off the node: 8·0.5·1.6e9 =
  // 6.4e9 B at 360 GB/s = 17.778 ms; 7 steps inside (2 µs), 8 across (5 µs), 100 µs ramp.
  const CollectiveCost cost =
      fabric_collective(p.fabric(8, 8), request(Collective::all_to_all, 16, 1.6e9));
  EXPECT_NEAR(cost.time.value(), 6.4e9 / 360e9 + 154e-6, 1e-9);
}

TEST(Fabric, PointToPointUsesOneRail) {
  const Parts p;
  const CollectiveCost cost =
      fabric_collective(p.fabric(8, 8), request(Collective::point_to_point, 16, 1e9));
  EXPECT_NEAR(cost.time.value(), 1e9 / 45e9 + 105e-6, 1e-9);
}

TEST(Fabric, InsideOneNodeItIsTheScaleUpLink) {
  const Parts p;
  const CollectiveRequest r = request(Collective::all_reduce, 8, 1e9);
  EXPECT_EQ(fabric_collective(p.fabric(8, 8), r).time, expected_collective(p.up, r).time);
}

TEST(Fabric, RejectsWhatCannotRun) {
  const Parts p;
  EXPECT_THROW((void)fabric_collective(p.fabric(8, 8), request(Collective::all_reduce, 12, 1e6)),
               InputError);
  EXPECT_FALSE(check_fabric(p.fabric(8, 8), Collective::all_reduce, Algorithm::nvls, 16));
  EXPECT_FALSE(check_fabric(p.fabric(8, 8), Collective::all_gather, Algorithm::tree, 16));
  EXPECT_FALSE(check_fabric(p.fabric(8, 8), Collective::all_reduce, Algorithm::tree, 8));
  const Link plain = test::nvswitch_link(true, false);
  const Fabric no_nvls{&plain, 8, &p.nic, 8};
  EXPECT_FALSE(check_fabric(no_nvls, Collective::all_reduce, Algorithm::nvls_tree, 16));
  EXPECT_TRUE(check_fabric(no_nvls, Collective::all_reduce, Algorithm::tree, 16));
  EXPECT_THROW((void)fabric_nodes(p.fabric(0, 8), 16), InputError);
  // One GPU per node: nothing to reduce inside a node, and no scale-up link is needed.
  const Fabric flat{nullptr, 1, &p.nic, 1};
  EXPECT_FALSE(check_fabric(flat, Collective::all_reduce, Algorithm::nvls_tree, 2));
  EXPECT_TRUE(check_fabric(flat, Collective::all_reduce, Algorithm::tree, 2));
}

TEST(Fabric, HeadlineIsTheExpectedAlgorithmsOverEveryNicWithNothingLost) {
  const Parts p;
  // 4 NICs of 50 GB/s for 8 GPUs: 200 GB/s a node, each way. Two nodes, S = 1e9, at full
  // bandwidth and no latency: ring 2·15/16·S = 1.875e9 B over 200 GB/s = 9.375 ms (4.17 ms on
  // the 450 GB/s switch); tree 2S = 10 ms; NVLS-tree S once between the nodes = 5 ms, inside
  // 1e9 · (30/16)/(14/8) B at 450 GB/s = 2.38 ms: 5 ms, the fastest.
  const CollectiveCost two =
      fabric_headline(p.fabric(8, 4), request(Collective::all_reduce, 16, 1e9));
  EXPECT_NEAR(two.time.value(), 1e9 / 200e9, 1e-12);
  // Four nodes of 8 NICs (400 GB/s): the ring's 2·31/32 · 8e9 = 15.5e9 B = 38.75 ms beats the
  // trees' 2S = 40 ms; the expected time is 43.056 ms + 242 µs (above).
  const CollectiveCost four =
      fabric_headline(p.fabric(8, 8), request(Collective::all_reduce, 32, 8e9));
  EXPECT_NEAR(four.time.value(), 15.5e9 / 400e9, 1e-12);
  // A send between two nodes goes over one NIC: 1e9 B at 50 GB/s.
  const CollectiveCost send =
      fabric_headline(p.fabric(1, 1), request(Collective::point_to_point, 2, 1e9));
  EXPECT_NEAR(send.time.value(), 1e9 / 50e9, 1e-12);
}

} // namespace
} // namespace icx::unit_fabric
