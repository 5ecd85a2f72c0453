#include "icx/catalog/hf_config.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "hf_fixtures.hpp"
#include "icx/base/error.hpp"
#include "icx/host/host_link.hpp"

namespace icx::unit_hf_config {
namespace {

using test::hf_dir;
using test::relative_error;

constexpr double published_tolerance = 0.02;

// Llama 3.1 8B: 8,030,261,248 parameters = the safetensors index's total_size 16,060,522,496 B
// / 2 B (meta-llama/Llama-3.1-8B on Hugging Face); "8B" / 8.03B on its model card.
TEST(HfConfig, Llama31_8B) {
  const Model model = read_hf_config_file(hf_dir + "llama-3.1-8b.json");
  EXPECT_EQ(model.hidden, 4096);
  EXPECT_EQ(model.layers, 32);
  EXPECT_EQ(model.attention_heads, 32);
  EXPECT_EQ(model.kv_heads, 8);
  EXPECT_EQ(model.head_dim, 128); // hidden / heads: the config gives no head_dim
  EXPECT_EQ(model.default_dtype, "bf16");
  EXPECT_FALSE(model.is_moe());
  EXPECT_LT(relative_error(model.total_params, 8.03e9), published_tolerance);
  EXPECT_DOUBLE_EQ(model.total_params, 8'030'261'248);
  EXPECT_DOUBLE_EQ(model.active_params, model.total_params);
}

// Llama 3.1 70B: 70,553,706,496 parameters = total_size 141,107,412,992 B / 2 B in the
// safetensors index (meta-llama/Llama-3.1-70B on Hugging Face); 70.55B.
TEST(HfConfig, Llama31_70B) {
  const Model model = read_hf_config_file(hf_dir + "llama-3.1-70b.json");
  EXPECT_EQ(model.hidden, 8192);
  EXPECT_EQ(model.layers, 80);
  EXPECT_LT(relative_error(model.total_params, 70.55e9), published_tolerance);
  EXPECT_DOUBLE_EQ(model.total_params, 70'553'706'496);
}

// Mixtral 8x7B: 46.7B total, 12.9B used per token (Mistral AI, "Mixtral of experts", 11 Dec
// 2023 announcement; rounded to 47B and 13B in Jiang et al., arXiv:2401.04088).
TEST(HfConfig, Mixtral8x7B) {
  const Model model = read_hf_config_file(hf_dir + "mixtral-8x7b.json");
  EXPECT_EQ(model.experts, 8);
  EXPECT_EQ(model.experts_per_token, 2);
  EXPECT_EQ(model.default_dtype, "bf16");
  EXPECT_LT(relative_error(model.total_params, 46.7e9), published_tolerance);
  EXPECT_LT(relative_error(model.active_params, 12.9e9), published_tolerance);
}

// DeepSeek-V3: 671B total, 37B activated per token (DeepSeek-V3 Technical Report,
// arXiv:2412.19437, abstract). The Hugging Face checkpoint holds 685B: the 671B main model
// plus a 14B multi-token-prediction module, which a config's num_nextn_predict_layers adds
// and icx leaves out (README_WEIGHTS.md in deepseek-ai/DeepSeek-V3).
TEST(HfConfig, DeepSeekV3) {
  const Model model = read_hf_config_file(hf_dir + "deepseek-v3.json");
  EXPECT_EQ(model.hidden, 7168);
  EXPECT_EQ(model.layers, 61);
  EXPECT_EQ(model.experts, 256);
  EXPECT_EQ(model.experts_per_token, 8);
  EXPECT_EQ(model.first_dense_layers, 3);
  EXPECT_EQ(model.expert_groups, 8);           // n_group
  EXPECT_EQ(model.expert_groups_per_token, 4); // topk_group
  EXPECT_EQ(model.shared_experts, 1);
  EXPECT_EQ(model.moe_intermediate_size, 2048);
  ASSERT_TRUE(model.latent_attention.has_value());
  EXPECT_EQ(model.latent_attention->kv_lora_rank, 512);
  EXPECT_EQ(model.latent_attention->q_lora_rank, 1536);
  EXPECT_EQ(model.head_dim, 128);        // v_head_dim: latent attention has no hidden / heads
  EXPECT_EQ(model.default_dtype, "fp8"); // quantization_config wins over torch_dtype
  EXPECT_LT(relative_error(model.total_params, 671e9), published_tolerance);
  EXPECT_LT(relative_error(model.active_params, 37e9), published_tolerance);
}

/// Within 1 % of a published count: what the fixtures of 2025's models are held to.
constexpr double card_tolerance = 0.01;

// Qwen3-32B: "Number of Parameters: 32.8B" (Qwen/Qwen3-32B model card); 64 layers, GQA 64
// heads for Q and 8 for KV, head_dim 128 given apart from hidden / heads (8192 != 5120). The
// per-head q/k norms the model type implies (256 weights a layer) are left out.
TEST(HfConfig, Qwen3_32B) {
  const Model model = read_hf_config_file(hf_dir + "qwen3-32b.json");
  EXPECT_EQ(model.layers, 64);
  EXPECT_EQ(model.kv_heads, 8);
  EXPECT_EQ(model.head_dim, 128);
  EXPECT_FALSE(model.is_moe());
  EXPECT_LT(relative_error(model.total_params, 32.8e9), card_tolerance);
}

// Qwen3-235B-A22B: "235B in total and 22B activated", 94 layers, 128 experts, 8 activated
// (Qwen/Qwen3-235B-A22B model card); every layer MoE (decoder_sparse_step 1), no shared expert.
TEST(HfConfig, Qwen3_235B_A22B) {
  const Model model = read_hf_config_file(hf_dir + "qwen3-235b-a22b.json");
  EXPECT_EQ(model.experts, 128);
  EXPECT_EQ(model.experts_per_token, 8);
  EXPECT_EQ(model.shared_experts, 0);
  EXPECT_EQ(model.first_dense_layers, 0);
  EXPECT_EQ(model.moe_intermediate_size, 1536);
  EXPECT_LT(relative_error(model.total_params, 235e9), card_tolerance);
  EXPECT_LT(relative_error(model.active_params, 22e9), card_tolerance);
}

// Qwen3-Coder-480B-A35B-Instruct: "480B in total and 35B activated", 62 layers, 160 experts,
// 8 activated (its model card; NVIDIA's NIM reference says the same). The name's 35B rounds
// the active count (35.47B counted), so that one is held to 2 %.
TEST(HfConfig, Qwen3Coder480B) {
  const Model model = read_hf_config_file(hf_dir + "qwen3-coder-480b-a35b-instruct.json");
  EXPECT_EQ(model.layers, 62);
  EXPECT_EQ(model.experts, 160);
  EXPECT_LT(relative_error(model.total_params, 480e9), card_tolerance);
  EXPECT_LT(relative_error(model.active_params, 35e9), published_tolerance);
}

// Kimi K2: DeepSeek-V3's architecture with 384 experts, 64 heads, one dense layer and no
// group-limited routing (n_group 1); "1T total, 32B activated" (MoonshotAI/Kimi-K2 README,
// rounded). The checkpoint's tensors add up to 1,026,470,731,056 parameters (a sum over its
// safetensors reported beside the config), which the count is held to within 1 %.
TEST(HfConfig, KimiK2) {
  const Model model = read_hf_config_file(hf_dir + "kimi-k2-instruct.json");
  EXPECT_EQ(model.experts, 384);
  EXPECT_EQ(model.attention_heads, 64);
  EXPECT_EQ(model.first_dense_layers, 1);
  EXPECT_EQ(model.shared_experts, 1);
  ASSERT_TRUE(model.latent_attention.has_value());
  EXPECT_EQ(model.latent_attention->kv_lora_rank, 512);
  EXPECT_EQ(model.default_dtype, "fp8");
  EXPECT_LT(relative_error(model.total_params, 1'026'470'731'056.0), card_tolerance);
  EXPECT_LT(relative_error(model.total_params, 1e12), 0.03);
  EXPECT_LT(relative_error(model.active_params, 32e9), 0.03);
}

// GLM-4.5: 92 layers, the first 3 dense (first_k_dense_replace), then 160 routed experts of
// width 1536, top 8, and one shared; 96 query heads of 128 over 8 KV heads. "355 billion total
// parameters with 32 billion active" (zai-org/GLM-4.5 README and model card). The count leaves
// out the multi-token-prediction layer (num_nextn_predict_layers), as DeepSeek-V3's 671B does;
// the card's active figure leaves out both 151,552 × 5,120 embeddings.
TEST(HfConfig, Glm45) {
  const Model model = read_hf_config_file(hf_dir + "glm-4.5.json");
  EXPECT_EQ(model.layers, 92);
  EXPECT_EQ(model.experts, 160);
  EXPECT_EQ(model.experts_per_token, 8);
  EXPECT_EQ(model.first_dense_layers, 3);
  EXPECT_EQ(model.shared_experts, 1);
  EXPECT_EQ(model.kv_heads, 8);
  EXPECT_FALSE(model.latent_attention.has_value());
  EXPECT_LT(relative_error(model.total_params, 355e9), card_tolerance);
  const double embeddings = 2.0 * 151552 * 5120;
  EXPECT_LT(relative_error(model.active_params - embeddings, 32e9), card_tolerance);
}

// DeepSeek-V3.2: DeepSeek-V3's sizes with DeepSeek Sparse Attention. Its lightning indexer
// adds, per layer (DeepSeek-V3.2-Exp's reference Indexer): wq_b 1536 × 64 × 128 = 12,582,912,
// wk 7168 × 128 = 917,504, the key's LayerNorm 2 × 128 = 256 and weights_proj 7168 × 64 =
// 458,752: 13,959,424, over 61 layers 851,524,864 beside what DeepSeek-V3 counts. Its cache
// adds the indexer's FP8 key and one FP32 scale, 132 B, per token and layer: with a BF16 latent,
// 61 × (576 × 2 + 132) = 78,324 B a token.
TEST(HfConfig, DeepSeekV32) {
  const Model v32 = read_hf_config_file(hf_dir + "deepseek-v3.2.json");
  const Model v3 = read_hf_config_file(hf_dir + "deepseek-v3.json");
  ASSERT_TRUE(v32.sparse_attention.has_value());
  EXPECT_EQ(v32.sparse_attention->topk, 2048);
  EXPECT_EQ(v32.sparse_attention->index_heads, 64);
  EXPECT_EQ(v32.sparse_attention->index_head_dim, 128);
  EXPECT_FALSE(v3.sparse_attention.has_value());
  EXPECT_DOUBLE_EQ(v32.total_params, v3.total_params + 61 * 13959424.0);
  EXPECT_DOUBLE_EQ(v32.active_params, v3.active_params + 61 * 13959424.0);
  EXPECT_LT(relative_error(v32.total_params, 671e9), card_tolerance);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(kv_shape(v32, 2), 1, 1).value(), 78324.0);
}

// DeepSeek-R1: the V3 architecture ("671B total, 37B activated", deepseek-ai/DeepSeek-R1
// README), FP8 block-scaled weights.
TEST(HfConfig, DeepSeekR1) {
  const Model model = read_hf_config_file(hf_dir + "deepseek-r1.json");
  EXPECT_EQ(model.experts, 256);
  EXPECT_EQ(model.expert_groups, 8);
  EXPECT_EQ(model.default_dtype, "fp8");
  EXPECT_LT(relative_error(model.total_params, 671e9), card_tolerance);
  EXPECT_LT(relative_error(model.active_params, 37e9), published_tolerance);
}

// Llama 4 Scout (17B-16E-Instruct): a multimodal config whose language model is under
// /text_config; 48 layers, every one MoE (interleave_moe_layer_step 1) with 16 routed experts,
// top 1, and the shared expert Llama 4 always has, both 8192 wide. "17B activated, 109B
// total" (meta-llama/llama-models MODEL_CARD.md): the total includes the vision encoder, which
// icx does not count (it runs per image), so the language model's 107.8B is held to 2 %.
TEST(HfConfig, Llama4Scout) {
  const Model model = read_hf_config_file(hf_dir + "llama-4-scout-17b-16e-instruct.json");
  EXPECT_EQ(model.hidden, 5120);
  EXPECT_EQ(model.layers, 48);
  EXPECT_EQ(model.experts, 16);
  EXPECT_EQ(model.experts_per_token, 1);
  EXPECT_EQ(model.shared_experts, 1);
  EXPECT_EQ(model.shared_expert_intermediate_size, 8192);
  EXPECT_EQ(model.default_dtype, "bf16");
  EXPECT_LT(relative_error(model.total_params, 109e9), published_tolerance);
  EXPECT_LT(model.total_params, 109e9);
  EXPECT_LT(relative_error(model.active_params, 17e9), published_tolerance); // "17B": rounded
}

std::string error_of(const std::string& text) {
  return test::hf_error_of(text);
}

const std::string dense_fields = R"("hidden_size": 64, "num_hidden_layers": 2,
  "intermediate_size": 128, "vocab_size": 100, "num_attention_heads": 8)";

TEST(HfConfig, IgnoresUnknownFieldsAndDefaultsKvHeadsAndHeadDim) {
  const Model model =
      read_hf_config("{" + dense_fields + R"(, "rope_scaling": {"x": [1]}, "sliding_window": null,
      "num_key_value_heads": null, "torch_dtype": "float16", "tie_word_embeddings": true})",
                     "config.json");
  EXPECT_EQ(model.id, "config.json");
  EXPECT_EQ(model.kv_heads, 8);
  EXPECT_EQ(model.head_dim, 8);
  EXPECT_EQ(model.default_dtype, "fp16");
  // 100×64 tied embedding; per layer 4 × 64×64 attention, 3 × 64×128 MLP, 2 × 64 norms; final
  // norm 64.
  EXPECT_DOUBLE_EQ(model.total_params, 6400 + 2 * (16384 + 24576 + 128) + 64);
}

TEST(HfConfig, NoDtypeLeavesItEmpty) {
  EXPECT_EQ(read_hf_config("{" + dense_fields + "}", "c").default_dtype, "");
}

TEST(HfConfig, MissingFieldNamesFileAndPointer) {
  EXPECT_EQ(error_of(R"({"num_hidden_layers": 2})"),
            "config.json: /hidden_size: missing required field");
  // A multimodal config's language model is read from /text_config, and named there.
  EXPECT_EQ(error_of(R"({"text_config": {}})"),
            "config.json: /text_config/hidden_size: missing required field");
}

TEST(HfConfig, WrongTypesAndNegativeNumbers) {
  EXPECT_EQ(error_of(R"({"hidden_size": "4096"})"),
            "config.json: /hidden_size: expected a whole number from 1 to 1048576, got a string");
  EXPECT_EQ(error_of(R"({"hidden_size": -1})"),
            "config.json: /hidden_size: expected a whole number from 1 to 1048576, got the "
            "number -1");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "tie_word_embeddings": "no"})"),
            "config.json: /tie_word_embeddings: expected true or false, got a string");
  EXPECT_EQ(error_of("[]"), "config.json: (document): expected an object, got an array");
  EXPECT_EQ(error_of("{"), "config.json: invalid JSON: parse error at line 1, column 2: syntax "
                           "error while parsing object key - unexpected end of input; expected "
                           "string literal");
}

TEST(HfConfig, DuplicateKeyNamesThePointer) {
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "hidden_size": 4096})"),
            "config.json: /hidden_size: duplicate key; each key may appear once in an object");
  EXPECT_EQ(error_of(R"({"text_config": {"a": 1, "a": 2}})"),
            "config.json: /text_config/a: duplicate key; each key may appear once in an object");
}

TEST(HfConfig, ContradictoryFields) {
  EXPECT_EQ(error_of(R"({"hidden_size": 100, "num_hidden_layers": 2, "intermediate_size": 8,
                         "vocab_size": 10, "num_attention_heads": 3})"),
            "config.json: /num_attention_heads: 3 does not divide hidden_size 100 and head_dim is "
            "not given");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "num_key_value_heads": 3})"),
            "config.json: /num_key_value_heads: 3 does not divide num_attention_heads 8: each KV "
            "head serves a whole group of query heads");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "num_local_experts": 8, "num_experts_per_tok": 9})"),
            "config.json: /num_experts_per_tok: 9 exceeds the 8 routed experts");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "num_local_experts": 8, "num_experts": 4})"),
            "config.json: /num_experts: 4 contradicts num_local_experts 8");
  EXPECT_EQ(error_of("{" + dense_fields +
                     R"(, "n_routed_experts": 8, "num_experts_per_tok": 2,
                     "first_k_dense_replace": 3})"),
            "config.json: /first_k_dense_replace: expected a whole number from 0 to 2, got the "
            "number 3");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "torch_dtype": "bfloat16", "dtype": "float32"})"),
            "config.json: /dtype: 'fp32' contradicts torch_dtype 'bf16'");
}

TEST(HfConfig, MoeEveryOtherLayerIsRefusedUnderItsPointer) {
  const std::string config = R"({"text_config": {"hidden_size": 64, "num_hidden_layers": 4,
    "intermediate_size": 128, "vocab_size": 100, "num_attention_heads": 8,
    "num_local_experts": 4, "num_experts_per_tok": 1, "interleave_moe_layer_step": 2}})";
  const std::string error = error_of(config);
  EXPECT_NE(error.find("config.json: /text_config/interleave_moe_layer_step: 2"), std::string::npos)
      << error;
  EXPECT_NE(error.find("not modelled"), std::string::npos) << error;
}

TEST(HfConfig, ExpertsNeedTheirTopK) {
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "num_experts": 4})"),
            "config.json: /num_experts_per_tok: missing required field");
  // Zero experts is a dense model; its stray expert fields are not read.
  const Model dense =
      read_hf_config("{" + dense_fields + R"(, "num_experts": 0, "num_experts_per_tok": 99})", "c");
  EXPECT_FALSE(dense.is_moe());
}

// Kimi-K2's config.json (moonshotai/Kimi-K2-Instruct on Hugging Face) gives 384 routed experts,
// 8 per token, n_group 1 and topk_group 1: one group, which limits nothing.
TEST(HfConfig, OneExpertGroupIsNoLimit) {
  const Model kimi = read_hf_config("{" + dense_fields + R"(, "n_routed_experts": 384,
      "num_experts_per_tok": 8, "n_group": 1, "topk_group": 1})",
                                    "c");
  EXPECT_EQ(kimi.experts, 384);
  EXPECT_EQ(kimi.expert_groups, 0);
  EXPECT_EQ(kimi.expert_groups_per_token, 0);
  const Model grouped = read_hf_config("{" + dense_fields + R"(, "n_routed_experts": 64,
      "num_experts_per_tok": 6, "n_group": 8, "topk_group": 3})",
                                       "c");
  EXPECT_EQ(grouped.expert_groups, 8);
  EXPECT_EQ(grouped.expert_groups_per_token, 3);
  // A dense model's stray group fields are not read.
  EXPECT_EQ(
      read_hf_config("{" + dense_fields + R"(, "n_group": 8, "topk_group": 9})", "c").expert_groups,
      0);
}

TEST(HfConfig, ExpertGroupsMustFitTheExperts) {
  const std::string moe = "{" + dense_fields + R"(, "n_routed_experts": 64,
      "num_experts_per_tok": 6, )";
  EXPECT_EQ(error_of(moe + R"("n_group": 8})"), "config.json: /topk_group: missing required field");
  EXPECT_EQ(error_of(moe + R"("n_group": 6, "topk_group": 2})"),
            "config.json: /n_group: 6 does not divide the 64 routed experts into equal groups");
  EXPECT_EQ(error_of(moe + R"("n_group": 8, "topk_group": 9})"),
            "config.json: /topk_group: expected a whole number from 1 to 8, got the number 9");
  // 16 groups of 4 experts: two groups hold 8, more than the 6 a token picks; one holds 4.
  EXPECT_EQ(error_of(moe + R"("n_group": 16, "topk_group": 1})"),
            "config.json: /topk_group: 1 × 4 experts per group = 4, fewer than the 6 experts a "
            "token picks");
}

TEST(HfConfig, Quantization) {
  EXPECT_EQ(read_hf_config("{" + dense_fields +
                               R"(, "torch_dtype": "bfloat16",
                               "quantization_config": {"quant_method": "fp8"}})",
                           "c")
                .default_dtype,
            "fp8");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "quantization_config": {"quant_method": "awq"}})"),
            "config.json: /quantization_config/quant_method: 'awq' is not supported (only "
            "\"fp8\" and \"mxfp4\"): the weights' element size is unknown");
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "torch_dtype": "int4"})"),
            "config.json: /torch_dtype: 'int4' is not one of: bfloat16, float16, float32, "
            "float8_e4m3fn");
}

TEST(HfConfig, LatentAttentionNeedsItsHeadSizes) {
  EXPECT_EQ(error_of("{" + dense_fields + R"(, "kv_lora_rank": 16})"),
            "config.json: /qk_rope_head_dim: missing required field");
}

TEST(HfConfig, TooManyParameters) {
  EXPECT_EQ(error_of(R"({"hidden_size": 1048576, "num_hidden_layers": 16384,
                         "intermediate_size": 1048576, "vocab_size": 10,
                         "num_attention_heads": 1})"),
            "config.json: (document): the architecture has 1.26e+17 parameters, more than the "
            "1e+15 icx accepts");
}

TEST(HfConfig, FileErrorsNameThePath) {
  EXPECT_THROW((void)read_hf_config_file(hf_dir + "no-such-file.json"), InputError);
  try {
    (void)read_hf_config_file(hf_dir);
    FAIL() << "a directory was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("is a directory"), std::string::npos);
  }
}

} // namespace
} // namespace icx::unit_hf_config
