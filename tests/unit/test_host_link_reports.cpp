// The coldstart and offload reports, and the rules they share (usable HBM, node count),
// on inline figures chosen for hand arithmetic (not the shipped catalog).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/reports/coldstart.hpp"
#include "icx/reports/offload.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_host_link_reports {
namespace {

using test::make_dense;
using test::make_dtype;
using test::make_gpu;
using test::make_link;
using test::make_seventy_b;

Link host(const char* id, double headline_gbps, std::optional<double> measured_gbps) {
  Link link = make_link(id, Tier::host, headline_gbps);
  if (measured_gbps) {
    link.measured_host_to_device = gigabytes_per_second(*measured_gbps);
  }
  return link;
}

const Link pcie5 = host("pcie5", 64, 51);
const Link unmeasured = host("slow", 32, std::nullopt);
const Dtype bf16 = make_dtype("bf16", 2);
const Gpu h100 = make_gpu("nvlink4", 8);

ColdStartRequest cold(const Model& model, int gpus, const Link& link,
                      std::optional<int> gpus_per_node = std::nullopt,
                      const StorageTier* storage = nullptr) {
  ColdStartRequest request;
  request.model = &model;
  request.dtype = &bf16;
  request.gpus = gpus;
  request.gpus_per_node = gpus_per_node;
  request.host_link = &link;
  request.storage = storage;
  return request;
}

OffloadRequest spill(const Model& model, int gpus, std::optional<KvLoad> kv,
                     std::vector<const Link*> links) {
  OffloadRequest request;
  request.model = &model;
  request.dtype = &bf16;
  request.gpu = &h100;
  request.gpus = gpus;
  request.kv = kv;
  request.host_links = std::move(links);
  return request;
}

TEST(NodeCount, CountsWholeNodesOrPartOfOne) {
  EXPECT_EQ(node_count(8, 8), 1);
  EXPECT_EQ(node_count(3, 8), 1); // part of one node
  EXPECT_EQ(node_count(16, 8), 2);
  // 9 / 8 = 1.125: a partly filled node beside a full one is no cluster place or ep accepts.
  try {
    (void)node_count(9, 8);
    FAIL() << "9 GPUs in nodes of 8 accepted";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "9 GPUs are not a whole number of 8-GPU nodes");
  }
  EXPECT_EQ(node_count(1, 72), 1);
  EXPECT_THROW((void)node_count(0, 8), InputError);
  EXPECT_THROW((void)node_count(8, 0), InputError);
}

TEST(UsableHbm, ReserveIsTakenFromEveryGpu) {
  // 2 GPUs × 80 GB × (1 − 0.2) = 128 GB; no reserve: 160 GB.
  EXPECT_EQ(usable_hbm(h100, 2, 0.2).value(), 128e9);
  EXPECT_EQ(usable_hbm(h100, 2, 0).value(), 160e9);
  EXPECT_THROW((void)usable_hbm(h100, 1, 1.0), InputError);
  EXPECT_THROW((void)usable_hbm(h100, 1, -0.1), InputError);
  EXPECT_THROW((void)usable_hbm(h100, 0, 0.2), InputError);
}

TEST(ColdStartReport, SeventyBInBf16OverOnePcie5Link) {
  // 70e9 × 2 B = 140 GB over 64 GB/s one way: 140 / 64 = 2.1875 s (the ~2.2 s floor);
  // measured 51 GB/s: 140 / 51 = 2.745098... s.
  const Model model = make_seventy_b();
  const ColdStartReport r = coldstart_report(cold(model, 1, pcie5));
  EXPECT_EQ(r.load.weights.value(), 140e9);
  EXPECT_DOUBLE_EQ(r.load.floor.value(), 2.1875);
  EXPECT_NEAR(r.load.expected_floor->value(), 140.0 / 51, 1e-12);
  EXPECT_EQ(r.load.stages.at(0).share, StageShare::one_shard);
  EXPECT_TRUE(r.expected_unavailable.empty());
  EXPECT_FALSE(r.within_budget.has_value());
}

TEST(ColdStartReport, BudgetVerdictComparesTheHeadlineFloor) {
  const Model model = make_seventy_b();
  ColdStartRequest request = cold(model, 1, pcie5);
  request.budget = Seconds::of(2.5); // 2.1875 s fits
  EXPECT_EQ(coldstart_report(request).within_budget, true);
  request.budget = Seconds::of(2); // 2.1875 s does not
  EXPECT_EQ(coldstart_report(request).within_budget, false);
}

TEST(ColdStartReport, NodesAndSharesFromAPerNodeTier) {
  // 16 GPUs, 8 per node: 2 nodes; each node reads its 8 shards of 140 / 16 = 8.75 GB, 70 GB
  // at 10 GB/s = 7 s, slower than 8.75 GB / 64 GB/s = 0.137 s over each GPU's link.
  const Model model = make_seventy_b();
  StorageTier nvme;
  nvme.id = "nvme";
  nvme.read_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(10));
  const ColdStartReport r = coldstart_report(cold(model, 16, pcie5, 8, &nvme));
  EXPECT_EQ(r.load.nodes, 2);
  ASSERT_EQ(r.load.stages.size(), 2U);
  EXPECT_EQ(r.load.stages[0].share, StageShare::node_shards);
  EXPECT_EQ(r.load.stages[0].bytes.value(), 70e9);
  EXPECT_DOUBLE_EQ(r.load.floor.value(), 7.0);
  EXPECT_EQ(r.load.bottleneck, LoadStageId::storage_to_host);
}

TEST(ColdStartReport, SaysWhyThereIsNoExpectedFloor) {
  const Model model = make_seventy_b();
  const ColdStartReport r = coldstart_report(cold(model, 1, unmeasured));
  EXPECT_FALSE(r.load.expected_floor.has_value());
  EXPECT_NE(r.expected_unavailable.find("slow"), std::string::npos);
}

TEST(ColdStartReport, GpusThatCannotSplitTheWeightsAreAGroupError) {
  // 64 query heads: 81 GPUs are no t × p with t dividing 64 and p ≤ 80 layers.
  const Model model = make_seventy_b();
  EXPECT_THROW((void)coldstart_report(cold(model, 81, pcie5)), GroupError);
}

TEST(ColdStartReport, JsonHasOneShapeForTheReportAndItsStages) {
  // 140 GB / 64 GB/s = 2.1875 s, written in base units; the budget appears only when given.
  const Model model = make_seventy_b();
  ColdStartRequest request = cold(model, 1, pcie5);
  nlohmann::ordered_json json = coldstart_report(request);
  EXPECT_EQ(json.begin().key(), "gpus");
  EXPECT_EQ(json.at("floor_seconds"), 2.1875);
  EXPECT_EQ(json.at("stages").at(0).at("id"), "host-to-gpu");
  EXPECT_EQ(json.at("stages").at(0).at("bytes"), 140000000000);
  EXPECT_TRUE(json.at("storage").is_null());
  EXPECT_FALSE(json.contains("within_budget"));
  request.budget = Seconds::of(2);
  json = coldstart_report(request);
  EXPECT_EQ(json.at("within_budget"), false);
}

TEST(OffloadReport, DefaultReserveLeavesSixtyFourGbOfAnEightyGbGpu) {
  // 140 GB on one GPU with 80 GB × (1 − 0.2) = 64 GB usable: 76 GB spilled over 64 GB/s.
  // Step = 64 / 3350 + 76 / 64 s.
  const Model model = make_seventy_b();
  const OffloadReport r = offload_report(spill(model, 1, std::nullopt, {&pcie5}));
  EXPECT_EQ(r.reserve, 0.2);
  EXPECT_EQ(r.result.hbm.value(), 64e9);
  EXPECT_EQ(r.result.spilled.value(), 76e9);
  EXPECT_NEAR(r.result.links.at(0).step.value(), 64.0 / 3350 + 76.0 / 64, 1e-12);
}

TEST(OffloadReport, KvCacheTermsAndCopies) {
  // 8 sequences × 8192 tokens × 2 × 80 layers × 8 KV heads × 128 × 2 B = 21,474,836,480 B.
  // Two GPUs form one 2-wide tensor-parallel group that splits the 8 KV heads: one copy.
  const Model model = make_seventy_b();
  OffloadRequest request = spill(model, 2, KvLoad{8, 8192}, {&pcie5});
  request.reserve = 0;
  const OffloadReport r = offload_report(request);
  EXPECT_EQ(r.kv_cache.value(), 21474836480.0);
  EXPECT_EQ(r.tp_width, 2);
  EXPECT_EQ(r.kv_copies, 1);
  EXPECT_EQ(r.kv_copy_reason, KvCopyReason::heads_split);
  EXPECT_EQ(r.kv_per_token_terms, "2 × 80 layers × 8 KV heads × 128 head dim");
  // 140e9 + 21,474,836,480 B needed, 160 GB of HBM: 1,474,836,480 B spilled.
  EXPECT_EQ(r.result.spilled.value(), 1474836480.0);
}

TEST(OffloadReport, AGroupWiderThanTheKvHeadsReplicatesThem) {
  // One layer leaves room for one pipeline stage, so 16 GPUs form one 16-wide group; over
  // 8 KV heads it holds 16 / 8 = 2 copies.
  Model model = make_seventy_b();
  model.layers = 1;
  const OffloadRequest request = spill(model, 16, KvLoad{1, 1024}, {&pcie5});
  const OffloadReport r = offload_report(request);
  EXPECT_EQ(r.kv_copies, 2);
  EXPECT_EQ(r.kv_copy_reason, KvCopyReason::heads_replicated);
  EXPECT_EQ(r.kv_copies_why, "a 16-GPU tensor-parallel group replicates the 8 KV heads");
}

TEST(OffloadReport, HostMemoryIsTheDramOfTheNodesTheGpusFill) {
  // 300 GB of DRAM per 8-GPU node: 4 GPUs fill one node (300 GB), 16 fill two (600 GB); a
  // system without a host side has none to give.
  System system;
  system.gpus_per_node = 8;
  EXPECT_FALSE(host_memory(system, 8).has_value());
  system.host = HostSide{"pcie5", 2, Bytes::of(300e9), gigabytes_per_second(400), 0, "", "s"};
  EXPECT_EQ(host_memory(system, 4)->value(), 300e9);
  EXPECT_EQ(host_memory(system, 16)->value(), 600e9);
}

TEST(OffloadReport, ASystemSharesItsUplinksAndGivesItsHostMemory) {
  // 350e9 parameters × 2 B = 700 GB on 4 GPUs of 80 GB × 0.8 = 256 GB: a 444 GB spill. 2 GPUs per
  // uplink: 51 / 2 = 25.5 GB/s each (the DRAM's 400 GB/s / 4 = 100 GB/s does not bind); 300 GB of
  // host memory is 144 GB short.
  Model model = make_seventy_b();
  model.total_params = 350e9;
  System system;
  system.id = "box";
  system.gpus_per_node = 8;
  system.host = HostSide{"pcie5", 2, Bytes::of(300e9), gigabytes_per_second(400), 0, "", "s"};
  ASSERT_TRUE(host_share(system).has_value());
  EXPECT_EQ(host_share(system)->gpus_per_uplink, 2);
  EXPECT_EQ(host_share(system)->gpus_per_node, 8);
  OffloadRequest request = spill(model, 4, std::nullopt, {&pcie5});
  request.system = &system;
  request.host_memory = Bytes::of(300e9);
  const OffloadReport r = offload_report(request);
  EXPECT_EQ(r.result.spilled.value(), 444e9);
  EXPECT_EQ(r.result.fits_host_memory, false);
  const HostLinkStep& step = r.result.links.at(0);
  EXPECT_DOUBLE_EQ(step.expected_stream->rate.value(), 25.5e9);
  EXPECT_EQ(step.expected_stream->sharing, 2);
  const nlohmann::ordered_json json = r;
  EXPECT_EQ(json.at("system"), "box");
  EXPECT_EQ(json.at("host_memory_bytes"), 300000000000);
  EXPECT_EQ(json.at("offload_engine"), "vllm");
  EXPECT_EQ(json.at("expected_stream_limit"), "uplink");
  system.host.reset();
  EXPECT_FALSE(host_share(system).has_value());
}

TEST(OffloadReport, TheGpusSetupSetsTheHbmFractionUnlessOneIsGiven) {
  // 140 GB read per step on one GPU of 3,350 GB/s. Its default setup reads at 40 %:
  // 140 / (3350 × 0.4) = 140 / 1340 s; a setup without an HBM figure leaves the GPU's own
  // (none here: 100 %, 140 / 3350 s); a given 0.5 beats both: 140 / 1675 s.
  Gpu gpu = h100;
  GpuTuning stock;
  stock.id = "stock";
  stock.hbm_fraction = 0.4;
  stock.is_default = true;
  GpuTuning tuned;
  tuned.id = "tuned";
  gpu.tunings = {stock, tuned};
  const Model model = make_seventy_b();
  OffloadRequest request = spill(model, 1, std::nullopt, {&pcie5});
  request.gpu = &gpu;
  OffloadReport r = offload_report(request);
  EXPECT_NEAR(r.result.step_all_hbm.value(), 140.0 / 1340, 1e-12);
  ASSERT_NE(r.tuning, nullptr);
  EXPECT_EQ(nlohmann::ordered_json(r).at("tuning"), "stock");
  request.tuning = "tuned";
  r = offload_report(request);
  EXPECT_NEAR(r.result.step_all_hbm.value(), 140.0 / 3350, 1e-12);
  EXPECT_EQ(r.tuning, nullptr);
  request.hbm_fraction = 0.5;
  request.tuning.clear();
  r = offload_report(request);
  EXPECT_NEAR(r.result.step_all_hbm.value(), 140.0 / 1675, 1e-12);
  EXPECT_TRUE(r.hbm_fraction_given);
  const nlohmann::ordered_json json = r;
  EXPECT_EQ(json.at("hbm_fraction"), 0.5);
  EXPECT_TRUE(json.at("tuning").is_null());
  request.tuning = "missing";
  EXPECT_THROW(offload_report(request), InputError);
}

TEST(OffloadReport, JsonCarriesTheFirstLinkAtTheTop) {
  const Model model = make_seventy_b();
  const nlohmann::ordered_json json =
      offload_report(spill(model, 1, std::nullopt, {&pcie5, &unmeasured}));
  EXPECT_EQ(json.at("host_link"), "pcie5");
  EXPECT_EQ(json.at("spilled_bytes"), 76000000000);
  EXPECT_EQ(json.at("host_links").size(), 2U);
  EXPECT_TRUE(json.at("host_links")[1].at("expected_step_seconds").is_null());
  EXPECT_TRUE(json.at("host_memory_bytes").is_null());
  EXPECT_TRUE(json.at("system").is_null());
}

} // namespace
} // namespace icx::unit_host_link_reports
