#include "icx/serving/placement.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_placement {
namespace {

using test::make_dense;
using test::make_link;

class PlacementTest : public ::testing::Test, protected test::ClusterParts {
protected:
  std::vector<Dtype> dtypes{bf16};

  Cluster cluster(int gpus, int domain, const Link& up) const {
    return Cluster{&gpu, gpus, domain, domain, &up, &ndr, domain};
  }
  /// A prefill of one 4096-token prompt at 989e12 × 0.5 FLOP/s, 20 % of HBM kept free.
  Workload workload(const Model& model) const {
    Workload w;
    w.model = &model;
    w.dtype = &bf16;
    w.act_dtype = &bf16;
    w.kv_dtype = &bf16;
    w.phase = Phase::prefill;
    w.tokens = 4096;
    w.batch = 1;
    w.rate = compute_rate(gpu, bf16, dtypes, 0.5);
    w.memory_reserve = 0.2;
    return w;
  }
};

TEST_F(PlacementTest, TensorGroupInsideTheNode) {
  // 70e9 params × 2 B = 140 GB over tp 4: 35 GB per GPU, within 80 GB × (1 − 0.2) = 64 GB.
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Placement p = evaluate_layout(cluster(16, 8, nvlink), workload(model), Layout{4, 1, 1, 4});
  EXPECT_TRUE(p.fits());
  EXPECT_EQ(p.weights.value(), 140e9);
  EXPECT_EQ(p.memory.weights_per_gpu.value(), 35e9);
  EXPECT_EQ(p.memory.usable_per_gpu.value(), 64e9);
  ASSERT_EQ(p.strategies.size(), 4U);
  EXPECT_EQ(p.strategies[0].wire, &nvlink);
  EXPECT_FALSE(p.strategies[0].crosses_domain);
  // 2 × 80 all-reduces of 2 × 4096 × 8192 × 2 B = 21.47 GB over 900 GB/s = 23.9 ms, against
  // 2 × 70e9 × 4096 / 4 / (989e12 × 0.5) = 290 ms of compute: 7.6 % of the step.
  const double comm = 21474836480.0 / 900e9;
  const double compute = 2 * 70e9 * 4096 / 4 / (989e12 * 0.5);
  EXPECT_DOUBLE_EQ(p.strategies[0].seconds.value(), comm);
  EXPECT_NEAR(p.step.work.compute.value(), compute, 1e-12);
  EXPECT_NEAR(p.step.stage.value(), compute + comm, 1e-12);
  EXPECT_NEAR(p.strategies[0].verdict.share, comm / (compute + comm), 1e-12);
  EXPECT_EQ(p.level, Level::ok);
}

TEST_F(PlacementTest, PipelineAcrossNodes) {
  // 405e9 × 2 B over tp 8 × pp 2: 50.6 GB per GPU. The stage boundary is rank 7 | 8, the
  // node edge: it crosses ib-ndr.
  const Model model = make_dense(16384, 126, 405e9, 128);
  const Placement p = evaluate_layout(cluster(32, 8, nvlink), workload(model), Layout{8, 2, 1, 2});
  EXPECT_TRUE(p.fits());
  EXPECT_EQ(p.memory.weights_per_gpu.value(), 810e9 / 16);
  const StrategyCost& pp = p.strategies[2];
  EXPECT_EQ(pp.wire, &ndr);
  EXPECT_TRUE(pp.crosses_domain);
  // One prompt: 4096 × 16384 × 2 B over 50 GB/s.
  EXPECT_DOUBLE_EQ(pp.seconds.value(), 134217728.0 / 50e9);
  EXPECT_DOUBLE_EQ(p.step.pipeline.value(), 134217728.0 / 50e9);
  EXPECT_FALSE(pp.verdict.breaks_rule);
  EXPECT_EQ(pp.verdict.level, Level::ok);
  // A request passes both stages one after another, then the send.
  EXPECT_NEAR(p.step.latency.value(), 2 * p.step.stage.value() + 134217728.0 / 50e9, 1e-12);
  // Throughput counts the send too: a stage's GPUs send its activations before they take the
  // next micro-batch, so one leaves every stage + slowest send: 4096 tokens per 2 such
  // intervals (one micro-batch per stage in flight) over 32 GPUs.
  EXPECT_EQ(pp.slowest_send.value(), 134217728.0 / 50e9);
  EXPECT_NEAR(p.step.tokens_per_second_per_gpu,
              4096 / (2 * (p.step.stage.value() + 134217728.0 / 50e9)) / 32, 1e-9);
}

TEST_F(PlacementTest, TensorParallelAcrossNodesIsFlagged) {
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Placement p = evaluate_layout(cluster(16, 8, nvlink), workload(model), Layout{16, 1, 1, 1});
  const StrategyCost& tp = p.strategies[0];
  EXPECT_TRUE(tp.crosses_domain);
  EXPECT_EQ(tp.wire, &ndr);
  // Across nodes the headline is the fabric's: 160 all-reduces of 4096 × 8192 × 2 =
  // 67,108,864 B, each by the ring (2·15/16 of S, faster than the tree's 2S) over the node's
  // eight 50 GB/s NICs together, nothing lost. On the scale-up link: 21,474,836,480 B at 900.
  EXPECT_NEAR(tp.seconds.value(), 160 * (2.0 * 15 / 16) * 67108864.0 / (8 * 50e9), 1e-12);
  ASSERT_TRUE(tp.seconds_on_scale_up.has_value());
  EXPECT_DOUBLE_EQ(tp.seconds_on_scale_up->value(), 21474836480.0 / 900e9);
  EXPECT_TRUE(tp.verdict.breaks_rule);
  // ib-ndr here has no expected model, so nothing prices the group across nodes beyond the
  // headline arithmetic: the placement rule's avoid stands.
  EXPECT_EQ(tp.verdict.level, Level::avoid);
}

TEST_F(PlacementTest, AGroupLeavingTheNodeGetsItsShareOfTheNics) {
  Cluster c = cluster(16, 8, nvlink);
  // TP 16 over two 8-GPU nodes with a NIC per GPU: 8 members and 8 NICs on each node.
  EXPECT_EQ(group_fabric(c, 16, 16), (Fabric{&nvlink, 8, &ndr, 8}));
  // A pair one node apart (TP 8 × DP 2's replicas): one member and one rail per node.
  EXPECT_EQ(group_fabric(c, 2, 16), (Fabric{&nvlink, 1, &ndr, 1}));
  // Four NICs for eight GPUs: half a NIC per GPU, at least one.
  c.nics_per_node = 4;
  EXPECT_EQ(group_fabric(c, 16, 16), (Fabric{&nvlink, 8, &ndr, 4}));
  EXPECT_EQ(group_fabric(c, 2, 16), (Fabric{&nvlink, 1, &ndr, 1}));
  // 16 members over 32 ranks of four nodes: 4 on each, with 4 of its 8 NICs.
  const Cluster big = cluster(32, 8, nvlink);
  EXPECT_EQ(group_fabric(big, 16, 32), (Fabric{&nvlink, 4, &ndr, 4}));
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

TEST_F(PlacementTest, ExpertParallelInsideTheDomain) {
  Model moe = make_dense(4096, 32, 46.7e9, 32);
  moe.active_params = 12.9e9;
  moe.experts = 8;
  moe.experts_per_token = 2;
  const Placement p = evaluate_layout(cluster(8, 8, nvlink), workload(moe), Layout{1, 1, 2, 4});
  // One expert: (46.7e9 − 12.9e9) / 6 = 5.633e9; the shared part 46.7e9 − 8 × that =
  // 1.633e9 stays whole on both ranks, which hold 4 experts each: 24.17e9 params × 2 B.
  const double per_expert = (46.7e9 - 12.9e9) / 6;
  const double dense = 46.7e9 - 8 * per_expert;
  EXPECT_NEAR(p.memory.weights_per_gpu.value(), (dense + 4 * per_expert) * 2, 1e3);
  EXPECT_EQ(p.strategies[1].wire, &nvlink);
  // DeepEP's normal kernels (a prefill) inside one node: each of the 4096 tokens goes once to
  // each GPU holding one of its 2 experts, 2 · (1 − C(4, 2) / C(8, 2)) = 11/7 GPUs, of which
  // half are the sender itself; 4096 × 2 B per token, dispatch and combine × 32 layers.
  EXPECT_NEAR(p.strategies[1].bytes.value(), 4096 * (11.0 / 7) * 0.5 * 8192 * 2 * 32, 1e-3);
}

TEST_F(PlacementTest, ModelTooLargeForTheClusterDoesNotFit) {
  // 2 TB over 8 GPUs: 250 GB each against 64 GB usable.
  const Model model = make_dense(7168, 61, 1000e9, 128);
  const Placement p = evaluate_layout(cluster(8, 8, nvlink), workload(model), Layout{8, 1, 1, 1});
  EXPECT_FALSE(p.fits());
  EXPECT_EQ(p.memory.weights_per_gpu.value(), 250e9);
  EXPECT_EQ(p.memory.replica_capacity, 0);
}

TEST_F(PlacementTest, TensorParallelOnPcieInsideANodeKeepsTheRule) {
  // PCIe between the GPUs of one node: allowed; the step model prices it. 21.47 GB of
  // all-reduce over 32 GB/s = 671 ms.
  const Model model = make_dense(8192, 80, 70e9, 64);
  const Placement p = evaluate_layout(cluster(8, 8, pcie), workload(model), Layout{8, 1, 1, 1});
  EXPECT_EQ(p.strategies[0].wire, &pcie);
  EXPECT_FALSE(p.strategies[0].verdict.breaks_rule);
  EXPECT_DOUBLE_EQ(p.strategies[0].seconds.value(), 21474836480.0 / 32e9);
  EXPECT_NE(p.level, Level::avoid);
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
} // namespace icx::unit_placement
