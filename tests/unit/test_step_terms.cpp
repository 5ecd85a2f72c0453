#include "icx/serving/step_terms.hpp"

#include <gtest/gtest.h>

#include "icx/serving/step_model.hpp"

namespace icx::unit_step_terms {
namespace {

TEST(StepTerms, LlamaEightBLayersByHand) {
  // meta-llama/Llama-3.1-8B config.json: hidden 4096, 32 heads, 8 KV heads of 128, MLP 14336,
  // vocabulary 128,256. QKV 6144 × 4096, output 4096 × 4096, gate and up 28,672 × 4096, down
  // 4096 × 14,336: 218,103,808 per layer. The 8,030,261,248 parameters less the embedding and
  // LM head (2 × 525,336,576) and those 32 layers leave 266,240 (the norms), spread over the
  // layers as a 3.8e-5 scale.
  const Catalog catalog = Catalog::shipped();
  const std::vector<LayerWeight> w = layer_weights(catalog.model("8b"));
  ASSERT_EQ(w.size(), 5U);
  const double scale = (8030261248.0 - 2 * 525336576.0) / (218103808.0 * 32);
  EXPECT_EQ(w[0].op, StepOp::qkv);
  EXPECT_NEAR(w[0].n, 6144 * scale, 1e-9);
  EXPECT_EQ(w[0].k, 4096);
  EXPECT_EQ(w[1].op, StepOp::attention_out);
  EXPECT_EQ(w[1].split, WeightSplit::inputs);
  EXPECT_EQ(w[2].op, StepOp::mlp_up);
  EXPECT_NEAR(w[2].n, 28672 * scale, 1e-9);
  EXPECT_EQ(w[3].op, StepOp::mlp_down);
  EXPECT_EQ(w[3].k, 14336);
  EXPECT_EQ(w[4].op, StepOp::lm_head);
  EXPECT_EQ(w[4].n, 128256);
  EXPECT_EQ(w[4].layers, 1);
  EXPECT_NEAR(scale, 1 + 266240.0 / (218103808.0 * 32), 1e-12);
}

TEST(StepTerms, MixtralExpertsFromTheirParameters) {
  // Mixtral 8x7B: (46,702,792,704 − 12,879,925,248) / 6 = 5.637e9 per expert over 32 layers,
  // 3 × 4096 × 14,336 each: the expert GEMMs are 28,672 × 4096 and 4096 × 14,336.
  const Catalog catalog = Catalog::shipped();
  const std::vector<LayerWeight> w = layer_weights(catalog.model("mixtral"));
  const auto up = std::ranges::find(w, StepOp::experts_up, &LayerWeight::op);
  ASSERT_NE(up, w.end());
  EXPECT_NEAR(up->n, 28672, 0.01);
  EXPECT_EQ(up->layers, 32);
}

TEST(StepTerms, GroupedGemmsLaunchOnce) {
  // Eight GEMMs of one token through 4096 × 1024 on h100-sxm (bf16 curve: 2.6 µs launch):
  // one kernel costs the launch once, so eight cost 8 × (one − 2.6 µs) + 2.6 µs.
  const Catalog catalog = Catalog::shipped();
  const Gpu& gpu = catalog.gpu("h100-sxm");
  const Dtype& bf16 = catalog.dtype("bf16");
  const GemmPricing pricing{&gpu, &bf16, FlopsPerSecond::of(1e15), 1.0, true};
  const GemmShape shape{1, 4096, 1024};
  const StepTerm one = price_gemms(pricing, StepOp::experts_up, shape, 1);
  const StepTerm eight = price_gemms(pricing, StepOp::experts_up, shape, 8);
  EXPECT_NEAR(eight.seconds.value(), 8 * (one.seconds.value() - 2.6e-6) + 2.6e-6, 1e-15);
  EXPECT_DOUBLE_EQ(eight.flops.value(), 8 * 2.0 * 4096 * 1024);
}

TEST(StepTerms, WithoutACurveTheLongerBound) {
  // a30 has no curve: 4096 tokens through 8192 × 8192 at 82.5 TFLOP/s (165 × 0.5) take
  // 2 × 4096 × 8192² / 82.5e12 = 6.664 ms of compute against 268,435,456 B at 933 GB/s ×
  // 0.85 = 338.5 µs of memory.
  const Catalog catalog = Catalog::shipped();
  const Gpu& gpu = catalog.gpu("a30");
  const GemmPricing pricing{&gpu, &catalog.dtype("bf16"), FlopsPerSecond::of(82.5e12), 0.85, true};
  const StepTerm t = price_gemms(pricing, StepOp::mlp_up, {4096, 8192, 8192}, 1);
  EXPECT_EQ(t.bound, GemmBound::compute);
  EXPECT_NEAR(t.seconds.value(), 2.0 * 4096 * 8192 * 8192 / 82.5e12, 1e-12);
  EXPECT_NEAR(t.memory.value(), 268435456.0 / (933e9 * 0.85), 1e-12);
}

TEST(StepTerms, MfuSetsAsideTheCurves) {
  // --mfu prices every GEMM at one utilisation: the request's utilisation turns the curves off.
  const Catalog catalog = Catalog::shipped();
  ServingRequest r;
  r.tokens = 4096;
  const Workload curves =
      workload_for(catalog, catalog.model("8b"), catalog.dtype("bf16"), catalog.gpu("h100-sxm"), r);
  EXPECT_TRUE(curves.gemm_curves);
  r.utilization = 0.4;
  const Workload flat =
      workload_for(catalog, catalog.model("8b"), catalog.dtype("bf16"), catalog.gpu("h100-sxm"), r);
  EXPECT_FALSE(flat.gemm_curves);
}

} // namespace
} // namespace icx::unit_step_terms
