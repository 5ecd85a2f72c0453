// The launch command of a layout: each engine's flags for the layout's degrees and the limits
// icx priced, the checkpoint chosen by the weights' dtype, servers and nodes, and refusals.
// Expected values follow from the engines' documented semantics, worked by hand below.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/launch.hpp"
#include "icx/util/input_error.hpp"
#include "icx/words/launch.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_launch {
namespace {

struct LaunchFixture {
  Engine engine;
  Model model;
  Dtype bf16 = test::make_dtype("bf16", 2);
  Dtype fp8 = test::make_dtype("fp8", 1);
  Workload workload;
  Cluster cluster;

  explicit LaunchFixture(LaunchStyle style) {
    engine.id = "e";
    engine.version = "1";
    engine.launch = EngineLaunch{style, "s"};
    model.id = "m";
    model.default_dtype = "bf16";
    model.experts = 8;
    model.checkpoints = {{"bf16", "org/M"}, {"fp8", "org/M-FP8"}};
    workload.act_dtype = &bf16;
    workload.kv_dtype = &bf16;
    workload.max_batch = 256;
    cluster.gpus_per_node = 8;
  }

  LaunchCommand launch(Layout layout, const Dtype& weights, std::int64_t chunk = 2048) {
    cluster.gpus = layout.product();
    return launch_command({&engine, &model, &weights, &workload, layout, &cluster, chunk});
  }
};

/// The value of `flag`, "switch" for one without a value, "absent" when not given.
std::string value_of(const LaunchCommand& c, const std::string& flag) {
  const auto it = std::ranges::find(c.args, flag, &LaunchArg::flag);
  if (it == c.args.end()) {
    return "absent";
  }
  return it->value.empty() ? "switch" : it->value;
}

TEST(Launch, VllmRunsAnExpertGroupAsDataParallelRanks) {
  // icx TP 2 × EP 4: four attention ranks of two GPUs, so vLLM -tp 2 -dp 4 with experts spread
  // over the group; --max-num-seqs is per DP rank, as icx's scheduler limit is.
  LaunchFixture f(LaunchStyle::vllm);
  const LaunchCommand c = f.launch({2, 1, 4, 1}, f.bf16);
  EXPECT_EQ(c.checkpoint, "org/M");
  EXPECT_EQ(value_of(c, "--tensor-parallel-size"), "2");
  EXPECT_EQ(value_of(c, "--data-parallel-size"), "4");
  EXPECT_EQ(value_of(c, "--enable-expert-parallel"), "switch");
  EXPECT_EQ(value_of(c, "--max-num-seqs"), "256");
  EXPECT_EQ(value_of(c, "--max-num-batched-tokens"), "2048");
  EXPECT_EQ(value_of(c, "--kv-cache-dtype"), "absent"); // the activations' dtype: auto
  EXPECT_EQ(c.servers, 1);
  EXPECT_EQ(c.gpus_per_server, 8);
  EXPECT_NE(std::ranges::find(c.caveats, LaunchCaveat::experts_over_group), c.caveats.end());
}

TEST(Launch, SglangCountsTheWholeGroupAndItsLimitsOverIt) {
  // SGLang with DP attention: --tp-size is every GPU (2 × 4 = 8), --dp-size the attention ranks;
  // it divides --max-running-requests and --chunked-prefill-size by dp-size, so icx's per-rank
  // 256 and 2048 are given as 1024 and 8192.
  LaunchFixture f(LaunchStyle::sglang);
  const LaunchCommand c = f.launch({2, 1, 4, 1}, f.bf16);
  EXPECT_EQ(value_of(c, "--tp-size"), "8");
  EXPECT_EQ(value_of(c, "--dp-size"), "4");
  EXPECT_EQ(value_of(c, "--enable-dp-attention"), "switch");
  EXPECT_EQ(value_of(c, "--ep-size"), "8");
  EXPECT_EQ(value_of(c, "--max-running-requests"), "1024");
  EXPECT_EQ(value_of(c, "--chunked-prefill-size"), "8192");
}

TEST(Launch, TrtllmPutsAttentionDpAndTheKvDtypeInItsOptionsFile) {
  // TensorRT-LLM: --tp_size 8 with --ep_size 4 leaves experts split 2 ways (tp = moe_tp × moe_ep);
  // attention DP schedules on every GPU, so a rank of two GPUs' 256 sequences are 128 each.
  LaunchFixture f(LaunchStyle::trtllm);
  f.workload.kv_dtype = &f.fp8;
  const LaunchCommand c = f.launch({2, 1, 4, 1}, f.fp8);
  EXPECT_EQ(c.checkpoint, "org/M-FP8");
  EXPECT_EQ(value_of(c, "--tp_size"), "8");
  EXPECT_EQ(value_of(c, "--ep_size"), "4");
  EXPECT_EQ(value_of(c, "--max_batch_size"), "128");
  EXPECT_EQ(value_of(c, "--max_num_tokens"), "1024");
  EXPECT_EQ(value_of(c, "--extra_llm_api_options"), std::string(launch_options_file));
  ASSERT_EQ(c.settings.size(), 2U);
  EXPECT_EQ(c.settings[0].flag, "enable_attention_dp");
  EXPECT_EQ(c.settings[1].flag, "kv_cache_config.dtype");
  EXPECT_EQ(c.settings[1].value, "fp8");
}

TEST(Launch, ReplicasAreServersSharingANodeOrSpanningNodes) {
  LaunchFixture f(LaunchStyle::vllm);
  f.model.experts = 0;
  // TP 2 × DP 8 on 8-GPU nodes: eight servers of two GPUs, four to a node.
  const LaunchCommand shared = f.launch({2, 1, 1, 8}, f.bf16);
  EXPECT_EQ(shared.servers, 8);
  EXPECT_EQ(shared.servers_per_node, 4);
  EXPECT_EQ(shared.nodes_per_server, 1);
  // TP 8 × PP 2: one server over two nodes, on Ray for vLLM, --nnodes 2 for SGLang.
  const LaunchCommand spans = f.launch({8, 2, 1, 1}, f.bf16);
  EXPECT_EQ(spans.nodes_per_server, 2);
  EXPECT_EQ(value_of(spans, "--pipeline-parallel-size"), "2");
  EXPECT_EQ(value_of(spans, "--distributed-executor-backend"), "ray");
  LaunchFixture s(LaunchStyle::sglang);
  EXPECT_EQ(value_of(s.launch({8, 2, 1, 1}, s.bf16), "--nnodes"), "2");
}

TEST(Launch, Fp8WeightsWithoutAnFp8CheckpointAreQuantizedOnLoad) {
  LaunchFixture f(LaunchStyle::vllm);
  f.model.checkpoints.erase("fp8");
  const LaunchCommand c = f.launch({8, 1, 1, 1}, f.fp8);
  EXPECT_EQ(c.checkpoint, "org/M");
  EXPECT_EQ(value_of(c, "--quantization"), "fp8");
  // trtllm-serve does not quantize on load.
  LaunchFixture t(LaunchStyle::trtllm);
  t.model.checkpoints.erase("fp8");
  EXPECT_THROW(t.launch({8, 1, 1, 1}, t.fp8), InputError);
}

TEST(Launch, RefusesWhatNoFlagCanSay) {
  LaunchFixture f(LaunchStyle::vllm);
  const Dtype int8 = test::make_dtype("int8", 1);
  f.workload.kv_dtype = &int8;
  EXPECT_THROW(f.launch({8, 1, 1, 1}, f.bf16), InputError);
  LaunchFixture none(LaunchStyle::vllm);
  none.model.checkpoints.clear();
  EXPECT_THROW(none.launch({8, 1, 1, 1}, none.bf16), InputError);
  LaunchFixture bare(LaunchStyle::vllm);
  bare.engine.launch.reset();
  EXPECT_THROW(bare.launch({8, 1, 1, 1}, bare.bf16), InputError);
}

TEST(Launch, ScriptWritesTheOptionsFileThenTheCommand) {
  LaunchFixture f(LaunchStyle::trtllm);
  f.workload.kv_dtype = &f.fp8;
  LaunchCommand c = f.launch({1, 1, 8, 1}, f.fp8);
  write_launch_words(c);
  EXPECT_NE(c.script.find("cat > icx-trtllm.yaml <<'EOF'\nenable_attention_dp: true\n"
                          "kv_cache_config:\n  dtype: fp8\nEOF\n"),
            std::string::npos);
  EXPECT_NE(c.script.find("trtllm-serve org/M-FP8 \\\n  --tp_size 8 \\\n  --ep_size 8 \\\n"),
            std::string::npos);
  for (const LaunchArg& arg : c.args) {
    EXPECT_FALSE(arg.reason.empty()) << arg.flag;
  }
}

/// A model entry whose keys after the architecture are `extra`.
std::string model_with(const std::string& extra) {
  return R"({"models": [{"id": "m", "name": "M", "hidden": 4096, "layers": 32,
    "total_params": 8e9, "default_dtype": "bf16", "attention_heads": 32, "kv_heads": 8,
    "head_dim": 128, "intermediate_size": 14336, "vocab_size": 128256, )" +
         extra + R"("source": "s"}]})";
}

TEST(LaunchCatalog, ReadsCheckpointsAndLaunchStyles) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(
      model_with(R"("checkpoints": {"fp8": "org/M-FP8"}, "checkpoints_source": "card", )"),
      "m.json");
  EXPECT_EQ(catalog.model("m").checkpoints.at("fp8"), "org/M-FP8");
  EXPECT_EQ(catalog.engine("sglang").launch->style, LaunchStyle::sglang);
  EXPECT_EQ(catalog.model("70b").checkpoints.at("bf16"), "meta-llama/Llama-3.1-70B-Instruct");
}

TEST(LaunchCatalog, RefusesCheckpointsWithoutSourceOrDtype) {
  const std::string unsourced =
      test::catalog_error(Catalog::shipped(), model_with(R"("checkpoints": {"bf16": "a/b"}, )"));
  EXPECT_NE(unsourced.find("/models/0/checkpoints"), std::string::npos) << unsourced;
  const std::string dtype = test::catalog_error(
      Catalog::shipped(),
      model_with(R"("checkpoints": {"bf17": "a/b"}, "checkpoints_source": "c", )"));
  EXPECT_NE(dtype.find("'bf17' is not a known dtype"), std::string::npos) << dtype;
}

} // namespace
} // namespace icx::unit_launch
