// The expected load (icx/host/weight_loading.hpp): hand-worked figures on inline entries.
#include "icx/host/weight_loading.hpp"

#include <gtest/gtest.h>

namespace icx::unit_model_load {
namespace {

Link host_link(double measured_gbps) {
  Link link;
  link.id = "pcie";
  link.tier = Tier::host;
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(64));
  link.headline_convention = Convention::each_way;
  link.measured_host_to_device = gigabytes_per_second(measured_gbps);
  return link;
}

Loader loader(double warm_rank, double warm_node, double cold_rank, double cold_node,
              double overhead) {
  Loader l;
  l.id = "l";
  l.warm = {gigabytes_per_second(warm_rank), gigabytes_per_second(warm_node)};
  l.cold = {gigabytes_per_second(cold_rank), gigabytes_per_second(cold_node)};
  l.overhead = Seconds::of(overhead);
  return l;
}

StorageTier tier(double gbps, StorageScope scope, bool cached) {
  StorageTier t;
  t.id = "t";
  t.read_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(gbps));
  t.scope = scope;
  t.cached = cached;
  return t;
}

const Link pcie = host_link(50);

TEST(ModelLoad, WarmReadIsBoundByTheNodeRate) {
  // 40 GB on 4 GPUs from host memory: 4 ranks × 2 GB/s = 8 GB/s, above the node's 5 GB/s, so
  // 40 GB / 5 GB/s = 8 s; each GPU copies 10 GB at 50 GB/s = 0.2 s; 1 s + max(8, 0.2) = 9 s.
  const ExpectedLoad load =
      expected_load({Bytes::of(40e9), 4, 4, &pcie, nullptr}, loader(2, 5, 1, 3, 1));
  EXPECT_TRUE(load.warm);
  EXPECT_EQ(load.ranks, 4);
  EXPECT_DOUBLE_EQ(load.read_rate.value(), 5e9);
  EXPECT_EQ(load.read_limit, LoadLimit::node);
  EXPECT_DOUBLE_EQ(load.read.value(), 8.0);
  EXPECT_DOUBLE_EQ(load.copy.value(), 0.2);
  EXPECT_DOUBLE_EQ(load.total.value(), 9.0);
  EXPECT_EQ(load.limit, LoadLimit::node);
}

TEST(ModelLoad, OneRankIsBoundByItsOwnRate) {
  // 10 GB on one GPU: 1 × 2 GB/s below the node's 5: 5 s + 1 s.
  const ExpectedLoad load =
      expected_load({Bytes::of(10e9), 1, 1, &pcie, nullptr}, loader(2, 5, 1, 3, 1));
  EXPECT_EQ(load.read_limit, LoadLimit::rank);
  EXPECT_DOUBLE_EQ(load.total.value(), 6.0);
}

TEST(ModelLoad, ACachedTierIsWarmAndCapsTheRead) {
  // Host memory at 6 GB/s under a loader that could read 4 × 2 = 8 (node 10): 40 / 6 s.
  const StorageTier dram = tier(6, StorageScope::per_node, true);
  const ExpectedLoad load =
      expected_load({Bytes::of(40e9), 4, 4, &pcie, &dram}, loader(2, 10, 1, 3, 1));
  EXPECT_TRUE(load.warm);
  EXPECT_EQ(load.read_limit, LoadLimit::storage);
  EXPECT_DOUBLE_EQ(load.read.value(), 40.0 / 6.0);
}

TEST(ModelLoad, ColdReadsUseTheColdRatesAndTheTier) {
  // From a 7 GB/s drive: cold 4 × 1 = 4 GB/s, node 3 GB/s: 40 GB / 3 GB/s.
  const StorageTier drive = tier(7, StorageScope::per_node, false);
  const ExpectedLoad cold =
      expected_load({Bytes::of(40e9), 4, 4, &pcie, &drive}, loader(2, 5, 1, 3, 1));
  EXPECT_FALSE(cold.warm);
  EXPECT_EQ(cold.read_limit, LoadLimit::node);
  EXPECT_DOUBLE_EQ(cold.read.value(), 40.0 / 3.0);
  // A 2 GB/s drive bounds it: 40 / 2 = 20 s, plus 1 s.
  const StorageTier slow = tier(2, StorageScope::per_node, false);
  const ExpectedLoad bound =
      expected_load({Bytes::of(40e9), 4, 4, &pcie, &slow}, loader(2, 5, 1, 3, 1));
  EXPECT_EQ(bound.limit, LoadLimit::storage);
  EXPECT_DOUBLE_EQ(bound.total.value(), 21.0);
}

TEST(ModelLoad, ASharedTierIsSplitBetweenTheNodes) {
  // 8 GPUs, 4 per node, one 6 GB/s server: 3 GB/s per node for the node's 20 GB: 20 / 3 s.
  const StorageTier nfs = tier(6, StorageScope::shared, false);
  const ExpectedLoad load =
      expected_load({Bytes::of(40e9), 8, 4, &pcie, &nfs}, loader(2, 50, 2, 50, 1));
  EXPECT_DOUBLE_EQ(load.node_bytes.value(), 20e9);
  EXPECT_DOUBLE_EQ(load.read_rate.value(), 3e9);
  EXPECT_EQ(load.read_limit, LoadLimit::storage);
}

TEST(ModelLoad, GpusBehindOneUplinkShareTheHostCopy) {
  // A fast loader (100 GB/s a rank, 1000 a node): 40 GB / 400 GB/s = 0.1 s to read; each GPU's
  // 10 GB crosses an uplink two GPUs share, 50 / 2 = 25 GB/s: 0.4 s, the limit.
  ColdStartInput path{Bytes::of(40e9), 4, 4, &pcie, nullptr};
  path.gpus_per_uplink = 2;
  const ExpectedLoad load = expected_load(path, loader(100, 1000, 100, 1000, 0.5));
  EXPECT_DOUBLE_EQ(load.copy_rate.value(), 25e9);
  EXPECT_DOUBLE_EQ(load.copy.value(), 0.4);
  EXPECT_EQ(load.limit, LoadLimit::host_copy);
  EXPECT_DOUBLE_EQ(load.total.value(), 0.9);
}

TEST(ModelLoad, NodeTiersFromAHostSide) {
  HostSide host;
  host.dram_bandwidth = gigabytes_per_second(563.2);
  host.nvme_drives = 8;
  const StorageTier nvme = node_nvme(host, tier(7, StorageScope::per_node, false));
  EXPECT_DOUBLE_EQ(nvme.read_bandwidth.high.value(), 56e9); // 8 × 7 GB/s striped
  EXPECT_FALSE(nvme.cached);
  const StorageTier dram = node_page_cache(host, tier(307.2, StorageScope::per_node, true));
  EXPECT_DOUBLE_EQ(dram.read_bandwidth.high.value(), 563.2e9);
  EXPECT_TRUE(dram.cached);
}

} // namespace
} // namespace icx::unit_model_load
