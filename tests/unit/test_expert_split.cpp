#include <algorithm>
#include <cmath>
#include <utility>

#include <gtest/gtest.h>

#include "icx/reports/place.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/serving/step_model.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_expert_split {
namespace {

// Attention tensor parallel with the routed experts held whole and spread over the same GPUs
// ("TP 8 EP 8", Layout::moe_tp), against the shipped catalog.
class ExpertSplitTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();

  Cluster node(const char* system_id) const { return test::system_cluster(catalog, system_id, 8); }
  Workload decode(const Model& model, const Gpu& gpu, std::int64_t batch) const {
    ServingRequest r;
    r.phase = Phase::decode;
    r.context = 2048;
    r.batch = batch;
    return workload_for(catalog, model, catalog.dtype(model.default_dtype), gpu, r);
  }
  /// DeepSeek-R1's routed experts' up projection on one H200 of TP 8 at `batch` sequences:
  /// split 8 ways (first) and held whole over the 8 GPUs (second).
  std::pair<StepTerm, StepTerm> r1_experts_up(std::int64_t batch) const {
    const Gpu& h200 = catalog.gpu("h200");
    const Workload w = decode(catalog.model("deepseek-r1"), h200, batch);
    const Layout tp8{8, 1, 1, 1};
    const StepBatch b = step_batch(w, tp8, batch);
    return {term(stage_work(h200, w, tp8, b), StepOp::experts_up),
            term(stage_work(h200, w, Layout{8, 1, 1, 1, 1}, b), StepOp::experts_up)};
  }
  static StepTerm term(const StageWork& work, StepOp op) {
    const auto at = std::ranges::find(work.terms, op, &StepTerm::op);
    return at != work.terms.end() ? *at : StepTerm{};
  }
};

TEST_F(ExpertSplitTest, Tp8Ep8IsRankedForDeepSeekR1AndQwen3) {
  const Layout tp8_ep8{8, 1, 1, 1, 1};
  EXPECT_EQ(tp8_ep8.expert_tp(), 1);
  EXPECT_EQ(tp8_ep8.expert_ranks(), 8);
  for (const char* id : {"deepseek-r1", "qwen3-235b-a22b"}) {
    const Model& model = catalog.model(id);
    const Cluster cluster = node("dgx-h200");
    const std::vector<RankedLayout> ranked =
        rank_layouts(cluster, decode(model, *cluster.gpu, 64), Objective::throughput);
    const std::size_t at = rank_of(ranked, tp8_ep8);
    ASSERT_LT(at, ranked.size()) << id;
    EXPECT_TRUE(ranked[at].placement.fits()) << id;
  }
}

TEST_F(ExpertSplitTest, SameWorkDifferentShapes) {
  // DeepSeek-R1 at batch 64 on TP 8: the experts' FLOPs per GPU are the same whether each
  // expert is split 8 ways or each GPU holds 32 of the 256 whole (uniform routing).
  const auto [split, whole] = r1_experts_up(64);
  EXPECT_NEAR(whole.flops.value(), split.flops.value(), 1e-9 * split.flops.value());
  // Weights per GPU are the same too.
  const Model& r1 = catalog.model("deepseek-r1");
  const Dtype& fp8 = catalog.dtype("fp8");
  EXPECT_DOUBLE_EQ(weights_per_gpu(r1, fp8, fp8, Layout{8, 1, 1, 1}).value(),
                   weights_per_gpu(r1, fp8, fp8, Layout{8, 1, 1, 1, 1}).value());
}

TEST_F(ExpertSplitTest, OneSequenceReadsTheBusiestGpusWholeExperts) {
  // Batch 1: 8 routed experts a token. Split 8 ways, each GPU reads an eighth of each: one
  // expert's weights. Held whole over 8 GPUs, the busiest holds 1 + sqrt(2 ln 8) = 3.04 of
  // them (the mean of one plus its spread; icx/serving/serving.hpp busiest_gpu_experts).
  const auto [split, whole] = r1_experts_up(1);
  EXPECT_NEAR(whole.read.value() / split.read.value(), 1 + std::sqrt(2 * std::log(8.0)), 0.01);
}

TEST_F(ExpertSplitTest, GivenMoeEpMustSpreadOverTheStage) {
  PlaceRequest request;
  request.cluster = node("dgx-h200");
  request.model = &catalog.model("deepseek-r1");
  request.dtype = &catalog.dtype("fp8");
  request.serving.tokens = 4096;
  request.layout.tp = 8;
  request.layout.moe_ep = 8;
  const PlaceReport report = place_report(catalog, request);
  EXPECT_EQ(report.placement().layout, (Layout{8, 1, 1, 1, 1}));
  request.layout.moe_ep = 3;
  EXPECT_THROW((void)place_report(catalog, request), LayoutError);
  // The other way to say it: each expert split over 2 of the 8 GPUs, spread over 4 ranks.
  request.layout.moe_ep.reset();
  request.layout.moe_tp = 2;
  const PlaceReport hybrid = place_report(catalog, request);
  EXPECT_EQ(hybrid.placement().layout, (Layout{8, 1, 1, 1, 2}));
  EXPECT_EQ(hybrid.placement().layout.expert_ranks(), 4);
  EXPECT_EQ(layout_name(hybrid.placement().layout), "TP 8 (experts TP 2 × EP 4)");
  // Ranked like the rest: the ranking holds it.
  EXPECT_LT(hybrid.chosen, hybrid.ranked.size());
  // Not a divisor of tp, or both given and disagreeing.
  request.layout.moe_tp = 3;
  EXPECT_THROW((void)place_report(catalog, request), LayoutError);
  request.layout.moe_tp = 1;
  request.layout.moe_ep = 4;
  EXPECT_THROW((void)place_report(catalog, request), LayoutError);
  request.layout.moe_ep = 8;
  EXPECT_EQ(place_report(catalog, request).placement().layout, (Layout{8, 1, 1, 1, 1}));
  request.layout.moe_tp.reset();
  // A dense model has no experts to spread.
  request.model = &catalog.model("70b");
  request.dtype = &catalog.dtype("bf16");
  request.layout.moe_ep = 8;
  EXPECT_THROW((void)place_report(catalog, request), LayoutError);
}

} // namespace
} // namespace icx::unit_expert_split
