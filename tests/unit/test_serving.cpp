#include "icx/serving/serving.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/serving/step_model.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_serving {
namespace {

// Shipped catalog models, so the figures below are the models' published configurations.
class ServingTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();
};

TEST_F(ServingTest, ParamSplitOfDeepSeekV3) {
  // 671e9 total, 37e9 active, 256 routed experts, 8 per token: the 248 experts a token does
  // not use hold 671e9 − 37e9, so one expert is 634e9 / 248 = 2.5565e9 parameters, and the
  // shared part is 671e9 − 256 × that = 16.548e9. 61 layers, the first 3 dense: 58 MoE layers.
  const ParamSplit split = param_split(catalog.model("deepseek-v3"));
  const double per_expert = (671e9 - 37e9) / 248;
  EXPECT_DOUBLE_EQ(split.per_expert, per_expert);
  EXPECT_NEAR(split.dense, 671e9 - 256 * per_expert, 1e3);
  EXPECT_NEAR(split.dense, 16.548e9, 0.001e9);
  EXPECT_EQ(split.moe_layers, 58);
  // The identity the split rests on: active = dense + 8 experts.
  EXPECT_NEAR(split.dense + 8 * split.per_expert, 37e9, 1e3);
}

TEST_F(ServingTest, ParamSplitOfMixtral) {
  // 46,702,792,704 total, 12,879,925,248 active, 8 experts, top 2: one expert is
  // 33,822,867,456 / 6 = 5,637,144,576; dense = 46,702,792,704 − 8 × 5,637,144,576 =
  // 1,605,636,096. Every one of the 32 layers is an MoE layer.
  const ParamSplit split = param_split(catalog.model("mixtral"));
  EXPECT_NEAR(split.per_expert, 5637144576.0, 1.0);
  EXPECT_NEAR(split.dense, 1605636096.0, 8.0);
  EXPECT_EQ(split.moe_layers, 32);
}

TEST_F(ServingTest, ParamSplitOfADenseModelHasNoExperts) {
  const ParamSplit split = param_split(catalog.model("70b"));
  EXPECT_EQ(split.per_expert, 0.0);
  EXPECT_EQ(split.dense, 70553706496.0);
  EXPECT_EQ(split.moe_layers, 0);
}

TEST_F(ServingTest, ParamSplitRejectsATokenRoutedToEveryExpert) {
  Model model = catalog.model("mixtral");
  model.experts_per_token = model.experts; // all 8 of 8, yet active < total
  EXPECT_THROW((void)param_split(model), InputError);
}

TEST_F(ServingTest, PrefillAttentionIsQuadraticInTheTokens) {
  // Llama 3.1 70B: 64 heads of 128, 80 layers. Per query-key pair and head: 2 FLOPs × (128
  // for the scores + 128 for the values); causal prefill of T tokens has T²/2 pairs.
  // 64 × 256 × 2 × 131,072² / 2 × 80 = 1.25 × 2^54 = 22,517,998,136,852,480.
  const Model& model = catalog.model("70b");
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 131072, 0), 22517998136852480.0);
  // A quarter of it at half the tokens.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 65536, 0), 22517998136852480.0 / 4);
}

TEST_F(ServingTest, PrefillAfterACachedPrefixAttendsOverItToo) {
  // 70B, 1,024 new tokens after 7,168 cached: each new token sees the whole prefix and the new
  // ones before it, 1,024 × 7,168 + 1,024²/2 = 7,864,320 pairs (of the 33,554,432 a cold
  // 8,192-token prompt has), at 64 × 256 × 2 × 80 = 2,621,440 FLOPs a pair.
  const Model& model = catalog.model("70b");
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 1024, 7168), 2621440.0 * 7864320);
  // The two passes together compute exactly the cold prompt's pairs.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 7168, 0) +
                       attention_flops(model, Phase::prefill, 1024, 7168),
                   attention_flops(model, Phase::prefill, 8192, 0));
}

TEST(PrefixCached, TheHitsShareRoundedShortOfTheWholePrompt) {
  EXPECT_EQ(prefix_cached(8192, 0, 1), 0);
  // 0.8 × 8,192 = 6,553.6.
  EXPECT_EQ(prefix_cached(8192, 0.8, 1), 6554);
  EXPECT_EQ(prefix_share(8192, 0.8), 6554);
  // A full hit still computes the last token (for its logits).
  EXPECT_EQ(prefix_cached(8192, 1, 1), 8191);
  EXPECT_EQ(prefix_cached(1, 1, 1), 0);
}

TEST(PrefixCached, WholeBlocksOnly) {
  // vLLM's 16-token blocks: 6,554 tokens fill 409 blocks (6,544 tokens), 10 left over.
  EXPECT_EQ(prefix_cached(8192, 0.8, 16), 6544);
  // A 32-token prompt found whole: 31 tokens may be cached, one whole block of them is
  // (vLLM recomputes the last block).
  EXPECT_EQ(prefix_cached(32, 1, 16), 16);
  // 0.95 of a 90-token prompt is 85.5, rounded to 86: five blocks.
  EXPECT_EQ(prefix_cached(90, 0.95, 16), 80);
  // A prompt of 16 tokens or fewer finds no block.
  EXPECT_EQ(prefix_cached(16, 1, 16), 0);
  EXPECT_EQ(prefix_cached(17, 1, 16), 16);
}

TEST_F(ServingTest, SparseAttentionReadsTheTopKAndIndexesEveryToken) {
  // DeepSeek-V3.2, 61 layers, 128 heads. Decode at 10,000 tokens: absorbed attention over the
  // indexer's top 2,048 (2 × 128 × (576 + 512) FLOPs a token), the indexer over all 10,000
  // (2 × 64 × 128 a token).
  const Model& model = catalog.model("deepseek-v3.2");
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::decode, 1, 10000),
                   61 * (2.0 * 128 * 1088 * 2048 + 2.0 * 64 * 128 * 10000));
  // Prefill of 4,096: the first 2,048 tokens attend causally (2,048²/2 pairs), the others to
  // 2,048 each, at 2 × 128 × (192 + 128) a pair; the indexer scores all 4,096²/2 pairs.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 4096, 0),
                   61 * (2.0 * 128 * 320 * (2048.0 * 2048 / 2 + 2048.0 * 2048) +
                         2.0 * 64 * 128 * 4096.0 * 4096 / 2));
  // A decode step reads the latents of 2,048 tokens (576 BF16 values each) and the indexer's
  // keys (132 B) of all 10,000, on each of the 61 layers; the cache holds all of both.
  const Dtype& bf16 = catalog.dtype("bf16");
  EXPECT_DOUBLE_EQ(kv_bytes_read_per_sequence(model, bf16, 10000).value(),
                   61 * (2048 * 576 * 2.0 + 10000 * 132.0));
  EXPECT_DOUBLE_EQ(kv_bytes_per_sequence(model, bf16, 10000).value(),
                   61 * 10000 * (576 * 2.0 + 132));
}

TEST_F(ServingTest, DecodeAttentionIsLinearInTheContext) {
  // One token against 2048 cached: 64 × 256 × 2 × 2048 × 80 = 5,368,709,120.
  const Model& model = catalog.model("70b");
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::decode, 1, 2048), 5368709120.0);
}

TEST_F(ServingTest, LatentAttentionAbsorbsInDecodeAndExpandsInPrefill) {
  // DeepSeek-V3, 128 heads, 61 layers. Decode attends over the latent (512) and its rotary
  // key (64), and the value is the latent: 2 × 128 × (576 + 512) × context × 61.
  const Model& model = catalog.model("deepseek-v3");
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::decode, 1, 1000),
                   2.0 * 128 * (576 + 512) * 1000 * 61);
  // Prefill expands the heads: keys of 128 + 64, values of 128; 1000²/2 pairs.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 1000, 0),
                   2.0 * 128 * (192 + 128) * 500000 * 61);
}

TEST(ExpertsTouched, OneTokenTouchesItsTopK) {
  // E(1 − (1 − k/E)^1) = k.
  EXPECT_NEAR(experts_touched(256, 8, 1), 8.0, 1e-9);
  EXPECT_NEAR(experts_touched(8, 2, 1), 2.0, 1e-12);
  // Two tokens of Mixtral: 8 × (1 − 0.75²) = 3.5.
  EXPECT_NEAR(experts_touched(8, 2, 2), 3.5, 1e-12);
}

TEST(ExpertsTouched, ManyTokensTouchEveryExpert) {
  EXPECT_NEAR(experts_touched(256, 8, 100000), 256.0, 1e-9);
  EXPECT_EQ(experts_touched(256, 8, 0), 0.0);
  EXPECT_EQ(experts_touched(0, 8, 10), 0.0);
}

TEST(ExpertsTouched, BusiestGpuIsBounded) {
  // A group of one holds every expert: the busiest GPU runs all the batch touches.
  EXPECT_DOUBLE_EQ(busiest_gpu_experts(256, 8, 4, 1), experts_touched(256, 8, 4));
  for (const double tokens : {1.0, 4.0, 32.0, 1024.0, 100000.0}) {
    for (const int group : {2, 4, 8, 32}) {
      const double busiest = busiest_gpu_experts(256, 8, tokens, group);
      EXPECT_LE(busiest, 256.0 / group + 1e-9) << tokens << " tokens, group " << group;
      EXPECT_LE(busiest, experts_touched(256, 8, tokens) + 1e-9);
      // At least the mean share of what the batch touches.
      EXPECT_GE(busiest, experts_touched(256, 8, tokens) / group - 1e-9);
    }
  }
  // Every expert touched: each GPU of 8 runs all 32 it holds.
  EXPECT_NEAR(busiest_gpu_experts(256, 8, 100000, 8), 32.0, 1e-9);
}

} // namespace
} // namespace icx::unit_serving
