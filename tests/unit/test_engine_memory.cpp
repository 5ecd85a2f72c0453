#include "icx/serving/engine_memory.hpp"

#include <gtest/gtest.h>

#include "icx/serving/engine.hpp"

namespace icx::unit_engine_memory {
namespace {

// The engines' memory rules against their own arithmetic and one published start-up log.
class EngineMemoryTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Dtype& bf16 = catalog.dtype("bf16");
  /// nvidia-smi's 81,559 MiB.
  static constexpr double h100_bytes = 81559.0 * 1048576;
  /// vLLM's non-torch memory on one H100 (vLLM PR 10511), the catalog's runtime figure.
  static constexpr double runtime = 1.79 * 1073741824;

  Workload decode(const Model& model, const char* engine,
                  std::optional<std::int64_t> max_batch = std::nullopt) const {
    ServingRequest r;
    r.phase = Phase::decode;
    r.context = 2048;
    r.batch = 1;
    r.engine = &catalog.engine(engine);
    r.max_batch = max_batch;
    return workload_for(catalog, model, bf16, h100, r);
  }
};

TEST_F(EngineMemoryTest, VllmMatchesItsLoggedKvCacheForLlama8B) {
  // vLLM PR 10511, Llama-3-8B BF16 on one H100 at gpu_memory_utilization 0.90 (max_num_seqs
  // 256 then, max_num_batched_tokens 8192): weights 14.96 GiB, activations 1.26 GiB,
  // non-torch 1.79 GiB, KV cache 53.29 GiB of 79.22 GiB x 0.9.
  const Model& llama8 = catalog.model("llama-3.1-8b");
  const Workload w = decode(llama8, "vllm", 256);
  const Layout one{};
  // Activations by hand: 8192 tokens x (3 x 14336 + 4 x 4096) x 2 B = 973,078,528 B, and the
  // sampler's 2 x 256 x 128,256 x 4 B = 262,668,288 B: 1,235,746,816 B = 1.151 GiB, 8.7 %
  // under the logged 1.26 GiB.
  const Bytes activation = profiled_activation(llama8, one, bf16, 8192, 256);
  EXPECT_DOUBLE_EQ(activation.value(), 973078528.0 + 262668288.0);
  EXPECT_NEAR(activation.value() / gibi, 1.26, 0.15 * 1.26);
  const LayoutMemory m = layout_memory(h100, w, one, 1);
  EXPECT_NEAR(m.weights_per_gpu.value() / gibi, 14.96, 0.01);
  const double kv = (m.usable_per_gpu - m.weights_per_gpu).value();
  // 0.9 x 81,559 MiB - 16,060,522,496 - 1,235,746,816 - 1.79 GiB = 57,750,461,808.6 B, 53.78
  // GiB: 0.9 % above the log, whose total (the CUDA runtime's) is 0.43 GiB below nvidia-smi's.
  EXPECT_NEAR(kv, 0.9 * h100_bytes - 16060522496.0 - 1235746816.0 - runtime, 1e3);
  EXPECT_NEAR(kv / gibi, 53.29, 0.01 * 53.29);
}

TEST_F(EngineMemoryTest, AGivenTokenBudgetIsWhatTheProfilingForwardRuns) {
  // vLLM profiles a forward over max_num_batched_tokens, which --prefill-chunk sets: at 16,384
  // tokens Llama 3.1 8B's is 16384 x (3 x 14336 + 4 x 4096) x 2 B = 1,946,157,056 B, with the
  // sampler's 2 x 256 x 128,256 x 4 B = 262,668,288 B, and the KV cache loses the 973,078,528
  // B more than the default 8,192 tokens hold.
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 2048;
  r.batch = 1;
  r.engine = &catalog.engine("vllm");
  r.max_batch = 256;
  const Model& llama8 = catalog.model("llama-3.1-8b");
  const Workload by_default = workload_for(catalog, llama8, bf16, h100, r);
  r.prefill_chunk = 16384;
  const Workload given = workload_for(catalog, llama8, bf16, h100, r);
  const MemoryBudget budget = memory_budget(h100, given, Layout{}, Bytes{});
  EXPECT_EQ(budget.profile_tokens, 16384);
  EXPECT_DOUBLE_EQ(budget.activation.value(), 1946157056.0 + 262668288.0);
  EXPECT_NEAR((memory_budget(h100, by_default, Layout{}, Bytes{}).usable - budget.usable).value(),
              973078528.0, 1.0);
}

TEST_F(EngineMemoryTest, SglangKeepsBackWhatItsServerArgsSay) {
  // server_args.py: reserved MiB = 512 + 1.5 x max(chunk, 2048) + 2 x cuda_graph_max_bs +
  // tp x pp / 8 x 1024, at least 10240 above 60 GiB; fraction = (memory - reserved) / memory.
  const MemoryReserveRule& rule = *catalog.engine("sglang").memory->reserve;
  // H100, TP 8, chunk 8192: 512 + 12288 + 1024 + 1024 = 14848 MiB kept: 0.81795.
  EXPECT_NEAR(reserve_rule_fraction(rule, Bytes::of(h100_bytes), 8192, Layout{.tp = 8}),
              (81559.0 - 14848) / 81559, 1e-12);
  // B200, TP 1, chunk 16384: 512 + 24576 + 1024 + 128 = 26240 MiB of 183,359: 0.85689.
  EXPECT_NEAR(reserve_rule_fraction(rule, catalog.gpu("b200").memory(), 16384, Layout{}),
              (183359.0 - 26240) / 183359, 1e-12);
  // A 24 GiB GPU at chunk 1024: the chunk counts as 2048, no floor: 512 + 3072 + 1024 + 128.
  EXPECT_NEAR(reserve_rule_fraction(rule, Bytes::of(24576.0 * 1048576), 1024, Layout{}),
              (24576.0 - 4736) / 24576, 1e-12);
  // An 80 GiB GPU whose terms come to less than 10240 MiB keeps 10240.
  EXPECT_NEAR(reserve_rule_fraction(rule, Bytes::of(81920.0 * 1048576), 2048, Layout{}),
              (81920.0 - 10240) / 81920, 1e-12);
  // On 70B TP 8 no activation is subtracted; the runtime is.
  const Workload w = decode(catalog.model("70b"), "sglang");
  const MemoryBudget budget =
      memory_budget(h100, w, Layout{.tp = 8}, Bytes::of(70553706496.0 * 2 / 8));
  EXPECT_EQ(budget.activation.value(), 0);
  EXPECT_NEAR(budget.usable.value(), h100_bytes * (81559.0 - 14848) / 81559 - runtime, 1e3);
}

TEST_F(EngineMemoryTest, TensorRtLlmTakesItsFractionOfWhatIsFree) {
  // 70B BF16 TP 8: weights 17,638,426,624 B; activations 8192 x (3 x 28672 / 8 + 4 x 8192) x
  // 2 B = 713,031,680 B and the sampler's 2 x 2048 x 128,256 x 4 B = 2,101,346,304 B.
  const Workload w = decode(catalog.model("70b"), "trtllm");
  const double weights = 70553706496.0 * 2 / 8;
  const MemoryBudget budget = memory_budget(h100, w, Layout{.tp = 8}, Bytes::of(weights));
  EXPECT_DOUBLE_EQ(budget.activation.value(), 713031680.0 + 2101346304.0);
  const double free = h100_bytes - weights - 713031680.0 - 2101346304.0 - runtime;
  EXPECT_NEAR(budget.usable.value(), weights + 0.9 * free, 1e3);
}

TEST_F(EngineMemoryTest, AGivenReserveReplacesTheEngineRule) {
  Workload w = decode(catalog.model("70b"), "vllm");
  w.memory_reserve = 0.1;
  const MemoryBudget budget = memory_budget(h100, w, Layout{.tp = 8}, Bytes::of(1e9));
  EXPECT_EQ(budget.rule, nullptr);
  EXPECT_DOUBLE_EQ(budget.usable.value(), h100_bytes * 0.9);
}

TEST_F(EngineMemoryTest, GptOss120bFitsOneH100AsPublished) {
  // OpenAI's model card: gpt-oss-120b runs on a single 80 GB GPU. Under vLLM's rule: 0.9 x
  // 85.52 GB less activations and runtime leaves 72.6 GB for 65.2 GB of weights.
  const Workload w = decode(catalog.model("gpt-oss-120b"), "vllm");
  const LayoutMemory m = layout_memory(h100, w, Layout{}, 1);
  EXPECT_TRUE(m.fits());
  EXPECT_GE(m.replica_capacity, 1);
}

} // namespace
} // namespace icx::unit_engine_memory
