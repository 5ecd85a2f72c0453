// Pins the shipped catalog's headline figures to the seed chapter's table and the vendors'
// datasheets, so a data edit that changes them is caught.
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/hf_config.hpp"
#include "icx/host/host_link.hpp"
#include "icx/wire/collectives.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace icx::unit_shipped_catalog {
namespace {

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

double headline_gbps(const char* id) {
  return shipped().link(id).headline_bandwidth.high.value() / 1e9;
}
double each_way_gbps(const char* id) {
  return shipped().link(id).per_direction_bandwidth.high.value() / 1e9;
}

TEST(ShippedCatalog, SeedTableHeadlineBandwidths) {
  EXPECT_EQ(headline_gbps("nvlink5"), 1800);
  EXPECT_EQ(headline_gbps("nvlink4"), 900);
  EXPECT_EQ(headline_gbps("nvlink3"), 600);
  EXPECT_EQ(headline_gbps("pcie5"), 64);
  EXPECT_EQ(headline_gbps("ib-ndr"), 50);
  EXPECT_EQ(shipped().link("roce").headline_bandwidth.low.value(), 25e9);
  EXPECT_EQ(headline_gbps("roce"), 50);
  EXPECT_EQ(headline_gbps("nvlink-c2c"), 900);
}

TEST(ShippedCatalog, NvlinkCountsBothDirectionsPcieAndNetworksOne) {
  EXPECT_EQ(shipped().link("nvlink4").headline_convention, Convention::both_directions_summed);
  EXPECT_EQ(each_way_gbps("nvlink4"), 450);
  EXPECT_EQ(each_way_gbps("nvlink5"), 900);
  EXPECT_EQ(shipped().link("pcie5").headline_convention, Convention::each_way);
  EXPECT_EQ(shipped().link("ib-ndr").headline_convention, Convention::each_way);
  EXPECT_EQ(each_way_gbps("ib-ndr"), 50); // 400 Gb/s / 8
}

TEST(ShippedCatalog, TiersAndLatencyRanges) {
  EXPECT_EQ(shipped().link("nvlink5").tier, Tier::scale_up);
  EXPECT_EQ(shipped().link("pcie5").tier, Tier::host);
  EXPECT_EQ(shipped().link("nvlink-c2c").tier, Tier::host);
  EXPECT_EQ(shipped().link("ib-ndr").tier, Tier::scale_out);
  EXPECT_EQ(shipped().link("ib-ndr").latency.low.value(), 1e-6);
  EXPECT_EQ(shipped().link("ib-ndr").latency.high.value(), 2e-6);
}

TEST(ShippedCatalog, AliasesUsersType) {
  EXPECT_EQ(shipped().link("NDR").id, "ib-ndr");
  EXPECT_EQ(shipped().link("infiniband").id, "ib-ndr");
  EXPECT_EQ(shipped().link("pcie-5").id, "pcie5");
  EXPECT_EQ(shipped().link("nvl4").id, "nvlink4");
  EXPECT_EQ(shipped().model("70b").id, "llama-3.1-70b");
}

TEST(ShippedCatalog, SeedModelAndGpus) {
  const Model& m = shipped().model("70b");
  EXPECT_EQ(m.hidden, 8192);
  EXPECT_EQ(m.layers, 80);
  EXPECT_EQ(m.default_dtype, "bf16");
  EXPECT_EQ(shipped().gpu("h100").hbm_bandwidth.value(), 3350e9); // seed: 3.35 TB/s
  EXPECT_EQ(shipped().gpu("gb200").scale_up_domain, 72);          // NVL72
  EXPECT_EQ(shipped().dtype("fp4").bytes_per_element, 0.5);
}

TEST(ShippedCatalog, HasTheRequiredEntries) {
  for (const char* id :
       {"nvlink5", "nvlink4", "nvlink3", "pcie5", "pcie4", "ib-ndr", "roce", "nvlink-c2c"}) {
    EXPECT_NO_THROW((void)shipped().link(id)) << id;
  }
  for (const char* id : {"a100-sxm", "h100-sxm", "h200", "b200", "gb200", "mi300x", "mi325x",
                         "mi355x", "b300", "gb300", "h200-nvl", "l4"}) {
    EXPECT_NO_THROW((void)shipped().gpu(id)) << id;
  }
  for (const char* id : {"8b", "70b", "405b", "mixtral-8x7b", "deepseek-v3"}) {
    EXPECT_NO_THROW((void)shipped().model(id)) << id;
  }
  EXPECT_TRUE(shipped().model("mixtral-8x7b").is_moe());
  EXPECT_TRUE(shipped().model("deepseek-v3").is_moe());
}

TEST(ShippedCatalog, GpusOf2025FromTheirDatasheets) {
  const auto peak_tflops = [](const char* gpu, const char* dtype) {
    return shipped().gpu(gpu).dense_peak.at(dtype).value() / 1e12;
  };
  // AMD prints dense figures: MI325X keeps the MI300X's CDNA 3 compute with 256 GB at 6 TB/s;
  // MI355X 288 GB at 8 TB/s and 10.07 PFLOPS of MXFP4.
  EXPECT_EQ(shipped().gpu("mi325x").hbm_capacity.value(), 256e9);
  EXPECT_EQ(shipped().gpu("mi325x").hbm_bandwidth.value(), 6000e9);
  EXPECT_DOUBLE_EQ(peak_tflops("mi325x", "bf16"), peak_tflops("mi300x", "bf16"));
  EXPECT_EQ(shipped().gpu("mi355x").hbm_capacity.value(), 288e9);
  EXPECT_DOUBLE_EQ(peak_tflops("mi355x", "fp4"), 10066.3);
  // Its Infinity Fabric: 7 links of 153.6 GB/s both ways, 8 GPUs fully connected.
  EXPECT_DOUBLE_EQ(headline_gbps("infinity-fabric-mi355x"), 7 * 153.6);
  EXPECT_DOUBLE_EQ(each_way_gbps("infinity-fabric-mi355x"), 7 * 153.6 / 2);
  // NVIDIA prints sparse figures, dense half, except Blackwell Ultra's NVFP4, printed dense:
  // 14 PFLOPS on HGX B300 (18 sparse), 15 on GB300 (20 sparse).
  EXPECT_DOUBLE_EQ(peak_tflops("b300", "bf16"), 4500.0 / 2);
  EXPECT_DOUBLE_EQ(peak_tflops("b300", "fp4"), 14000);
  EXPECT_DOUBLE_EQ(peak_tflops("gb300", "fp4"), 15000);
  EXPECT_EQ(shipped().gpu("gb300").scale_up_domain, 72);
  EXPECT_EQ(shipped().gpu("b300").scale_up_domain, 8);
  // H200 NVL: the H200's 141 GB and 4.8 TB/s at 1,671 sparse BF16 TFLOPS, bridged by 2 or 4.
  EXPECT_DOUBLE_EQ(peak_tflops("h200-nvl", "bf16"), 1671.0 / 2);
  EXPECT_EQ(shipped().gpu("h200-nvl").scale_up_domain, 4);
  EXPECT_DOUBLE_EQ(headline_gbps("nvlink4-bridge-4way"), 900);
  EXPECT_EQ(shipped().link("nvlink4-bridge-4way").max_domain_gpus, 4);
  // L4: 24 GB at 300 GB/s, 242 sparse BF16 TFLOPS.
  EXPECT_EQ(shipped().gpu("l4").hbm_capacity.value(), 24e9);
  EXPECT_DOUBLE_EQ(peak_tflops("l4", "bf16"), 242.0 / 2);
}

/// The cells of one CSV line (the validation files quote nothing).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ',')) {
    cells.push_back(cell);
  }
  return cells;
}

TEST(ShippedCatalog, MeasuredHostToDeviceMatchesThePublishedMeasurements) {
  // data/measurements/host_link.csv: nvbandwidth host-to-device results, one row per host link.
  std::ifstream csv(std::string(ICX_MEASUREMENTS_DIR) + "/host_link.csv");
  ASSERT_TRUE(csv) << "cannot open host_link.csv";
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "hardware,link,direction,size_bytes,bandwidth_GBps,tool,source");
  int rows = 0;
  while (std::getline(csv, line)) {
    const std::vector<std::string> cells = csv_cells(line);
    ASSERT_EQ(cells.size(), 7U) << line;
    const Link& link = shipped().link(cells[1]);
    ASSERT_TRUE(link.measured_host_to_device.has_value()) << cells[1];
    EXPECT_DOUBLE_EQ(link.measured_host_to_device->value(), std::stod(cells[4]) * 1e9) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 3); // pcie4, pcie5, nvlink-c2c
}

TEST(ShippedCatalog, StorageTiersFromTheDatasheets) {
  EXPECT_EQ(shipped().storage("nvme-gen4").read_bandwidth.high.value(), 7e9);      // Micron 9400
  EXPECT_EQ(shipped().storage("nvme-gen5").read_bandwidth.high.value(), 14e9);     // KIOXIA CM7-R
  EXPECT_EQ(shipped().storage("nvme-raid0").read_bandwidth.high.value(), 28e9);    // 4 × 7 GB/s
  EXPECT_EQ(shipped().storage("page-cache").read_bandwidth.high.value(), 307.2e9); // 8 × 38.4
  EXPECT_EQ(shipped().storage("nfs").scope, StorageScope::shared);
  EXPECT_EQ(shipped().storage("s3").scope, StorageScope::per_node);
}

TEST(ShippedCatalog, DomainBoundsOfTheLinks) {
  // NVLink Switch: 576 Blackwell GPUs, 256 Hopper; HGX A100: 16; MI300X: 8 fully connected.
  EXPECT_EQ(shipped().link("nvlink5").max_domain_gpus, 576);
  EXPECT_EQ(shipped().link("nvlink4").max_domain_gpus, 256);
  EXPECT_EQ(shipped().link("nvlink3").max_domain_gpus, 16);
  EXPECT_EQ(shipped().link("infinity-fabric").max_domain_gpus, 8);
  EXPECT_FALSE(shipped().link("ib-ndr").max_domain_gpus.has_value());
}

TEST(ShippedCatalog, DeepSeekV3LatentKvCache) {
  // 61 layers × (512 + 64) values × 2 B (BF16) = 70,272 B per token.
  const Model& model = shipped().model("deepseek-v3");
  EXPECT_EQ(kv_cache_bytes(kv_shape(model, 2), 1, 1).value(), 70272.0);
}

TEST(ShippedCatalog, DeepSeekV3GroupLimitedRouting) {
  // deepseek-ai/DeepSeek-V3 config.json: n_group 8, topk_group 4 (256 experts: groups of 32).
  const Model& model = shipped().model("deepseek-v3");
  EXPECT_EQ(model.expert_groups, 8);
  EXPECT_EQ(model.expert_groups_per_token, 4);
  // The shipped figures match what the Hugging Face config reads as.
  const Model config = read_hf_config_file(std::string(ICX_TEST_DATA_DIR) + "/hf/deepseek-v3.json");
  EXPECT_EQ(model.expert_groups, config.expert_groups);
  EXPECT_EQ(model.expert_groups_per_token, config.expert_groups_per_token);
}

TEST(ShippedCatalog, ExpectedModelsShareTheProtocolTerms) {
  // The Simple protocol's ramp and LL's slowdown are fitted once, jointly, for every link but
  // GCP's TCPXO NIC, whose two-node log shows its own two regimes (icx calibrate fitted all four
  // terms from it; see its source).
  const ExpectedModel& reference = *shipped().link("nvlink4").expected;
  for (const Link& link : shipped().links()) {
    if (link.expected && link.id != "gcp-tcpxo") {
      EXPECT_EQ(link.expected->ramp, reference.ramp) << link.id;
      EXPECT_EQ(link.expected->small_message_slowdown, reference.small_message_slowdown) << link.id;
    }
  }
  // NVLink 4 carries the engines' three all-reduce kernels, each with its source.
  ASSERT_TRUE(reference.engine_all_reduce);
  EXPECT_TRUE(reference.engine_all_reduce->one_shot);
  EXPECT_TRUE(reference.engine_all_reduce->two_shot);
  EXPECT_TRUE(reference.engine_all_reduce->multimem);
  EXPECT_FALSE(reference.engine_all_reduce->source.empty());
}

TEST(ShippedCatalog, PcieTopologiesCoverEveryGroup) {
  // Every group size the link's domain holds has a default topology, and a small group's
  // default is never slower per byte than a larger one's.
  for (const char* id : {"pcie4", "pcie5"}) {
    const Link& link = shipped().link(id);
    ASSERT_FALSE(link.topologies.empty()) << id;
    const LinkTopology* pair = link_topology(link, "", 2);
    const LinkTopology* whole = link_topology(link, "", *link.max_domain_gpus);
    ASSERT_NE(pair, nullptr) << id;
    ASSERT_NE(whole, nullptr) << id;
    EXPECT_GE(pair->efficiency, whole->efficiency) << id;
    EXPECT_EQ(link_topology(link, "", 8)->id, "dual-socket") << id;
    for (const LinkTopology& topology : link.topologies) {
      EXPECT_FALSE(topology.source.empty()) << id << " " << topology.id;
    }
  }
  EXPECT_TRUE(shipped().link("nvlink4").topologies.empty());
}

} // namespace
} // namespace icx::unit_shipped_catalog
