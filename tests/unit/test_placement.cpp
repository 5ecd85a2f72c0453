#include "icx/placement.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/error.hpp"
#include "test_fixtures.hpp"

namespace icx {
namespace {

using test::make_dense;
using test::make_link;

class PlacementTest : public ::testing::Test, protected test::ClusterParts {
protected:
  std::vector<Dtype> dtypes{bf16};

  Cluster cluster(int gpus, int domain, const Link& up) const {
    return Cluster{&gpu, gpus, domain, domain, &up, &ndr};
  }
  Workload workload(const Model& model) const {
    return Workload{&model, &bf16, 4096, compute_rate(gpu, bf16, dtypes, 0.5), 0.2};
  }
};

TEST_F(PlacementTest, SeedRuleTensorInsideTheNode) {
  // 70e9 params × 2 B = 140 GB; 80 GB × (1 − 0.2) = 64 GB usable: tp 1 and 2 leave 140 and
  // 70 GB per GPU, tp 4 leaves 35 GB: the smallest group that fits. The rest are replicas.
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Layout layout = recommend_layout(cluster(16, 8, nvlink), workload(model));
  EXPECT_EQ(layout.tp, 4);
  EXPECT_EQ(layout.pp, 1);
  EXPECT_EQ(layout.ep, 1);
  EXPECT_EQ(layout.dp, 4);
  const Placement p = evaluate_layout(cluster(16, 8, nvlink), workload(model), layout);
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.per_gpu_weights.value(), 35e9);
  EXPECT_EQ(p.strategies[0].wire, &nvlink);
  EXPECT_FALSE(p.strategies[0].crosses_domain);
  EXPECT_EQ(p.level, Level::ok);
}

TEST_F(PlacementTest, SeedRulePipelineAcrossNodesWhenOneNodeCannotHoldIt) {
  // 405e9 × 2 B = 810 GB: 101 GB per GPU at tp 8 does not fit 64 GB; two stages of 8 do
  // (50.6 GB). The stage boundary is rank 7 | 8, the node edge: it crosses ib-ndr.
  const Model model = make_dense(16384, 126, 405e9, 128);
  const Layout layout = recommend_layout(cluster(32, 8, nvlink), workload(model));
  EXPECT_EQ(layout.tp, 8);
  EXPECT_EQ(layout.pp, 2);
  EXPECT_EQ(layout.dp, 2);
  const Placement p = evaluate_layout(cluster(32, 8, nvlink), workload(model), layout);
  const StrategyCost& pp = p.strategies[2];
  EXPECT_EQ(pp.wire, &ndr);
  EXPECT_TRUE(pp.crosses_domain);
  // 4096 × 16384 × 2 B over 50 GB/s.
  EXPECT_DOUBLE_EQ(pp.seconds.value(), 134217728.0 / 50e9);
  EXPECT_EQ(pp.verdict.level, Level::ok);
}

TEST_F(PlacementTest, TensorParallelAcrossNodesIsFlagged) {
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Placement p = evaluate_layout(cluster(16, 8, nvlink), workload(model), Layout{16, 1, 1, 1});
  const StrategyCost& tp = p.strategies[0];
  EXPECT_TRUE(tp.crosses_domain);
  EXPECT_EQ(tp.wire, &ndr);
  // 21,474,836,480 B on each wire.
  EXPECT_DOUBLE_EQ(tp.seconds.value(), 21474836480.0 / 50e9);
  EXPECT_DOUBLE_EQ(tp.seconds_on_scale_up.value(), 21474836480.0 / 900e9);
  EXPECT_TRUE(tp.verdict.breaks_rule);
  EXPECT_EQ(p.level, Level::avoid);
}

TEST_F(PlacementTest, Nvl72KeepsLargeGroupsOnNvlink) {
  const Link nvlink5 = make_link("nvlink5", Tier::scale_up, 1800);
  const Model model = make_dense(16384, 126, 405e9, 144);
  const Cluster rack{&gpu, 72, 72, 72, &nvlink5, &ndr};
  const Placement p = evaluate_layout(rack, workload(model), Layout{72, 1, 1, 1});
  EXPECT_FALSE(p.strategies[0].crosses_domain);
  EXPECT_EQ(p.strategies[0].wire, &nvlink5);
  EXPECT_FALSE(p.strategies[0].verdict.breaks_rule);
  // 64 of 72 GPUs: one domain still holds the whole group.
  const Cluster part{&gpu, 64, 72, 72, &nvlink5, &ndr};
  Model m128 = model;
  m128.attention_heads = 128;
  EXPECT_FALSE(
      evaluate_layout(part, workload(m128), Layout{64, 1, 1, 1}).strategies[0].crosses_domain);
}

TEST_F(PlacementTest, MoeUsesExpertParallelInsideTheDomain) {
  Model moe = make_dense(4096, 32, 46.7e9, 32);
  moe.active_params = 12.9e9;
  moe.experts = 8;
  moe.experts_per_token = 2;
  // 93.4 GB does not fit 64 GB; two expert shards of 46.7 GB do.
  const Layout layout = recommend_layout(cluster(8, 8, nvlink), workload(moe));
  EXPECT_EQ(layout.ep, 2);
  EXPECT_EQ(layout.tp, 1);
  EXPECT_EQ(layout.dp, 4);
  const Placement p = evaluate_layout(cluster(8, 8, nvlink), workload(moe), layout);
  EXPECT_EQ(p.strategies[1].wire, &nvlink);
  EXPECT_EQ(p.strategies[1].bytes.value(), 2147483648.0);
}

TEST_F(PlacementTest, ModelTooLargeForTheClusterDoesNotFit) {
  const Model model = make_dense(7168, 61, 1000e9, 128);
  const Layout layout = recommend_layout(cluster(8, 8, nvlink), workload(model));
  const Placement p = evaluate_layout(cluster(8, 8, nvlink), workload(model), layout);
  EXPECT_FALSE(p.fits);
  EXPECT_EQ(p.level, Level::avoid);
}

TEST_F(PlacementTest, PcieOnlyNodeShardsWithPipelineNotTensor) {
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Layout layout = recommend_layout(cluster(8, 8, pcie), workload(model));
  EXPECT_EQ(layout.tp, 1);
  EXPECT_EQ(layout.pp, 4); // 140 GB / 4 = 35 GB fits 64 GB
  EXPECT_EQ(layout.dp, 2);
  const Placement p = evaluate_layout(cluster(8, 8, pcie), workload(model), layout);
  EXPECT_EQ(p.strategies[2].wire, &pcie);
  EXPECT_EQ(p.level, Level::ok);
}

TEST_F(PlacementTest, BadLayoutsAreErrors) {
  const Model model = make_dense(8192, 80, 70e9, 64);
  EXPECT_THROW((void)evaluate_layout(cluster(16, 8, nvlink), workload(model), Layout{3, 1, 1, 5}),
               InputError);
  EXPECT_THROW((void)evaluate_layout(cluster(6, 8, nvlink), workload(model), Layout{3, 1, 1, 2}),
               InputError); // 3 does not divide 64 heads
  EXPECT_THROW((void)evaluate_layout(cluster(8, 8, nvlink), workload(model), Layout{1, 1, 2, 4}),
               InputError); // expert parallel on a dense model
}

TEST_F(PlacementTest, TensorGroupsSplitOrReplicateKvHeads) {
  // 40 query heads, 10 KV heads: tp 4 divides 40 but neither divides 10 nor is a multiple of
  // it; tp 20 replicates each KV head twice.
  Model model = make_dense(5120, 40, 13e9, 40);
  model.kv_heads = 10;
  EXPECT_THROW((void)evaluate_layout(cluster(8, 8, nvlink), workload(model), Layout{4, 1, 1, 2}),
               InputError);
  EXPECT_NO_THROW(
      (void)evaluate_layout(cluster(20, 20, nvlink), workload(model), Layout{20, 1, 1, 1}));
  // 26 GB of weights: 64 GB usable holds it on one GPU, so the rule keeps tp at 1; with a
  // 15 % budget (12 GB) it needs 4 GPUs, which the KV heads forbid: tp 2 × pp 2.
  Workload tight = workload(model);
  tight.memory_reserve = 0.85;
  const Layout layout = recommend_layout(cluster(8, 8, nvlink), tight);
  EXPECT_EQ(layout.tp, 2);
  EXPECT_EQ(layout.pp, 2);
}

TEST_F(PlacementTest, ContradictoryClustersAreNamedByPart) {
  const std::vector<Link> links{nvlink, ndr, pcie};
  // The GPU's own link inside, InfiniBand between: consistent.
  EXPECT_FALSE(cluster_problem(cluster(16, 8, nvlink), 8, "catalog gpu 'g'", links).has_value());
  // A scale-up link the GPU does not have.
  const Link other = make_link("other", Tier::scale_up, 900);
  const auto up = cluster_problem(cluster(8, 8, other), 8, "catalog gpu 'g'", links);
  ASSERT_TRUE(up.has_value());
  EXPECT_EQ(up->part, ClusterPart::scale_up);
  // Two 8-GPU domains joined by the scale-up link.
  Cluster joined = cluster(16, 8, nvlink);
  joined.scale_out = &nvlink;
  const auto out = cluster_problem(joined, 8, "catalog gpu 'g'", links);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->part, ClusterPart::scale_out);
  // Nodes of 4 inside one 16-GPU domain may be joined by it.
  Cluster trays = cluster(16, 4, nvlink);
  trays.scale_out = &nvlink;
  EXPECT_FALSE(cluster_problem(trays, 16, "catalog gpu 'g'", links).has_value());
}

} // namespace
} // namespace icx
