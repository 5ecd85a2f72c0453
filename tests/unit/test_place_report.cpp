#include "icx/reports/place.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_fixtures.hpp"

namespace icx::unit_place_report {
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
    catalog.overlay_text(test::engine_overlay, "engines.json");
  }

  PlaceRequest request(int gpus, const Link& up, const Model& model) const {
    PlaceRequest r;
    r.cluster = Cluster{&gpu, gpus, 8, 8, &up, &ndr, 8};
    r.model = &model;
    r.dtype = &bf16;
    r.serving.tokens = 4096;
    return r;
  }
};

/// Prefill compute of a 70e9-parameter model over 4096 tokens on `gpus` GPUs at 989e12 × 0.5.
double compute_seconds(int gpus) {
  return 2 * 70e9 * 4096 / gpus / (989e12 * 0.5);
}

/// 2 all-reduces × 80 layers of 2 × 4096 × 8192 × 2 B = 21,474,836,480 B per GPU and pass.
constexpr double tensor_bytes = 2 * 80 * 2 * 4096.0 * 8192 * 2;

TEST_F(PlaceReportTest, RecommendedLayoutIsTheBestRanked) {
  // One 4096-token prompt on two 8-GPU nodes. TP 16 crosses ib-ndr (the rule forbids it).
  // TP 8 × DP 2: 145 ms of compute + 23.9 ms of all-reduce = 169 ms; TP 4 × DP 4: 290 + 23.9
  // = 314 ms; TP 8 × PP 2 matches TP 8 × DP 2 and adds a 67 MB send over ib-ndr.
  const PlaceReport r = place_report(catalog, request(16, nvlink, dense70));
  EXPECT_TRUE(r.recommended);
  EXPECT_EQ(r.chosen, 0U);
  EXPECT_EQ(r.nodes, 2);
  EXPECT_EQ(r.placement().layout, (Layout{8, 1, 1, 2}));
  EXPECT_EQ(r.placement().weights.value(), 2 * 70e9);
  EXPECT_EQ(r.placement().memory.weights_per_gpu.value(), 2 * 70e9 / 8);
  EXPECT_NEAR(r.placement().step.latency.value(), compute_seconds(8) + tensor_bytes / 900e9, 1e-12);
  EXPECT_FALSE(r.chosen_layout().verdict.compared.has_value());
  EXPECT_NE(r.chosen_layout().verdict.level, Level::avoid);
  EXPECT_EQ(r.compute_assumption, "gpu × 8 at 989 TFLOP/s (bf16) × 0.5 utilisation");
  EXPECT_FALSE(r.assumptions.empty());
  // Every layout of 16 GPUs the 64 heads allow is ranked; the chosen one is the first.
  EXPECT_GT(r.ranked.size(), 1U);
  EXPECT_EQ(&r.placement(), &r.ranked.front().placement);
}

TEST_F(PlaceReportTest, GivenLayoutSaysWhy) {
  PlaceRequest req = request(16, nvlink, dense70);
  req.layout.tp = 4;
  const PlaceReport r = place_report(catalog, req);
  EXPECT_FALSE(r.recommended);
  EXPECT_EQ(r.placement().layout, (Layout{4, 1, 1, 4})); // dp fills 16 GPUs / tp 4
  EXPECT_EQ(r.chosen, rank_of(r.ranked, Layout{4, 1, 1, 4}));
  EXPECT_GT(r.chosen, 0U);
  EXPECT_EQ(r.placement().memory.usable_per_gpu.value(), 80e9 * 0.8);
  EXPECT_NEAR(r.placement().step.work.compute.value(), compute_seconds(4), 1e-12);
  ASSERT_EQ(r.strategy_reasons.size(), 4U);
  EXPECT_EQ(r.strategy_reasons[1], "not used (degree 1)"); // expert
  EXPECT_EQ(r.strategy_reasons[2], "not used (degree 1)"); // pipeline
  EXPECT_EQ(r.strategy_reasons[3], "replicas exchange nothing");
  // 21.5 GB over 900 GB/s = 23.9 ms in a step of 290 + 23.9 = 314 ms: 8 %.
  EXPECT_EQ(r.strategy_reasons[0], "23.9 ms of all-reduce (headline model) in a prefill pass of "
                                   "314 ms (8 %): a small part of the step");
  // TP 8 × DP 2 is 314 / 169 = 1.86× faster: clearly better.
  const LayoutVerdict& v = r.chosen_layout().verdict;
  ASSERT_TRUE(v.compared.has_value());
  EXPECT_EQ(*v.compared, (Layout{8, 1, 1, 2}));
  EXPECT_NEAR(v.factor,
              (compute_seconds(4) + tensor_bytes / 900e9) /
                  (compute_seconds(8) + tensor_bytes / 900e9),
              1e-9);
  EXPECT_EQ(v.level, Level::avoid);
  EXPECT_EQ(r.compute_assumption, "gpu × 4 at 989 TFLOP/s (bf16) × 0.5 utilisation");
}

TEST_F(PlaceReportTest, DerivationsShowTheirTerms) {
  PlaceRequest req = request(16, nvlink, dense70);
  req.layout.tp = 4;
  const PlaceReport r = place_report(catalog, req);
  // The model has no MLP width, so GPT's layer: four GEMMs and attention, each a line.
  ASSERT_EQ(r.derivations.size(), 12U);
  EXPECT_EQ(r.derivations[0].quantity, "weights");
  EXPECT_EQ(r.derivations[0].formula, "70,000,000,000 parameters × 2 B");
  EXPECT_EQ(r.derivations[0].value, 140e9);
  EXPECT_EQ(r.derivations[1].quantity, "weights per GPU");
  EXPECT_EQ(r.derivations[1].value, 35e9);
  EXPECT_EQ(r.derivations[3].quantity, "qkv per stage");
  EXPECT_EQ(r.derivations[7].quantity, "attention per stage");
  EXPECT_EQ(r.derivations[8].quantity, "compute per stage");
  EXPECT_NEAR(r.derivations[8].value, compute_seconds(4), 1e-12);
  EXPECT_EQ(r.derivations[10].quantity, "stage");
  EXPECT_NEAR(r.derivations[10].value, compute_seconds(4) + tensor_bytes / 900e9, 1e-12);
  EXPECT_EQ(r.derivations[11].quantity, "TTFT");
  EXPECT_NEAR(r.derivations[11].value, compute_seconds(4) + tensor_bytes / 900e9, 1e-12);
}

TEST_F(PlaceReportTest, GivenLayoutAcrossTheNodeBoundaryIsAvoid) {
  // TP 16 spans both 8-GPU domains: its all-reduces cross ib-ndr, 18× slower than nvlink4.
  PlaceRequest req = request(16, nvlink, dense70);
  req.layout.tp = 16;
  const PlaceReport r = place_report(catalog, req);
  EXPECT_EQ(r.placement().layout.dp, 1);
  // Headline across nodes: the ring's 2·15/16 of each all-reduce (15/16 of the textbook 2S of
  // tensor_bytes) over the node's eight 50 GB/s NICs together: 50.3 ms.
  EXPECT_NEAR(r.placement().strategies[0].seconds.value(), tensor_bytes * 15 / 16 / (8 * 50e9),
              1e-9);
  EXPECT_EQ(
      r.strategy_reasons[0].rfind("TP crosses the node boundary onto ib-ndr: 50.3 ms vs "
                                  "23.9 ms on nvlink4; tensor parallel leaves the node for ib-ndr",
                                  0),
      0U)
      << r.strategy_reasons[0];
  EXPECT_EQ(r.chosen_layout().verdict.level, Level::avoid);
  // Slower than the layouts that keep every group inside a node, so ranked behind them.
  EXPECT_GT(r.chosen, rank_of(r.ranked, Layout{8, 1, 1, 2}));
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
  // Two GPUs: tp 2 or pp 2 leaves 70 GB per GPU against 64 GB usable; one GPU 140 GB.
  const PlaceReport r = place_report(catalog, request(2, nvlink, dense70));
  EXPECT_FALSE(r.placement().fits());
  for (const RankedLayout& ranked : r.ranked) {
    EXPECT_FALSE(ranked.placement.fits());
    EXPECT_EQ(ranked.verdict.level, Level::avoid);
    EXPECT_EQ(ranked.verdict.reason.rfind("does not fit: ", 0), 0U) << ranked.verdict.reason;
  }
  const RankedLayout& tp2 = r.ranked.at(rank_of(r.ranked, Layout{2, 1, 1, 1}));
  EXPECT_EQ(tp2.verdict.reason.rfind("does not fit: 70 GB of weights + ", 0), 0U)
      << tp2.verdict.reason;
}

TEST_F(PlaceReportTest, TensorParallelOnAHostLinkIsPricedNotForbidden) {
  // PCIe (32 GB/s) between 8 GPUs of one node. TP 8: 145 ms of compute + 21.47 GB / 32 GB/s
  // = 671 ms of all-reduce = 816 ms; PP 4 × DP 2 (35 GB per GPU): 4 stages of 290 ms one
  // after another = 1.16 s; TP 4 × DP 2: 290 + 671 = 961 ms. TP 8 ranks first, with the wire
  // taking 82 % of its step.
  const PlaceReport r = place_report(catalog, request(8, pcie, dense70));
  EXPECT_EQ(r.placement().layout, (Layout{8, 1, 1, 1}));
  const StrategyCost& tensor = r.placement().strategies[0];
  EXPECT_EQ(tensor.wire, &pcie);
  EXPECT_FALSE(tensor.verdict.breaks_rule);
  const double comm = tensor_bytes / 32e9;
  EXPECT_NEAR(tensor.verdict.share, comm / (compute_seconds(8) + comm), 1e-9);
  EXPECT_EQ(tensor.verdict.level, Level::marginal);
  EXPECT_LT(r.chosen, rank_of(r.ranked, Layout{1, 4, 1, 2}));
}

TEST_F(PlaceReportTest, OneGpuHoldsASmallModel) {
  const Model small = make_dense(4096, 32, 8e9, 32);
  PlaceRequest req = request(1, nvlink, small);
  req.cluster.gpus_per_node = 1;
  const PlaceReport r = place_report(catalog, req);
  ASSERT_EQ(r.ranked.size(), 1U);
  EXPECT_EQ(r.placement().layout, (Layout{1, 1, 1, 1}));
  EXPECT_EQ(r.chosen_layout().verdict.reason.rfind("best of 1 fitting layout for latency", 0), 0U)
      << r.chosen_layout().verdict.reason;
}

TEST_F(PlaceReportTest, JsonCarriesTheReport) {
  const PlaceReport r = place_report(catalog, request(16, nvlink, dense70));
  const Json j = r;
  EXPECT_EQ(j.begin().key(), "schema");
  EXPECT_EQ(j.at("schema"), "icx.place/2");
  EXPECT_TRUE(j.at("cluster").at("system").is_null());
  EXPECT_EQ(j.at("layout").at("tp"), 8);
  EXPECT_EQ(j.at("rank"), 1);
  EXPECT_EQ(j.at("weights_bytes"), 140000000000);
  EXPECT_EQ(j.at("strategies").size(), 4U);
  EXPECT_EQ(j.at("strategies").at(3).at("verdict").at("reason"), "replicas exchange nothing");
  EXPECT_EQ(j.at("layouts").size(), r.ranked.size());
  EXPECT_EQ(j.at("layouts").at(0).at("name"), "TP 8 × DP 2");
  EXPECT_TRUE(j.contains("ttft_seconds"));
  EXPECT_FALSE(j.contains("tpot_seconds"));
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
} // namespace icx::unit_place_report
