// gpt-oss: MXFP4 experts beside BF16 attention, and sliding-window layers, each held to the
// model card and to sums worked by hand.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "hf_fixtures.hpp"
#include "icx/catalog/hf_config.hpp"
#include "icx/host/host_link.hpp"
#include "icx/serving/serving.hpp"
#include "icx/serving/step_model.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_mixed_precision {
namespace {

using test::make_dtype;

using test::hf_dir;
using test::relative_error;

constexpr double card_tolerance = 0.01;
constexpr double gib = 1024.0 * 1024 * 1024;
/// The input embedding, 201,088 × 2,880: a lookup the card leaves out of its active count.
constexpr double input_embedding = 201088.0 * 2880;

Dtype mxfp4() {
  Dtype d = make_dtype("mxfp4", (4 + 8.0 / 32) / 8); // 32 E2M1 values share one E8M0 scale
  d.compute_as = "fp4";
  d.weight_only_as = "bf16";
  return d;
}

// The gpt-oss model card (OpenAI, 2025-08-05), table 1: gpt-oss-120b 116.83B total, 5.13B
// active, a 60.8 GiB checkpoint; gpt-oss-20b 20.91B, 3.61B, 12.8 GiB.
struct Card {
  const char* file;
  double total;
  double active;
  double checkpoint_gib;
  int sliding_layers;
};

TEST(MixedPrecision, DenseWeightsAreParametersTimesElementSize) {
  Model dense;
  dense.total_params = dense.active_params = 70553706496.0;
  // The shipped 70B model: 70,553,706,496 parameters × 2 B (bf16) = 141,107,412,992 B.
  const Dtype bf16 = make_dtype("bf16", 2);
  EXPECT_EQ(model_weight_bytes(dense, bf16, bf16).value(), 141107412992.0);
  dense.total_params = dense.active_params = 8e9;
  const Dtype fp4 = make_dtype("fp4", 0.5);
  EXPECT_EQ(model_weight_bytes(dense, fp4, fp4).value(), 4e9);
}

TEST(MixedPrecision, GptOssCountsAndCheckpointSizeMatchTheCard) {
  const Dtype bf16 = make_dtype("bf16", 2);
  for (const Card& card : {Card{"gpt-oss-120b.json", 116.83e9, 5.13e9, 60.8, 18},
                           Card{"gpt-oss-20b.json", 20.91e9, 3.61e9, 12.8, 12}}) {
    const Model model = read_hf_config_file(hf_dir + card.file);
    EXPECT_EQ(model.default_dtype, "bf16") << card.file;
    EXPECT_EQ(model.expert_dtype, "mxfp4") << card.file;
    EXPECT_EQ(model.sliding_layers, card.sliding_layers) << card.file;
    EXPECT_EQ(model.sliding_window, 128) << card.file;
    EXPECT_LT(relative_error(model.total_params, card.total), card_tolerance) << card.file;
    EXPECT_LT(relative_error(model.active_params - input_embedding, card.active), card_tolerance)
        << card.file;
    // Experts at 4.25 bits and the rest at 16 add up to the published checkpoint.
    const double bytes = model_weight_bytes(model, bf16, mxfp4()).value();
    EXPECT_LT(relative_error(bytes / gib, card.checkpoint_gib), card_tolerance) << card.file;
  }
}

TEST(MixedPrecision, ExpertsSplitOverExpertRanksInTheirOwnDtype) {
  const Model model = read_hf_config_file(hf_dir + "gpt-oss-120b.json");
  const Dtype bf16 = make_dtype("bf16", 2);
  // Per layer: q and o 2,880 × 4,096 each, k and v 2,880 × 512 each, two RMSNorms of 2,880 and
  // the router, 2,880 × 128 experts; embeddings in and out 201,088 × 2,880 each and the final
  // RMSNorm. All in BF16 (modules_to_not_convert).
  const double attention = 36 * (2 * 2880.0 * 4096 + 2 * 2880.0 * 512 + 2 * 2880 + 2880 * 128);
  const double dense = attention + 2 * input_embedding + 2880;
  // One expert: gate and up 2,880 × 2,880 each, down the same; 36 layers of them.
  const double expert = 36 * 3 * 2880.0 * 2880;
  const Layout ep4{1, 1, 4, 1};
  const double expected = dense * 2 + 128 * expert / 4 * (4.25 / 8);
  EXPECT_LT(relative_error(weights_per_gpu(model, bf16, mxfp4(), ep4).value(), expected), 1e-9);
}

// Half of gpt-oss-120b's layers keep at most 128 tokens: K and V of 8 heads × 64, 2 B each.
TEST(MixedPrecision, SlidingWindowLayersHoldTheirWindow) {
  const Model model = read_hf_config_file(hf_dir + "gpt-oss-120b.json");
  const double per_layer_token = 2 * 8 * 64 * 2;
  const KvShape shape = kv_shape(model, 2);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(shape, 1, 100).value(), 36 * 100 * per_layer_token);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(shape, 3, 4096).value(),
                   3 * (18 * 4096 + 18 * 128) * per_layer_token);
}

TEST(MixedPrecision, SlidingWindowLayersAttendToTheirWindow) {
  Model model = read_hf_config_file(hf_dir + "gpt-oss-20b.json");
  // Per query-key pair and layer: 2 FLOPs × 64 heads × (64 + 64) widths.
  const double per_pair = 2.0 * 64 * 128;
  // Decode at 1,000 tokens: 12 full layers see 1,000, 12 sliding ones 128.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::decode, 1, 1000),
                   per_pair * (12 * 1000 + 12 * 128));
  // Prefill of 1,000: causal t²/2 on full layers; on sliding ones 128²/2, then 128 for each of
  // the other 872 tokens.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 1000, 0),
                   per_pair * (12 * 1000.0 * 1000 / 2 + 12 * (128.0 * 128 / 2 + 872 * 128)));
  // After a cached prefix of 3,000: each of the 1,000 new tokens sees the prefix and the new
  // tokens before it on a full layer (1,000 × 3,000 + 1,000²/2 pairs), its window of 128 on a
  // sliding one.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 1000, 3000),
                   per_pair * (12 * (1000.0 * 3000 + 1000.0 * 1000 / 2) + 12 * 1000.0 * 128));
  // A prefix shorter than the window: the first 100 new tokens still fill it (token i sees
  // 28 + i, 2,800 + 100²/2 pairs), the other 900 see 128 each.
  EXPECT_DOUBLE_EQ(attention_flops(model, Phase::prefill, 1000, 28),
                   per_pair *
                       (12 * (1000.0 * 28 + 1000.0 * 1000 / 2) + 12 * (2800 + 5000 + 900 * 128.0)));
}

std::string error_of(const std::string& config) {
  return test::hf_error_of(config);
}

const std::string moe_fields = R"({"hidden_size": 64, "num_hidden_layers": 2,
  "intermediate_size": 64, "vocab_size": 100, "num_attention_heads": 4,
  "num_local_experts": 4, "num_experts_per_tok": 2)";

TEST(MixedPrecision, Mxfp4ConfigsIcxCannotPriceAreRefusedUnderTheirPointer) {
  const std::string experts_kept =
      moe_fields + R"(, "quantization_config": {"quant_method": "mxfp4",
      "modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.experts"]}})";
  EXPECT_EQ(error_of(experts_kept),
            "config.json: /quantization_config/modules_to_not_convert: "
            "'model.layers.*.mlp.experts' leaves the experts unconverted, so nothing is MXFP4; "
            "give --dtype ID instead");
  const std::string attention_converted =
      moe_fields + R"(, "quantization_config": {"quant_method": "mxfp4",
      "modules_to_not_convert": ["lm_head"]}})";
  EXPECT_NE(error_of(attention_converted).find("modules_to_not_convert: names no self_attn"),
            std::string::npos);
  EXPECT_EQ(error_of(moe_fields + R"(, "layer_types": ["full_attention"]})"),
            "config.json: /layer_types: 1 entries for 2 layers (num_hidden_layers)");
  EXPECT_EQ(error_of(moe_fields + R"(, "layer_types": ["full_attention", "chunked"]})"),
            "config.json: /layer_types: 'chunked' is not one of: full_attention, "
            "sliding_attention");
  EXPECT_EQ(error_of(moe_fields + R"(, "layer_types": ["sliding_attention", "full_attention"]})"),
            "config.json: /sliding_window: missing required field");
}

} // namespace
} // namespace icx::unit_mixed_precision
