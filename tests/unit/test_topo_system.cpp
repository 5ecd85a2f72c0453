// The catalog system and the report icx topo makes of a node's matrix (icx/topo/system.hpp,
// icx/reports/topo.hpp), on the published outputs of ../shared/topo. Expected figures come
// from the vendors' datasheets and the matrices themselves, not from icx's output.
#include "icx/topo/system.hpp"

#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/reports/topo.hpp"
#include "icx/serving/placement.hpp"
#include "topo_fixtures.hpp"

namespace icx::unit_topo_system {
namespace {

using test::fixture;

NodeTopology node_of(const std::string& name) {
  return describe_topology(parse_topo(fixture(name)));
}

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

TopoSystemRequest request_for(const std::string& id, const std::string& gpu) {
  TopoSystemRequest request;
  request.id = id;
  request.file = "topo.txt";
  request.gpu = &shipped().gpu(gpu);
  request.scale_out = &shipped().link("roce");
  return request;
}

TEST(TopoSystem, ADgxH100MatrixMakesTheCatalogsDgxH100) {
  SKIP_WITHOUT_FIXTURES();
  const System& dgx = shipped().system("dgx-h100");
  TopoSystemRequest request = request_for("mine", "h100-sxm");
  request.base = &dgx;
  request.scale_out = &shipped().link(dgx.scale_out_link);
  const TopoSystem made = topo_system(shipped(), node_of("hgx-h100-13nic-ib-eth.txt"), request);
  // Every pair NV18 through NVSwitch: one 8-GPU NVLink 4 domain; 8 IB NICs within PXB of a
  // GPU (the 5 Ethernet NICs are NODE or SYS away), one PIX NIC per GPU.
  EXPECT_EQ(made.system.gpus_per_node, dgx.gpus_per_node);
  EXPECT_EQ(made.system.scale_up_domain, dgx.scale_up_domain);
  EXPECT_EQ(made.system.scale_up_link, dgx.scale_up_link);
  EXPECT_EQ(made.system.nics_per_node, 8);
  EXPECT_EQ(made.system.nics_per_node, dgx.nics_per_node);
  EXPECT_TRUE(made.links.empty()) << "no GPU pair talks over PCIe";
  EXPECT_TRUE(made.system.between_domains_link.empty());
}

TEST(TopoSystem, NvSwitchPairsGetTheGpusWholeBudget) {
  SKIP_WITHOUT_FIXTURES();
  // H100 SXM: 18 NVLinks, 900 GB/s both ways = 450 GB/s each way (H100 datasheet).
  TopoReportRequest request;
  request.gpu = &shipped().gpu("h100-sxm");
  request.size = Bytes::of(1 << 20);
  const TopoReport report = topo_report(shipped(), node_of("aws-p5-48xlarge-8xH100.txt"), request);
  ASSERT_EQ(report.pair_bandwidth.size(), 28U);
  EXPECT_DOUBLE_EQ(report.pair_bandwidth.front()->value(), 450e9);
}

TEST(TopoSystem, DirectMeshPairsGetTheirOwnLinks) {
  SKIP_WITHOUT_FIXTURES();
  // Perlmutter: NV4 between each pair of 4 A100s; an A100 has 12 NVLinks for 600 GB/s both
  // ways, so 4 links are 4/12 × 300 GB/s = 100 GB/s each way (A100 whitepaper).
  TopoReportRequest request;
  request.gpu = &shipped().gpu("a100-sxm-40gb");
  const TopoReport report = topo_report(shipped(), node_of("perlmutter-4xa100-nv4.txt"), request);
  EXPECT_NEAR(report.pair_bandwidth.front()->value(), 100e9, 1e3);
  // MI300X: 7 Infinity Fabric links for 896 GB/s both ways, one per peer: 64 GB/s each way.
  request.gpu = &shipped().gpu("mi300x");
  const TopoReport amd = topo_report(shipped(), node_of("mi308x-8gpu-rocm-smi.txt"), request);
  EXPECT_NEAR(amd.pair_bandwidth.front()->value(), 64e9, 1e3);
}

TEST(TopoSystem, AcrossSocketsTheWholeNodeIsSlowerThanOneSocket) {
  SKIP_WITHOUT_FIXTURES();
  // Savio4: 8 A5000s on PCIe 4.0, PIX or PXB inside each socket, SYS across.
  const NodeTopology node = node_of("8x-rtxa5000-pcie-savio4.txt");
  EXPECT_EQ(node.worst_pcie_path, PathKind::sys);
  EXPECT_EQ(node.scale_up_domains.size(), 8U);
  EXPECT_EQ(largest_group_within(node, PathKind::node), 4);
  TopoReportRequest request;
  request.pcie = &shipped().link("pcie4");
  request.size = Bytes::of(64 << 20);
  const TopoReport report = topo_report(shipped(), node, request);
  ASSERT_TRUE(report.crossing && report.crossing->within);
  EXPECT_EQ(report.crossing->whole.topology, "dual-socket");
  EXPECT_EQ(report.crossing->within->topology, "switch");
  EXPECT_EQ(report.crossing->within->gpus, 4);
  EXPECT_GT(report.crossing->whole.seconds.value(), report.crossing->within->seconds.value());
  // A ring all-reduce of S over n GPUs moves 2(n−1)/n·S per GPU at the catalog's dual-socket
  // 0.445 of 31.5 GB/s: 64 MiB × 1.75 / 14.02 GB/s = 8.38 ms, plus microseconds of latency.
  const double bandwidth_time = (64 << 20) * 1.75 / (0.445 * 31.5e9);
  EXPECT_NEAR(report.crossing->whole.seconds.value(), bandwidth_time, 0.02 * bandwidth_time);
}

TEST(TopoSystem, APcieNodeTakesItsTopologiesFromTheMatrix) {
  SKIP_WITHOUT_FIXTURES();
  TopoSystemRequest request = request_for("savio", "l40s");
  request.pcie = &shipped().link("pcie4");
  const TopoSystem made = topo_system(shipped(), node_of("8x-rtxa5000-pcie-savio4.txt"), request);
  ASSERT_EQ(made.links.size(), 1U);
  const Link& pcie = made.links.front();
  EXPECT_EQ(made.system.scale_up_link, pcie.id);
  EXPECT_EQ(made.system.scale_up_domain, 8);
  for (const LinkTopology& topology : pcie.topologies) {
    if (topology.id == "switch") {
      EXPECT_EQ(topology.default_up_to_gpus, 4) << "groups of 2 and 4 stay under PCIe switches";
    } else if (topology.id == "host") {
      EXPECT_FALSE(topology.default_up_to_gpus) << "no pair is PHB or NODE";
    } else {
      EXPECT_GE(topology.default_up_to_gpus.value_or(0), 8) << "8 GPUs cross the sockets";
    }
  }
  // Two NICs, both NODE from GPU0-3: none within PXB, so both are counted.
  EXPECT_EQ(made.system.nics_per_node, 2);
}

TEST(TopoSystem, BridgedPairsAreDomainsJoinedByPcie) {
  SKIP_WITHOUT_FIXTURES();
  TopoSystemRequest request = request_for("a30-node", "a30");
  request.pcie = &shipped().link("pcie4");
  const TopoSystem made =
      topo_system(shipped(), node_of("4xa30-nv4-bridge-pairs-1nic.txt"), request);
  EXPECT_EQ(made.system.scale_up_domain, 2);
  EXPECT_EQ(made.system.gpus_per_node, 4);
  EXPECT_EQ(made.system.scale_up_link, "nvlink3-bridge");
  EXPECT_EQ(made.system.between_domains_link, "a30-node-pcie");

  Catalog catalog = shipped();
  Json doc = topo_overlay(made);
  catalog.overlay_text(doc.dump(), "a30.json");
  const System& node = catalog.system("a30-node");
  Cluster cluster{&catalog.gpu("a30"),
                  4,
                  4,
                  2,
                  &catalog.link("nvlink3-bridge"),
                  &catalog.link("roce"),
                  1,
                  &catalog.link(node.between_domains_link)};
  ServingRequest serving;
  serving.tokens = 4096;
  const Workload workload = workload_for(catalog, catalog.model("8b"), catalog.dtype("bf16"),
                                         catalog.gpu("a30"), serving);
  // TP 2 sits on a bridged pair; TP 4 crosses the sockets over PCIe, not the NIC.
  const Placement pair = evaluate_layout(cluster, workload, {2, 1, 1, 2});
  EXPECT_EQ(pair.strategies.front().wire->id, "nvlink3-bridge");
  EXPECT_FALSE(pair.strategies.front().crosses_domain);
  const Placement four = evaluate_layout(cluster, workload, {4, 1, 1, 1});
  EXPECT_EQ(four.strategies.front().wire->id, "a30-node-pcie");
}

TEST(TopoSystem, AGb200TrayTakesTheRacksDomain) {
  SKIP_WITHOUT_FIXTURES();
  TopoSystemRequest request = request_for("tray", "gb200");
  request.base = &shipped().system("gb200-nvl72");
  const TopoSystem made = topo_system(shipped(), node_of("gb200-4gpu-8nic-grace.txt"), request);
  EXPECT_EQ(made.system.scale_up_domain, 72);
  EXPECT_EQ(made.system.gpus_per_node, 72);
  EXPECT_EQ(made.system.nics_per_node, request.base->nics_per_node)
      << "every NIC is SYS from the GPUs: the rack's count";
}

TEST(TopoSystem, WhatTheMatrixCannotSayIsAnError) {
  SKIP_WITHOUT_FIXTURES();
  TopoSystemRequest request = request_for("x", "h100-sxm");
  request.gpu = nullptr;
  EXPECT_THROW(topo_system(shipped(), node_of("aws-p5-48xlarge-8xH100.txt"), request), InputError);
  request = request_for("x", "l40s");
  EXPECT_THROW(topo_system(shipped(), node_of("aws-g6e-12xlarge-4xL40S.txt"), request), InputError)
      << "PCIe pairs need a PCIe link";
  request = request_for("x", "l40s");
  EXPECT_THROW(topo_system(shipped(), node_of("aws-p5-48xlarge-8xH100.txt"), request), InputError)
      << "an NVLink matrix for a GPU without NVLink";
}

} // namespace
} // namespace icx::unit_topo_system
