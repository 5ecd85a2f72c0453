// An engine without chunked prefill (vLLM's V0 engine with a latent-attention model): its
// scheduler's token budget is the model's longest context, whole prompts first.
#include <string>

#include <gtest/gtest.h>

#include "hf_fixtures.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/hf_config.hpp"
#include "icx/catalog/json.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/engine_memory.hpp"
#include "icx/util/input_error.hpp"
#include "icx/words/engine.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_whole_prompts {
namespace {

/// Engine "e" with one tier for every GPU.
std::string engine_with_tier(const std::string& tier) {
  return R"({"engines": [{"id": "e", "name": "E", "version": "2", "impl": "vllm",
    "scheduler": {"all": )" +
         tier + R"(}, "policy": "prefill-first",
    "costs": {"step_us": 500, "layer_us": 10, "request_us": 20000}, "source": "s"}]})";
}

const std::string whole_tier = R"({"max_batch": 8, "whole_prompts": true})";

TEST(WholePrompts, ATierWithoutChunksTakesTheModelsLongestContext) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(engine_with_tier(whole_tier), "e.json");
  const Gpu& h100 = catalog.gpu("h100-sxm");
  // deepseek-ai/DeepSeek-V3's config.json: max_position_embeddings 163,840.
  EXPECT_EQ(default_prefill_chunk(catalog.engine("e"), h100, catalog.model("deepseek-v3")), 163840);
  // A chunked tier keeps its chunk whatever the model: vLLM V1 on an 80 GB H100, 8,192.
  EXPECT_EQ(default_prefill_chunk(catalog.engine("vllm"), h100, catalog.model("deepseek-v3")),
            8192);
  EXPECT_EQ(engine_defaults_text(catalog.engine("e"), h100),
            "E 2, whose defaults on h100-sxm are 8 sequences per scheduler and whole prompts (no "
            "chunked prefill)");
}

TEST(WholePrompts, AModelWithoutItsLongestContextIsRefusedNamingWhatToGive) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(engine_with_tier(whole_tier), "e.json");
  Model model = catalog.model("qwen3-32b");
  model.max_context = 0;
  try {
    default_prefill_chunk(catalog.engine("e"), catalog.gpu("h100-sxm"), model);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--engine e"), std::string::npos) << what;
    EXPECT_NE(what.find("max_context"), std::string::npos) << what;
    EXPECT_NE(what.find("--catalog"), std::string::npos) << what;
  }
  // A budget the user gives needs no longest context: 4,096 tokens a step.
  EXPECT_EQ(prefill_chunk_or_default(4096, catalog.engine("e"), catalog.gpu("h100-sxm"), model),
            4096);
}

TEST(WholePrompts, ATierGivesAChunkOrWholePromptsNotBoth) {
  const std::string both =
      test::catalog_error(Catalog{}, engine_with_tier(R"({"max_batch": 8, "whole_prompts": true,
        "prefill_chunk": 512})"));
  EXPECT_NE(both.find("/engines/0/scheduler/all/prefill_chunk"), std::string::npos) << both;
  const std::string neither =
      test::catalog_error(Catalog{}, engine_with_tier(R"({"max_batch": 8})"));
  EXPECT_NE(neither.find("/engines/0/scheduler/all/prefill_chunk"), std::string::npos) << neither;
}

TEST(WholePrompts, WritesTheFlagInPlaceOfAChunk) {
  Catalog catalog;
  catalog.overlay_text(engine_with_tier(whole_tier), "e.json");
  const nlohmann::ordered_json tier =
      nlohmann::ordered_json(catalog.engines())[0]["scheduler"]["all"];
  EXPECT_EQ(tier, nlohmann::ordered_json::parse(whole_tier));
  // Read back, the written engine is the one read.
  Catalog again;
  again.overlay_text(engine_with_tier(tier.dump()), "again.json");
  EXPECT_EQ(again.engine("e").scheduler, catalog.engine("e").scheduler);
}

TEST(WholePrompts, TheShippedV0EngineRunsWholePromptsFirst) {
  // vLLM @f35f8e224: V0 by default (VLLM_USE_V1 0), chunked prefill off for MLA models,
  // max_num_seqs 256, and _schedule_default runs no decode in a step that prefills.
  const Catalog catalog = Catalog::shipped();
  const Engine& v0 = catalog.engine("vllm-v0");
  EXPECT_EQ(v0.policy, SchedulePolicy::prefill_first);
  const SchedulerTier& tier = scheduler_tier(v0, catalog.gpu("mi300x"));
  EXPECT_TRUE(tier.whole_prompts);
  EXPECT_EQ(tier.max_batch, 256);
  EXPECT_FALSE(v0.launch.has_value());
}

TEST(WholePrompts, TheCatalogsLongestContextsAreTheConfigs) {
  const Catalog catalog = Catalog::shipped();
  const std::pair<const char*, const char*> pairs[] = {
      {"llama-3.1-8b", "llama-3.1-8b.json"},
      {"llama-3.1-70b", "llama-3.1-70b.json"},
      {"mixtral-8x7b", "mixtral-8x7b.json"},
      {"deepseek-v3", "deepseek-v3.json"},
      {"deepseek-r1", "deepseek-r1.json"},
      {"deepseek-v3.2", "deepseek-v3.2.json"},
      {"qwen3-32b", "qwen3-32b.json"},
      {"qwen3-235b-a22b", "qwen3-235b-a22b.json"},
      {"gpt-oss-120b", "gpt-oss-120b.json"},
      {"gpt-oss-20b", "gpt-oss-20b.json"},
      {"kimi-k2", "kimi-k2-instruct.json"},
      {"glm-4.5", "glm-4.5.json"},
      {"qwen3-coder-480b", "qwen3-coder-480b-a35b-instruct.json"}};
  for (const auto& [id, file] : pairs) {
    const Model config = read_hf_config_file(test::hf_dir + file);
    EXPECT_GT(config.max_context, 0) << file;
    EXPECT_EQ(catalog.model(id).max_context, config.max_context) << id;
  }
  // Llama 4 Scout keeps it in /text_config: 10,485,760.
  EXPECT_EQ(read_hf_config_file(test::hf_dir + "llama-4-scout-17b-16e-instruct.json").max_context,
            10485760);
}

TEST(WholePrompts, TheProfilingForwardRunsTheWholeBudget) {
  // V0 profiles a forward over max_num_batched_tokens = max_model_len: for Llama 3.1 8B,
  // 131,072 tokens x (3 x 14,336 + 4 x 4,096) x 2 B = 15,569,256,448 B, and the sampler's
  // 2 x 256 x 128,256 x 4 B = 262,668,288 B (the same rule as V1's, test_engine_memory.cpp).
  const Catalog catalog = Catalog::shipped();
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 2048;
  r.batch = 1;
  r.engine = &catalog.engine("vllm-v0");
  const Model& llama8 = catalog.model("llama-3.1-8b");
  const Dtype& bf16 = catalog.dtype("bf16");
  const Workload w = workload_for(catalog, llama8, bf16, catalog.gpu("h100-sxm"), r);
  const MemoryBudget budget = memory_budget(catalog.gpu("h100-sxm"), w, Layout{}, Bytes{});
  EXPECT_EQ(budget.profile_tokens, 131072);
  EXPECT_DOUBLE_EQ(budget.activation.value(), 15569256448.0 + 262668288.0);
}

TEST(NoPrefixCache, LoadsAskingForCachedPromptsAreRefusedNamingTheFlag) {
  const Catalog catalog = Catalog::shipped();
  const Engine& v0 = catalog.engine("vllm-v0");
  const auto refusal = [&](double hit, std::int64_t warm) {
    try {
      check_prefix_cache(v0, hit, warm);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal(0.5, 0).find("--prefix-hit 0.5"), std::string::npos) << refusal(0.5, 0);
  EXPECT_NE(refusal(0, 1).find("--warm-prompts 1"), std::string::npos) << refusal(0, 1);
  EXPECT_EQ(refusal(0, 0), "");
  // vLLM V1 keeps one in blocks of 16 tokens.
  EXPECT_NO_THROW(check_prefix_cache(catalog.engine("vllm"), 0.5, 1));
}

} // namespace
} // namespace icx::unit_whole_prompts
