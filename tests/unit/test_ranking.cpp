#include "icx/serving/ranking.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/reports/place.hpp"
#include "icx/reports/tp.hpp"
#include "icx/words/ranking.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_ranking {
namespace {

// The shipped catalog, with clusters resolved from catalog systems the way `icx place` does.
class RankingTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();

  Cluster system_cluster(const char* id, int gpus) const {
    return test::system_cluster(catalog, id, gpus);
  }
  static ServingRequest decode(std::int64_t context, std::optional<std::int64_t> batch) {
    ServingRequest r;
    r.phase = Phase::decode;
    r.context = context;
    r.batch = batch;
    return r;
  }
  const RankedLayout& find(const std::vector<RankedLayout>& ranked, const Layout& layout) const {
    const std::size_t at = rank_of(ranked, layout);
    EXPECT_LT(at, ranked.size()) << layout_name(layout);
    return ranked.at(at);
  }
};

TEST(LayoutName, EnginesWriting) {
  EXPECT_EQ(layout_name(Layout{4, 1, 1, 2}), "TP 4 × DP 2");
  EXPECT_EQ(layout_name(Layout{2, 2, 2, 1}), "TP 2 × EP 2 × PP 2");
  EXPECT_EQ(layout_name(Layout{1, 1, 1, 1}), "TP 1");
  EXPECT_EQ(layout_name(Layout{8, 1, 1, 1, 1}), "TP 8 (experts EP 8)");
  EXPECT_EQ(layout_name(Layout{4, 1, 2, 1, 2}), "TP 4 × EP 2 (experts TP 2 × EP 4)");
  EXPECT_EQ(layout_name(Layout{4, 1, 2, 1, 1}), "TP 4 × EP 2 (experts EP 8)");
}

TEST_F(RankingTest, DenseCandidatesOnEightGpus) {
  // 64 heads, 8 KV heads: tensor groups of 1, 2, 4, 8 all split them; no expert degree on a
  // dense model; pipeline and data fill the rest.
  const std::vector<Layout> expected{{1, 1, 1, 8}, {1, 2, 1, 4}, {1, 4, 1, 2}, {1, 8, 1, 1},
                                     {2, 1, 1, 4}, {2, 2, 1, 2}, {2, 4, 1, 1}, {4, 1, 1, 2},
                                     {4, 2, 1, 1}, {8, 1, 1, 1}};
  std::vector<Layout> got = candidate_layouts(system_cluster("dgx-h100", 8), catalog.model("70b"));
  const auto order = [](const Layout& a, const Layout& b) {
    return std::tuple{a.tp, a.pp, a.ep, a.dp} < std::tuple{b.tp, b.pp, b.ep, b.dp};
  };
  std::ranges::sort(got, order);
  EXPECT_EQ(got, expected);
}

TEST_F(RankingTest, MoeCandidatesAddExpertDegrees) {
  // Mixtral, 8 experts: with tp t, every ep dividing 8 / t, and pp dividing what is left.
  // tp 1: ep 1, 2, 4, 8 with 4 + 3 + 2 + 1 pipelines; tp 2: 3 + 2 + 1; tp 4: 2 + 1; tp 8: 1.
  // Each of the 10 with tp above 1 also with its experts split over each smaller divisor of
  // tp and spread over the rest of the stage (8 experts: every such spread divides them):
  // held whole (moe_tp 1) for all 10; split 2 ways for the 3 with tp 4 and the 1 with tp 8;
  // split 4 ways for that one: 15 more.
  const std::vector<Layout> got =
      candidate_layouts(system_cluster("dgx-h100", 8), catalog.model("mixtral"));
  EXPECT_EQ(got.size(), 35U);
  EXPECT_EQ(std::ranges::count_if(got, [](const Layout& l) { return l.moe_tp == 0; }), 20);
  EXPECT_EQ(std::ranges::count_if(got, [](const Layout& l) { return l.moe_tp == 1; }), 10);
  EXPECT_EQ(std::ranges::count_if(got, [](const Layout& l) { return l.moe_tp == 2; }), 4);
  EXPECT_NE(std::ranges::find(got, Layout{8, 1, 1, 1, 4}), got.end());
  // ep above 1: the 10 plain ones, the 4 of them with tp above 1 held whole, and TP 4 × EP 2
  // split 2 ways.
  EXPECT_EQ(std::ranges::count_if(got, [](const Layout& l) { return l.ep > 1; }), 15);
  EXPECT_NE(std::ranges::find(got, Layout{8, 1, 1, 1, 1}), got.end());
  EXPECT_NE(std::ranges::find(got, Layout{1, 1, 8, 1}), got.end());
  EXPECT_NE(std::ranges::find(got, Layout{2, 1, 4, 1}), got.end());
  for (const Layout& l : got) {
    EXPECT_EQ(l.product(), 8);
    EXPECT_EQ(8 % l.ep, 0);
  }
}

TEST_F(RankingTest, SeventyBDecodeOnOneNodeRanksTp8First) {
  // place --model 70b --system dgx-h100 --gpus 8 --phase decode --batch 32 --context 2048.
  // TP 8 reads 141.1 GB / 8 = 17.6 GB of weights and 32 × 2049 × 40,960 B = 2.7 GB of cache
  // per GPU at 3.35 TB/s × 0.89: 6.8 ms, plus 160 all-reduces of 512 KiB on nvlink4.
  // TP 4 × DP 2 reads 35.3 GB + 2.7 GB per GPU: 12.7 ms before its all-reduces. Both pay
  // vLLM's 741 µs per step + 80 × 19 µs of gaps between layers = 2.26 ms.
  PlaceRequest request;
  request.cluster = system_cluster("dgx-h100", 8);
  request.system = &catalog.system("dgx-h100");
  request.model = &catalog.model("70b");
  request.dtype = &catalog.dtype("bf16");
  request.serving = decode(2048, 32);
  const PlaceReport report = place_report(catalog, request);
  ASSERT_TRUE(report.recommended);
  const RankedLayout& best = report.chosen_layout();
  EXPECT_EQ(best.placement.layout, (Layout{8, 1, 1, 1}));
  EXPECT_GT(best.placement.step.latency.value(), 7e-3);
  EXPECT_LT(best.placement.step.latency.value(), 15e-3);
  EXPECT_NE(best.verdict.level, Level::avoid);
  EXPECT_FALSE(best.verdict.compared.has_value());
  const Link& nvlink4 = catalog.link("nvlink4");
  for (const StrategyCost& cost : best.placement.strategies) {
    if (cost.wire == &nvlink4) {
      EXPECT_NE(cost.verdict.level, Level::avoid) << to_string(cost.strategy);
    }
  }
  const RankedLayout& tp4 = find(report.ranked, Layout{4, 1, 1, 2});
  EXPECT_GE(advantage(best.placement, tp4.placement, Objective::latency), 1.2);
  EXPECT_GE(tp4.placement.step.latency.value(), 1.2 * best.placement.step.latency.value());
}

TEST_F(RankingTest, VerdictsAreRelativeToTheBest) {
  const Cluster cluster = system_cluster("dgx-h100", 8);
  const Workload w = workload_for(catalog, catalog.model("70b"), catalog.dtype("bf16"),
                                  *cluster.gpu, decode(2048, 32));
  const std::vector<RankedLayout> ranked = rank_layouts(cluster, w, Objective::latency);
  ASSERT_EQ(ranked.size(), 10U);
  const Layout best = ranked.front().placement.layout;
  // PP 8 reads as much per GPU as TP 8 (17.6 GB of weights a stage) but passes the 8 stages
  // one after another: 8 × 5.9 ms = 47 ms a token, against TP 8's 6.8 ms of reads plus its
  // all-reduces (under 6.2 ms, as TP 8 stays under 13 ms): over 3× slower, clearly worse.
  const RankedLayout& pp8 = find(ranked, Layout{1, 8, 1, 1});
  EXPECT_EQ(pp8.verdict.level, Level::avoid);
  ASSERT_TRUE(pp8.verdict.compared.has_value());
  EXPECT_EQ(*pp8.verdict.compared, best);
  EXPECT_GE(pp8.verdict.factor, 3.0);
  for (const RankedLayout& r : ranked) {
    if (r.placement.layout == best || !r.placement.fits()) {
      continue;
    }
    ASSERT_TRUE(r.verdict.compared.has_value()) << layout_name(r.placement.layout);
    EXPECT_EQ(*r.verdict.compared, best);
    EXPECT_DOUBLE_EQ(r.verdict.factor,
                     objective_value(r.placement, Objective::latency) /
                         objective_value(ranked.front().placement, Objective::latency));
    if (r.verdict.factor >= clearly_better) {
      EXPECT_EQ(r.verdict.level, Level::avoid) << layout_name(r.placement.layout);
    } else {
      EXPECT_NE(r.verdict.level, Level::avoid) << layout_name(r.placement.layout);
    }
  }
  // 141.1 GB on one GPU does not fit 64 GB usable: avoid, last group of the ranking.
  const RankedLayout& one = find(ranked, Layout{1, 1, 1, 8});
  EXPECT_FALSE(one.placement.fits());
  EXPECT_EQ(one.verdict.level, Level::avoid);
  EXPECT_EQ(one.verdict.basis, VerdictBasis::misfit);
  EXPECT_EQ(pp8.verdict.basis, VerdictBasis::clearly_worse);
  EXPECT_EQ(ranked.front().verdict.basis, VerdictBasis::best);
  EXPECT_GT(rank_of(ranked, Layout{1, 1, 1, 8}), rank_of(ranked, Layout{4, 1, 1, 2}));
}

TEST_F(RankingTest, ReasonsAreWrittenFromTheVerdictsFacts) {
  // The words layer writes what the facts say: the misfit names its bytes, the clearly worse
  // layout names the best one and the factor, and the ranking itself writes no sentence.
  const Cluster cluster = system_cluster("dgx-h100", 8);
  const Workload w = workload_for(catalog, catalog.model("70b"), catalog.dtype("bf16"),
                                  *cluster.gpu, decode(2048, 32));
  std::vector<RankedLayout> ranked = rank_layouts(cluster, w, Objective::latency);
  EXPECT_TRUE(find(ranked, Layout{1, 8, 1, 1}).verdict.reason.empty());
  write_reasons(ranked, w.phase, Objective::latency);
  const std::string& misfit = find(ranked, Layout{1, 1, 1, 8}).verdict.reason;
  EXPECT_EQ(misfit.rfind("does not fit: 141 GB of weights", 0), 0U) << misfit;
  const std::string best = layout_name(ranked.front().placement.layout);
  const std::string& pp8 = find(ranked, Layout{1, 8, 1, 1}).verdict.reason;
  EXPECT_EQ(pp8.rfind(best + " is ", 0), 0U) << pp8;
  EXPECT_NE(pp8.find(" better for latency (TPOT "), std::string::npos) << pp8;
}

TEST_F(RankingTest, TensorParallelAcrossNodesBreaksTheRule) {
  // Two dgx-h100 nodes: TP 16 spans both, its all-reduces cross ib-ndr.
  const Cluster cluster = system_cluster("dgx-h100", 16);
  const Workload w = workload_for(catalog, catalog.model("70b"), catalog.dtype("bf16"),
                                  *cluster.gpu, decode(2048, 32));
  const std::vector<RankedLayout> ranked = rank_layouts(cluster, w, Objective::latency);
  const RankedLayout& tp16 = find(ranked, Layout{16, 1, 1, 1});
  const StrategyCost& tensor = tp16.placement.strategies.at(0);
  EXPECT_EQ(tensor.strategy, Strategy::tensor);
  EXPECT_EQ(tensor.wire, &catalog.link("ib-ndr"));
  EXPECT_TRUE(tensor.crosses_domain);
  EXPECT_TRUE(tensor.verdict.breaks_rule);
  // Judged against the best layout that keeps every group inside a node: in decode the
  // per-token all-reduces over the NICs cost TP 16 more than it saves in weight reads.
  EXPECT_EQ(tp16.verdict.level, Level::marginal);
  EXPECT_EQ(tp16.verdict.basis, VerdictBasis::crossing);
  ASSERT_TRUE(tp16.verdict.compared.has_value());
  EXPECT_EQ(*tp16.verdict.compared, (Layout{8, 1, 1, 2}));
  EXPECT_GT(tp16.verdict.factor, 1.0);
  EXPECT_GT(rank_of(ranked, Layout{16, 1, 1, 1}), rank_of(ranked, Layout{8, 1, 1, 2}));
}

TEST_F(RankingTest, TensorParallelOnNvlinkIsNotAvoidInDecode) {
  // tp --model 70b --phase decode --batch 32 --wire nvlink4 (context: the 4096 default).
  const Model& model = catalog.model("70b");
  const Dtype& bf16 = catalog.dtype("bf16");
  TpRequest r = tp_request_for(model, bf16, bf16);
  r.serving = decode(4096, 32);
  r.serving.act_dtype = &bf16;
  const std::vector<const Link*> links{&catalog.link("nvlink4")};
  const TpReport report = tensor_parallel_report(catalog, r, links);
  ASSERT_EQ(report.wires.size(), 1U);
  ASSERT_TRUE(report.wires[0].judged.has_value());
  EXPECT_NE(report.wires[0].judged->verdict.level, Level::avoid)
      << report.wires[0].judged->verdict.reason;
  EXPECT_EQ(report.wires[0].judged->placement.layout, (Layout{8, 1, 1, 1}));
  EXPECT_EQ(report.wires[0].rank, 1U);
}

TEST_F(RankingTest, Fp8WeightsKeepBf16ActivationsOnTheWire) {
  // tp --model 70b --dtype fp8 --tokens 4096: the all-reduce buffer is 4096 × 8192 × 2 B
  // (activations stay BF16) = 67,108,864 B; FP8 activations halve it.
  const Model& model = catalog.model("70b");
  const Dtype& fp8 = catalog.dtype("fp8");
  const Dtype& bf16 = catalog.dtype("bf16");
  const std::vector<const Link*> links{&catalog.link("nvlink4")};
  TpRequest r = tp_request_for(model, fp8, activation_dtype(catalog, fp8));
  r.serving.tokens = 4096;
  EXPECT_EQ(tensor_parallel_report(catalog, r, links).message.value(), 67108864.0);
  TpRequest narrow = tp_request_for(model, fp8, fp8);
  narrow.serving.tokens = 4096;
  EXPECT_EQ(tensor_parallel_report(catalog, narrow, links).message.value(), 33554432.0);
  // BF16: the headline table, 2 × 4096 × 8192 × 2 B = 134,217,728 B per all-reduce, two per
  // layer (268 MB), 80 layers (21.47 GB).
  TpRequest wide = tp_request_for(model, bf16, bf16);
  wide.serving.tokens = 4096;
  const TpReport report = tensor_parallel_report(catalog, wide, links);
  ASSERT_EQ(report.traffic_terms.size(), 3U);
  EXPECT_EQ(report.traffic_terms[0].bytes.value(), 134217728.0);
  EXPECT_EQ(report.traffic_terms[1].bytes.value(), 268435456.0);
  EXPECT_EQ(report.traffic_terms[2].bytes.value(), 21474836480.0);
}

// NVIDIA, "Boosting Llama 3.1 405B Throughput by Another 1.5x on NVIDIA H200 Tensor Core GPUs
// and NVLink Switch" (TensorRT-LLM technical blog): Llama 3.1 405B in FP8 on 8×H200, TP 8 has
// 5.6× lower minimum latency than PP 8, and PP 8 1.5× higher maximum throughput.
class Llama405bOnH200 : public RankingTest {
protected:
  Cluster cluster = system_cluster("dgx-h200", 8);
  const Dtype& fp8 = catalog.dtype("fp8");

  Workload workload(Objective objective) const {
    ServingRequest r = decode(1024, std::nullopt);
    r.kv_dtype = &fp8;
    r.objective = objective;
    r.max_batch = 1024;
    return workload_for(catalog, catalog.model("405b"), fp8, *cluster.gpu, r);
  }
};

TEST_F(Llama405bOnH200, TensorParallelHasTheLowerLatency) {
  // Batch 1: each GPU of TP 8 reads 405.9 GB / 8 = 50.7 GB once; PP 8 reads as much per
  // stage, but 8 stages one after another. The model gives about 6×; the blog 5.6×.
  const Workload w = workload(Objective::latency);
  const Placement tp8 = evaluate_layout(cluster, w, Layout{8, 1, 1, 1});
  const Placement pp8 = evaluate_layout(cluster, w, Layout{1, 8, 1, 1});
  EXPECT_GT(advantage(tp8, pp8, Objective::latency), 3.0);
  EXPECT_LT(advantage(tp8, pp8, Objective::latency), 10.0);
}

TEST_F(Llama405bOnH200, PipelineHasTheHigherThroughput) {
  // Up to 1024 sequences per replica: TP 8 is compute-bound (2 × 405.9e9 × 1024 / 8 FLOP at
  // 1979e12 × 0.5 = 105 ms) and adds 252 all-reduces of 1024 × 16384 × 2 B = 33.6 MB; PP 8
  // runs micro-batches of 128 with no all-reduce at all. The blog measures 1.5×.
  const Workload w = workload(Objective::throughput);
  const Placement tp8 = evaluate_layout(cluster, w, Layout{8, 1, 1, 1});
  const Placement pp8 = evaluate_layout(cluster, w, Layout{1, 8, 1, 1});
  EXPECT_EQ(tp8.step.batch.total, 1024);
  EXPECT_EQ(pp8.step.batch.total, 1024);
  const double ratio = advantage(pp8, tp8, Objective::throughput);
  EXPECT_GT(ratio, 1.0);
  EXPECT_LT(ratio, 3.0);
}

} // namespace
} // namespace icx::unit_ranking

namespace icx::unit_ranking {
namespace {

class RankInversionTest : public RankingTest {
protected:
  std::vector<RankedLayout> ranked_prefill(const char* model, int gpus) const {
    const Cluster cluster = system_cluster("dgx-h100", gpus);
    ServingRequest serving;
    serving.phase = Phase::prefill;
    serving.tokens = 4096;
    serving.batch = 1;
    const Workload w =
        workload_for(catalog, catalog.model(model), catalog.dtype("bf16"), *cluster.gpu, serving);
    return rank_layouts(cluster, w, Objective::latency);
  }
};

TEST_F(RankInversionTest, EveryLayoutBelowOneItBeatsIsNamedWithTheFirstItBeats) {
  const std::vector<RankedLayout> ranked = ranked_prefill("405b", 16);
  const std::vector<RankInversion> found = rank_inversions(ranked, Objective::latency, 8);
  // Every pair of the first 8 where the lower-ranked has the lower TTFT, found by hand here.
  std::vector<std::pair<std::size_t, std::size_t>> expected;
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (ranked[i].placement.step.latency.value() < ranked[j].placement.step.latency.value()) {
        expected.emplace_back(i, j);
        break;
      }
    }
  }
  ASSERT_EQ(found.size(), expected.size());
  ASSERT_FALSE(found.empty());
  for (std::size_t k = 0; k < found.size(); ++k) {
    EXPECT_EQ(found[k].rank, expected[k].first);
    EXPECT_EQ(found[k].above, expected[k].second);
  }
}

TEST_F(RankInversionTest, AMisfitRanksBelowEveryLayoutThatFits) {
  // 405 G parameters in bf16 are 811 GB: TP 8 × DP 2 holds a whole copy on 8 × 80 GB and
  // cannot fit, yet its TTFT is that of TP 8 × PP 2 without the stage sends.
  const std::vector<RankedLayout> ranked = ranked_prefill("405b", 16);
  const std::vector<RankInversion> found =
      rank_inversions(ranked, Objective::latency, ranked.size());
  const std::size_t tp8dp2 = rank_of(ranked, Layout{8, 1, 1, 2});
  const auto it = std::ranges::find(found, tp8dp2, &RankInversion::rank);
  ASSERT_NE(it, found.end());
  EXPECT_EQ(it->why, RankedBelow::misfit);
  EXPECT_TRUE(ranked[it->above].placement.fits());
  const std::vector<std::string> words =
      inversion_sentences(ranked, found, Phase::prefill, Objective::latency);
  ASSERT_FALSE(words.empty());
  EXPECT_NE(words.back().find("#" + std::to_string(tp8dp2 + 1) + " TP 8 × DP 2 (TTFT "),
            std::string::npos)
      << words.back();
  EXPECT_NE(words.back().find("does not fit"), std::string::npos) << words.back();
}

TEST_F(RankInversionTest, AGroupAcrossNodesNeedsToBeClearlyBetter) {
  // 70B on two 8-GPU nodes: TP 16 spans both over InfiniBand, a faster prefill than TP 8 × DP
  // 2 but not 1.5× faster, so the rule keeps it below.
  const std::vector<RankedLayout> ranked = ranked_prefill("70b", 16);
  const std::size_t tp16 = rank_of(ranked, Layout{16, 1, 1, 1});
  const std::size_t tp8dp2 = rank_of(ranked, Layout{8, 1, 1, 2});
  ASSERT_LT(tp8dp2, tp16);
  const double ratio =
      ranked[tp8dp2].placement.step.latency.value() / ranked[tp16].placement.step.latency.value();
  ASSERT_GT(ratio, 1.0);
  ASSERT_LT(ratio, clearly_better);
  const std::vector<RankInversion> found =
      rank_inversions(ranked, Objective::latency, ranked.size());
  const auto it = std::ranges::find(found, tp16, &RankInversion::rank);
  ASSERT_NE(it, found.end());
  EXPECT_EQ(it->why, RankedBelow::placement_rule);
  const std::vector<std::string> words =
      inversion_sentences(ranked, found, Phase::prefill, Objective::latency);
  EXPECT_NE(words.front().find("placement rule"), std::string::npos) << words.front();
  EXPECT_NE(words.front().find("1.5×"), std::string::npos) << words.front();
}

} // namespace
} // namespace icx::unit_ranking
