#include "icx/place_report.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_fixtures.hpp"

namespace icx {
namespace {

using test::make_dense;
using test::make_link;

// Links without expected-model parameters, so every time is the headline one: bytes over the
// vendor bandwidth. The GPU: 80 GB (64 GB usable at a 20 % reserve), 989 TFLOP/s × 0.5.
class PlaceReportTest : public ::testing::Test, protected test::ClusterParts {
protected:
  Model dense70 = make_dense(8192, 80, 70e9, 64);
  Catalog catalog;

  void SetUp() override {
    catalog.overlay_text(R"({"dtypes": [{"id": "bf16", "name": "B", "bytes_per_element": 2,
                                          "source": "s"}]})",
                         "test.json");
  }

  PlaceRequest request(int gpus, const Link& up, const Model& model) const {
    PlaceRequest r;
    r.cluster = Cluster{&gpu, gpus, 8, 8, &up, &ndr};
    r.model = &model;
    r.dtype = &bf16;
    r.tokens = 4096;
    return r;
  }
};

/// Prefill compute of a 70e9-parameter model over 4096 tokens on `gpus` GPUs at 989e12 × 0.5.
double compute_seconds(int gpus) {
  return 2 * 70e9 * 4096 / gpus / (989e12 * 0.5);
}

TEST_F(PlaceReportTest, RecommendedLayoutSaysWhy) {
  // 70e9 params × 2 B = 140 GB; 64 GB usable per GPU: tp 4 (35 GB) is the smallest group that
  // fits; 16 GPUs leave 4 replicas.
  const PlaceReport r = place_report(catalog, request(16, nvlink, dense70));
  EXPECT_TRUE(r.recommended);
  EXPECT_EQ(r.nodes, 2);
  EXPECT_EQ(r.placement.weights.value(), 2 * 70e9);
  EXPECT_EQ(r.placement.per_gpu_weights.value(), 2 * 70e9 / 4);
  EXPECT_EQ(r.placement.usable_per_gpu.value(), 80e9 * 0.8);
  EXPECT_NEAR(r.placement.compute.value(), compute_seconds(4), 1e-12);
  EXPECT_EQ(r.layout_reasons,
            (std::vector<std::string>{
                "TP 4 inside the nvlink4 domain, the smallest group whose shard fits",
                "4 replicas for the rest"}));
  ASSERT_EQ(r.strategy_reasons.size(), 4U);
  EXPECT_EQ(r.strategy_reasons[1], "not used (degree 1)"); // expert
  EXPECT_EQ(r.strategy_reasons[2], "not used (degree 1)"); // pipeline
  EXPECT_EQ(r.strategy_reasons[3], "replicas exchange nothing");
  // 2 all-reduces × 80 layers × 2 × 4096 × 8192 × 2 B = 21.5 GB over 900 GB/s = 23.9 ms,
  // against 290 ms of compute: 0.082×, hidden by overlap.
  EXPECT_EQ(r.strategy_reasons[0], "23.9 ms of all-reduce (headline model) vs 290 ms of "
                                   "compute per prefill (0.0823×): hidden by overlap");
  // Every split is ok; the tensor group has the largest ratio and speaks for the layout.
  EXPECT_EQ(r.placement.level, Level::ok);
  EXPECT_EQ(r.verdict_reason, "tensor: " + r.strategy_reasons[0]);
  EXPECT_EQ(r.compute_assumption, "gpu × 4 at 989 TFLOP/s (bf16) × 0.5 utilisation");
}

TEST_F(PlaceReportTest, DerivationsShowTheirTerms) {
  const PlaceReport r = place_report(catalog, request(16, nvlink, dense70));
  ASSERT_GE(r.derivations.size(), 4U);
  EXPECT_EQ(r.derivations[0].quantity, "weights");
  EXPECT_EQ(r.derivations[0].formula, "70,000,000,000 params × 2 B");
  EXPECT_EQ(r.derivations[0].value, 140e9);
  EXPECT_EQ(r.derivations[1].formula, "140,000,000,000 B / (tp 4 × ep 1 × pp 1)");
  EXPECT_EQ(r.derivations[1].value, 35e9);
  EXPECT_EQ(r.derivations[2].quantity, "compute per pass");
  EXPECT_NEAR(r.derivations[2].value, compute_seconds(4), 1e-12);
  // Only the tensor group crosses a wire.
  ASSERT_EQ(r.derivations.size(), 4U);
  EXPECT_EQ(r.derivations[3].quantity, "tensor time");
  EXPECT_NEAR(r.derivations[3].value, 2 * 80 * 2 * 4096.0 * 8192 * 2 / 900e9, 1e-12);
}

TEST_F(PlaceReportTest, GivenLayoutFillsReplicasAndNamesTheNodeBoundary) {
  PlaceRequest req = request(16, nvlink, dense70);
  req.layout.tp = 4;
  PlaceReport r = place_report(catalog, req);
  EXPECT_FALSE(r.recommended);
  EXPECT_TRUE(r.layout_reasons.empty());
  EXPECT_EQ(r.placement.layout.dp, 4); // 16 GPUs / tp 4

  // TP 16 spans both 8-GPU domains: its all-reduces cross ib-ndr, 18× slower than nvlink4.
  req.layout.tp = 16;
  r = place_report(catalog, req);
  EXPECT_EQ(r.placement.layout.dp, 1);
  const double on_ndr = 2 * 80 * 2 * 4096.0 * 8192 * 2 / 50e9;
  EXPECT_NEAR(r.placement.strategies[0].seconds.value(), on_ndr, 1e-9);
  EXPECT_EQ(r.strategy_reasons[0].rfind("TP crosses the node boundary onto ib-ndr: 429 ms vs "
                                        "23.9 ms on nvlink4; ",
                                        0),
            0U)
      << r.strategy_reasons[0];
  EXPECT_EQ(r.placement.level, Level::avoid);
  EXPECT_EQ(r.verdict_reason, "tensor: " + r.strategy_reasons[0]);
}

TEST_F(PlaceReportTest, LayoutErrorsNameTheDegreeAtFault) {
  PlaceRequest req = request(16, nvlink, dense70);
  req.layout.tp = 4;
  req.layout.dp = 2; // 4 × 2 = 8 GPUs, not 16: the degrees together are at fault
  try {
    (void)place_report(catalog, req);
    FAIL() << "tp 4 × dp 2 on 16 GPUs";
  } catch (const LayoutError& e) {
    EXPECT_TRUE(e.degree.empty());
  }
  req.layout.tp = 3; // 64 heads do not split in 3, whatever the product
  try {
    (void)place_report(catalog, req);
    FAIL() << "tp 3 on 64 heads";
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.degree, "tp 3");
  }
}

TEST_F(PlaceReportTest, WeightsThatDoNotFitSayHowMuch) {
  // Two GPUs: tp 2 leaves 70 GB per GPU against 64 GB usable, and no pipeline fits in 2.
  const PlaceReport r = place_report(catalog, request(2, nvlink, dense70));
  EXPECT_FALSE(r.placement.fits);
  EXPECT_EQ(r.placement.level, Level::avoid);
  EXPECT_EQ(r.verdict_reason, "the weights need 70 GB per GPU but 64 GB is usable: add GPUs, "
                              "shard further (--tp/--ep/--pp) or use a smaller dtype");
}

TEST_F(PlaceReportTest, NoTensorParallelOnAHostLink) {
  // PCIe between the GPUs: no tensor group; 140 GB needs 4 stages of 35 GB; 8 GPUs, 2 copies.
  PlaceRequest req = request(8, pcie, dense70);
  const PlaceReport r = place_report(catalog, req);
  EXPECT_EQ(r.layout_reasons,
            (std::vector<std::string>{"no tensor parallel on pcie4 (a host link)",
                                      "PP 4 because a smaller group cannot hold the weights",
                                      "2 replicas for the rest"}));
}

TEST_F(PlaceReportTest, OneGpuHoldsASmallModel) {
  const Model small = make_dense(4096, 32, 8e9, 32);
  PlaceRequest req = request(1, nvlink, small);
  req.cluster.gpus_per_node = 1;
  const PlaceReport r = place_report(catalog, req);
  EXPECT_EQ(r.layout_reasons, std::vector<std::string>{"one GPU holds the model"});
}

TEST_F(PlaceReportTest, JsonCarriesTheReport) {
  const PlaceReport r = place_report(catalog, request(16, nvlink, dense70));
  const Json j = r;
  EXPECT_EQ(j.begin().key(), "schema");
  EXPECT_EQ(j.at("schema"), "icx.place/1");
  EXPECT_TRUE(j.at("cluster").at("system").is_null());
  EXPECT_EQ(j.at("layout").at("tp"), 4);
  EXPECT_EQ(j.at("weights_bytes"), 140000000000);
  EXPECT_EQ(j.at("strategies").size(), 4U);
  EXPECT_EQ(j.at("strategies").at(3).at("verdict").at("reason"), "replicas exchange nothing");
  EXPECT_EQ(j.at("verdict").at("level"), "ok");
}

class ResolveClusterTest : public PlaceReportTest {
protected:
  std::vector<Link> links{nvlink, ndr, pcie};
  System node;

  void SetUp() override {
    PlaceReportTest::SetUp();
    node.id = "node";
    node.gpus_per_node = 8;
    node.scale_up_domain = 8;
  }
  ClusterRequest named(const Link* out) const {
    ClusterRequest r;
    r.system = &node;
    r.gpu = &gpu;
    r.scale_up = &nvlink;
    r.scale_out = out;
    return r;
  }
};

TEST_F(ResolveClusterTest, DefaultsToOneNodeOfTheSystem) {
  const Cluster c = resolve_cluster(named(&ndr), links);
  EXPECT_EQ(c.gpus, 8);
  EXPECT_EQ(c.gpus_per_node, 8);
  EXPECT_EQ(c.domain, 8);
  EXPECT_EQ(c.scale_out, &ndr);
}

TEST_F(ResolveClusterTest, NamesWhatIsWrong) {
  ClusterRequest r = named(&ndr);
  r.gpus = 12; // one and a half nodes
  try {
    (void)resolve_cluster(r, links);
    FAIL() << "12 GPUs on 8-GPU nodes";
  } catch (const ClusterError& e) {
    EXPECT_EQ(e.issue, ClusterIssue::ragged_nodes);
    EXPECT_EQ(e.cluster.gpus_per_node, 8);
  }
  r = named(nullptr);
  r.gpus = 16; // two domains, nothing between
  try {
    (void)resolve_cluster(r, links);
    FAIL() << "16 GPUs without a scale-out link";
  } catch (const ClusterError& e) {
    EXPECT_EQ(e.issue, ClusterIssue::needs_scale_out);
    EXPECT_EQ(e.cluster.domain, 8);
  }
  r = named(&ndr);
  const Link other = make_link("other", Tier::scale_up, 900);
  r.scale_up = &other; // not the GPU's link
  try {
    (void)resolve_cluster(r, links);
    FAIL() << "a scale-up link the GPU lacks";
  } catch (const ClusterError& e) {
    EXPECT_EQ(e.issue, ClusterIssue::contradiction);
    EXPECT_EQ(e.part, ClusterPart::scale_up);
  }
}

TEST_F(ResolveClusterTest, TraysJoinedByTheirScaleUpLinkAreOneDomain) {
  // Nodes of 4 in a 16-GPU NVLink domain (NVL72-like trays): 16 GPUs are one domain.
  node.gpus_per_node = 4;
  node.scale_up_domain = 16;
  ClusterRequest r = named(&nvlink);
  r.gpus = 16;
  const Cluster c = resolve_cluster(r, links);
  EXPECT_EQ(c.gpus_per_node, 4);
  EXPECT_EQ(c.domain, 16);
}

} // namespace
} // namespace icx
