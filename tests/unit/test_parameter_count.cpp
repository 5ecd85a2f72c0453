#include "icx/catalog/parameter_count.hpp"

#include <gtest/gtest.h>

#include "icx/base/error.hpp"

namespace icx::unit_parameter_count {
namespace {

// A toy decoder small enough to count by hand: hidden 8, 2 layers, 2 heads of 4, 1 KV head,
// MLP width 16, vocabulary 10.
Model toy() {
  Model model;
  model.id = "toy";
  model.hidden = 8;
  model.layers = 2;
  model.attention_heads = 2;
  model.kv_heads = 1;
  model.head_dim = 4;
  model.intermediate_size = 16;
  model.vocab_size = 10;
  return model;
}

// Per layer: q and o 2 × 8×(2×4) = 128, k and v 2 × 8×(1×4) = 64, MLP 3×8×16 = 384, two
// norms 16: 592. Embeddings 10×8 (input) + 10×8 (output) = 160, final norm 8.
TEST(ParameterCount, DenseGroupedQueryAttention) {
  const ParameterCount count = count_parameters(toy());
  EXPECT_DOUBLE_EQ(count.total, 160 + 2 * 592 + 8);
  EXPECT_DOUBLE_EQ(count.active, count.total);
}

TEST(ParameterCount, TiedEmbeddingsCountOnce) {
  Model model = toy();
  model.tie_word_embeddings = true;
  EXPECT_DOUBLE_EQ(count_parameters(model).total, 80 + 2 * 592 + 8);
}

// Layer 0 dense (MLP 384); layer 1 MoE: router 4×8 = 32, shared expert 3×8×2 = 48, four
// routed experts of 48 each, one of them active per token.
TEST(ParameterCount, MixtureOfExpertsWithSharedExpertAndDenseFirstLayer) {
  Model model = toy();
  model.experts = 4;
  model.experts_per_token = 1;
  model.moe_intermediate_size = 2;
  model.shared_experts = 1;
  model.first_dense_layers = 1;
  const double common = 160 + 2 * (192 + 16) + 8 + 384;
  const ParameterCount count = count_parameters(model);
  EXPECT_DOUBLE_EQ(count.total, common + 32 + 48 + 4 * 48);
  EXPECT_DOUBLE_EQ(count.active, common + 32 + 48 + 1 * 48);
}

// Experts of intermediate_size when no expert width is given (Mixtral); a shared expert given
// as one total width (Qwen-MoE style, width 6: 3×8×6 = 144).
TEST(ParameterCount, ExpertWidthFallsBackAndSharedWidthIsATotal) {
  Model model = toy();
  model.experts = 2;
  model.experts_per_token = 2;
  model.shared_expert_intermediate_size = 6;
  const double per_layer = 192 + 16 + 2 * 8 + 144 + 2 * 384;
  const ParameterCount count = count_parameters(model);
  EXPECT_DOUBLE_EQ(count.total, 160 + 8 + 2 * per_layer);
  EXPECT_DOUBLE_EQ(count.active, count.total);
}

// Latent attention, heads 2, q rank 4, kv rank 2, rope 1, nope 2, value 3:
// q_a 8×4 + norm 4 + q_b 4×2×(2+1) = 60; kv_a 8×(2+1) + norm 2 + kv_b 2×2×(2+3) = 46;
// o 2×3×8 = 48: 154 per layer instead of 192.
TEST(ParameterCount, LatentAttention) {
  Model model = toy();
  model.latent_attention = Model::LatentAttention{4, 2, 1, 2, 3};
  EXPECT_DOUBLE_EQ(count_parameters(model).total, 160 + 2 * (154 + 384 + 16) + 8);
  // Without a query rank the query is one 8 × 2×3 projection: 48 instead of 60.
  model.latent_attention->q_lora_rank = 0;
  EXPECT_DOUBLE_EQ(count_parameters(model).total, 160 + 2 * (142 + 384 + 16) + 8);
}

TEST(ParameterCount, MissingSizeIsAnError) {
  Model model = toy();
  model.vocab_size = 0;
  EXPECT_THROW(count_parameters(model), InputError);
  model = toy();
  model.intermediate_size = 0;
  EXPECT_THROW(count_parameters(model), InputError);
}

} // namespace
} // namespace icx::unit_parameter_count
