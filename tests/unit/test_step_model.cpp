#include "icx/serving/step_model.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace icx::unit_step_model {
namespace {

// Shipped catalog entries: the models' published configurations and the GPUs' datasheets.
class StepModelTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();
  const Model& llama70 = catalog.model("70b");
  const Model& dsv3 = catalog.model("deepseek-v3");
  const Dtype& bf16 = catalog.dtype("bf16");
  const Dtype& fp8 = catalog.dtype("fp8");

  Workload prefill(const Model& model, const Dtype& dtype, const Gpu& gpu, std::int64_t tokens,
                   double utilization) const {
    ServingRequest r;
    r.phase = Phase::prefill;
    r.tokens = tokens;
    r.utilization = utilization;
    return workload_for(catalog, model, dtype, gpu, r);
  }
  /// 70B BF16 decoding `batch` sequences at 2048 tokens of context on h100-sxm.
  Workload decode_70b(std::int64_t batch) const {
    ServingRequest r;
    r.phase = Phase::decode;
    r.context = 2048;
    r.batch = batch;
    return workload_for(catalog, llama70, bf16, catalog.gpu("h100-sxm"), r);
  }
};

TEST_F(StepModelTest, KvBytesPerToken) {
  // Keys and values × 80 layers × 8 KV heads × 128 × 2 B = 327,680.
  EXPECT_EQ(kv_bytes_per_token(llama70, bf16).value(), 327680.0);
  // Latent attention caches one vector per layer: 61 × (512 + 64) × 2 B = 70,272.
  EXPECT_EQ(kv_bytes_per_token(dsv3, bf16).value(), 70272.0);
  EXPECT_EQ(kv_bytes_per_token(dsv3, fp8).value(), 35136.0);
}

TEST_F(StepModelTest, ActivationsStaySixteenBitUnderNarrowWeights) {
  EXPECT_EQ(&activation_dtype(catalog, fp8), &bf16);
  EXPECT_EQ(&activation_dtype(catalog, bf16), &bf16);
  const Dtype& fp32 = catalog.dtype("fp32");
  EXPECT_EQ(&activation_dtype(catalog, fp32), &fp32);
}

TEST_F(StepModelTest, WorkloadDefaults) {
  const Gpu& h100 = catalog.gpu("h100-sxm");
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 2048;
  const Workload latency = workload_for(catalog, llama70, fp8, h100, r);
  EXPECT_EQ(latency.act_dtype, &bf16);
  EXPECT_EQ(latency.kv_dtype, &bf16);
  EXPECT_EQ(latency.batch, 1);           // the latency objective runs one sequence
  EXPECT_EQ(latency.hbm_fraction, 0.89); // the catalog's Triad measurement of h100-sxm
  r.objective = Objective::throughput;
  r.kv_dtype = &fp8;
  const Workload throughput = workload_for(catalog, llama70, fp8, h100, r);
  EXPECT_FALSE(throughput.batch.has_value()); // as many as memory holds
  EXPECT_EQ(throughput.kv_dtype, &fp8);
}

TEST_F(StepModelTest, WeightsPerGpuOfATensorGroup) {
  // 70,553,706,496 params × 2 B = 141.1 GB over 8 GPUs.
  EXPECT_EQ(weights_per_gpu(llama70, bf16, bf16, Layout{8, 1, 1, 1}).value(),
            70553706496.0 * 2 / 8);
  // Replicas hold the whole shard again: tp 4 × dp 2 holds a quarter on each GPU.
  EXPECT_EQ(weights_per_gpu(llama70, bf16, bf16, Layout{4, 1, 1, 2}).value(),
            70553706496.0 * 2 / 4);
}

TEST_F(StepModelTest, ExpertParallelKeepsTheDensePartReplicated) {
  // DeepSeek-V3 in FP8 (1 B): per expert (671e9 − 37e9) / 248, dense 671e9 − 256 × that.
  // EP 8: the dense part whole on every GPU, 32 of the 256 experts.
  const double per_expert = (671e9 - 37e9) / 248;
  const double dense = 671e9 - 256 * per_expert;
  EXPECT_NEAR(weights_per_gpu(dsv3, fp8, fp8, Layout{1, 1, 8, 1}).value(),
              dense + 256 * per_expert / 8, 1e3);
  // About 98.3 GB: more than the 671 GB / 8 = 83.9 GB an even split would give.
  EXPECT_NEAR(weights_per_gpu(dsv3, fp8, fp8, Layout{1, 1, 8, 1}).value(), 98.35e9, 0.01e9);
  // TP 8 splits both parts: 671 GB / 8.
  EXPECT_NEAR(weights_per_gpu(dsv3, fp8, fp8, Layout{8, 1, 1, 1}).value(), 671e9 / 8, 1e3);
}

TEST_F(StepModelTest, LayoutMemoryHoldsWeightsAndKvCache) {
  // 70B BF16 on TP 8 of h100-sxm with a flat 20 % reserve: 17.64 GB of weights; usable
  // 81,559 MiB (nvidia-smi's total) × 0.8 = 68,416,647,987.2 B. One sequence of 2048 cached
  // tokens + 1 at 327,680 B each, split over 8 KV heads on 8 GPUs: 2049 × 40,960 B =
  // 83,927,040 B per GPU.
  const Gpu& h100 = catalog.gpu("h100-sxm");
  Workload w = decode_70b(1);
  w.memory_reserve = 0.2;
  const LayoutMemory m = layout_memory(h100, w, Layout{8, 1, 1, 1}, 1);
  EXPECT_EQ(m.weights_per_gpu.value(), 70553706496.0 * 2 / 8);
  EXPECT_DOUBLE_EQ(m.usable_per_gpu.value(), 81559.0 * 1048576 * 0.8);
  EXPECT_DOUBLE_EQ(m.kv_per_gpu.value(), 2049 * 40960.0);
  EXPECT_TRUE(m.fits());
  // Capacity: (68,416,647,987.2 − 17,638,426,624) / 83,927,040 = 605.03: 605 sequences.
  EXPECT_EQ(m.replica_capacity, 605);
  // TP 1: 141.1 GB of weights do not fit 68.4 GB, no sequence does.
  const LayoutMemory one = layout_memory(h100, w, Layout{1, 1, 1, 8}, 1);
  EXPECT_FALSE(one.fits());
  EXPECT_EQ(one.replica_capacity, 0);
}

TEST_F(StepModelTest, StepBatchSpreadsTheSequences) {
  const Workload w = decode_70b(32);
  // 32 sequences over 2 replicas of 2 stages: 16 per replica, 8 per micro-batch.
  const StepBatch b = step_batch(w, Layout{2, 2, 1, 2}, 1000);
  EXPECT_EQ(b.total, 32);
  EXPECT_EQ(b.replica, 16);
  EXPECT_EQ(b.micro, 8);
  EXPECT_EQ(b.per_rank, 8);
  EXPECT_EQ(b.tokens_per_sequence, 1);
  // Without a batch: each replica at min(capacity, max_batch).
  Workload open = w;
  open.batch.reset();
  open.max_batch = 256;
  EXPECT_EQ(step_batch(open, Layout{8, 1, 1, 1}, 552).replica, 256);
  EXPECT_EQ(step_batch(open, Layout{4, 1, 1, 2}, 100).total, 200);
  EXPECT_EQ(step_batch(open, Layout{4, 1, 1, 2}, 0).replica, 1); // at least one sequence
}

/// Llama 3.1 70B's weight GEMMs: its 70,553,706,496 parameters less the input embedding and
/// the LM head (128,256 × 8,192 each; the input embedding is a lookup).
constexpr double llama70_layer_gemms = 70553706496.0 - 2 * 128256.0 * 8192;
constexpr double llama70_lm_head = 128256.0 * 8192;

TEST_F(StepModelTest, LongPrefillIsDominatedByAttention) {
  // 70B prefill of 131,072 tokens on TP 8 of h100-sxm at 989e12 × 0.5 FLOP/s (--mfu 0.5):
  //   the layers' GEMMs: 2 × 68,452,360,192 × 131,072 / 8 = 2.243e15 FLOP → 4.536 s, and the
  //   LM head for the prompt's last token only;
  //   attention: 22,517,998,136,852,480 / 8 = 2.815e15 FLOP → 5.692 s;
  //   together 10.23 s (the acceptance band is 9.5–11.5 s).
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Workload w = prefill(llama70, bf16, h100, 131072, 0.5);
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(h100, w, tp8, step_batch(w, tp8, 1));
  const double rate = 989e12 * 0.5;
  const double weights = (2 * llama70_layer_gemms * 131072 + 2 * llama70_lm_head) / 8;
  const double attention = 22517998136852480.0 / 8;
  EXPECT_NEAR(weights / rate, 4.536, 0.005);
  EXPECT_NEAR(work.compute.value(), (weights + attention) / rate, 1e-6);
  EXPECT_GT(work.compute.value(), 9.5);
  EXPECT_LT(work.compute.value(), 11.5);
  // Every operation but the LM head is compute-bound: the stage takes what its FLOPs take,
  // but for the LM head's one row, which reads its 128,256 × 8192 × 2 B / 8 = 262.7 MB at
  // 3.35 TB/s × 0.89 (the catalog's Triad fraction). The weights (17.6 GB) and the activations
  // each GEMM reads and writes would take a twentieth of the stage.
  const double lm_head_read = llama70_lm_head * 2 / 8 / (3.35e12 * 0.89);
  EXPECT_NEAR(work.seconds.value() - work.compute.value(), lm_head_read, 1e-6);
  EXPECT_LT(work.memory.value(), work.compute.value() / 20);
}

TEST_F(StepModelTest, ShortPrefillAttentionAddsAFewPercent) {
  // At 4096 tokens: attention 1,310,720 × 4096² = 2.199e13 FLOP against the GEMMs' 2 ×
  // 68.45e9 × 4096 = 5.608e14: 3.9 %.
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Workload w = prefill(llama70, bf16, h100, 4096, 0.5);
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(h100, w, tp8, step_batch(w, tp8, 1));
  const double without =
      (2 * llama70_layer_gemms * 4096 + 2 * llama70_lm_head) / 8 / (989e12 * 0.5);
  EXPECT_NEAR(work.compute.value() / without, 1.039, 0.002);
}

/// A dense model of `params` parameters without heads: no attention FLOPs and no KV cache, so
/// a stage does the weights' work alone.
Model headless(double params) {
  Model model;
  model.id = "headless";
  model.hidden = 8192;
  model.layers = 80;
  model.total_params = params;
  model.active_params = params;
  return model;
}

/// The stage's attention term.
StepTerm attention_of(const StageWork& work) {
  for (const StepTerm& term : work.terms) {
    if (term.op == StepOp::attention) {
      return term;
    }
  }
  return {};
}

TEST_F(StepModelTest, PrefillAttentionRunsAtTheMeasuredKernelsRate) {
  // 70B, 4096 tokens, TP 8 on h100-sxm by its curves: each GPU's 8 heads of 128 run
  // 4 × 8 × 128 × 4096² / 2 = 34,359,738,368 FLOPs per layer at 989e12 × 0.98 × 4096 / 5162 ×
  // 128 / 179.5 = 548.4 TFLOP/s: 62.65 µs, plus the 13.5 µs launch, over 80 layers 6.092 ms.
  const Gpu& h100 = catalog.gpu("h100-sxm");
  ServingRequest r;
  r.phase = Phase::prefill;
  r.tokens = 4096;
  const Workload w = workload_for(catalog, llama70, bf16, h100, r);
  const Layout tp8{8, 1, 1, 1};
  const StepTerm attention = attention_of(stage_work(h100, w, tp8, step_batch(w, tp8, 1)));
  const double per_layer = 34359738368.0 / (989e12 * 0.98 * 4096 / 5162 * 128 / 179.5);
  EXPECT_NEAR(per_layer, 62.65e-6, 0.01e-6);
  EXPECT_NEAR(attention.seconds.value(), 80 * (per_layer + 13.5e-6), 1e-9);
  EXPECT_EQ(attention.bound, GemmBound::compute);
}

TEST_F(StepModelTest, AModelWithoutHeadsHasNoAttentionToPrice) {
  // Known by its shape alone, the model has no attention FLOPs and no cache: its attention
  // costs nothing, even on a GPU with an attention curve (whose launch it does not pay).
  const Gpu& h100 = catalog.gpu("h100-sxm");
  ServingRequest r;
  r.phase = Phase::prefill;
  r.tokens = 4096;
  const Model model = headless(70e9); // the workload points at it
  const Workload w = workload_for(catalog, model, bf16, h100, r);
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(h100, w, tp8, step_batch(w, tp8, 1));
  EXPECT_EQ(attention_of(work).seconds.value(), 0);
  EXPECT_TRUE(std::isfinite(work.seconds.value()));
}

TEST_F(StepModelTest, MoeDecodeReadsOnlyTheExpertsItTouches) {
  // DeepSeek-V3 FP8, one sequence, TP 8 on one dgx-h200 node. Its config: hidden 7168, 61
  // layers (3 dense), 128 heads, q_lora_rank 1536, kv_lora_rank 512, rope 64, nope 128, value
  // 128, one shared expert and 256 routed ones of width 2048, vocabulary 129,280.
  // A routed expert holds (671e9 − 37e9) / 248 = 2.556 GB; the shared weights 671e9 − 256 ×
  // that = 16.55 GB, of which the layers' GEMMs are 16.55e9 − 2 × 129,280 × 7168 = 14.70 GB.
  // The config's shapes give 15.16 GB, so each is scaled by 14.70 / 15.16 = 0.9695 to the
  // parameter count. The low-rank down projections of the query and the latent (1536 + 576)
  // × 7168 per layer are held whole by every GPU of the group (as vLLM's replicated linear
  // layers), so 7 GPUs read them once more. One token touches 8 experts, and every GPU reads
  // the BF16 latent cache of 4096 tokens (70,272 × 4096 = 288 MB): 47.3 GB in all, nowhere
  // near 671 GB.
  const Gpu& h200 = catalog.gpu(catalog.system("dgx-h200").gpu);
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 4096;
  r.batch = 1;
  const Workload w = workload_for(catalog, dsv3, fp8, h200, r);
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(h200, w, tp8, step_batch(w, tp8, 1));
  const double summed = work.read.value() * 8;
  const double expert = (671e9 - 37e9) / 248;
  const double embedding = 129280.0 * 7168;
  const double gemms = 671e9 - 256 * expert - 2 * embedding;
  const double attention =
      1536.0 * 7168 + 1536.0 * 128 * 192 + 576.0 * 7168 + 512.0 * 128 * 256 + 128.0 * 128 * 7168;
  const double shaped = attention * 61 + 3.0 * 7168 * 18432 * 3 + 3.0 * 7168 * 2048 * 58;
  const double replicated = 7 * (gemms / shaped) * (1536.0 + 576) * 7168 * 61;
  const double expected = gemms + replicated + embedding + 8 * expert + 8 * 70272.0 * 4096;
  EXPECT_LT(summed, 60e9);
  // The activations add about 0.13 GB: 2 B per output and 1 B per FP8 input of each GEMM,
  // 0.26 MB per layer on each GPU, most of it the 8 experts' (8 × (7168 + 2 × 512 + 256 + 2 ×
  // 7168) B).
  EXPECT_GT(summed, expected);
  EXPECT_LT(summed, expected + 0.15e9);
}

TEST_F(StepModelTest, SeedPrefillOnEightH100s) {
  // 2 × 70,553,706,496 × 4096 / 8 GPUs = 7.2247e13 FLOPs at 989e12 × 0.5 = 0.146101 s: the
  // 146 ms the headline table's 4,096-token prefill computes for.
  const Model model = headless(70553706496);
  const Workload w = prefill(model, bf16, catalog.gpu("h100-sxm"), 4096, 0.5);
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(catalog.gpu("h100-sxm"), w, tp8, step_batch(w, tp8, 1));
  EXPECT_NEAR(work.compute.value(), 0.146101, 1e-6);
}

TEST_F(StepModelTest, DecodeStepReadsEveryWeightOnce) {
  // 140 GB over 8 GPUs at 3.35 TB/s each (the datasheet figure: --hbm-fraction 1), and the
  // token's activations, 2 B per input and output of each GEMM: GPT's layer (QKV 3h × h,
  // output h × h, MLP 8h × h and h × 4h, outputs scaled by 70e9 / (12 × 8192² × 80) to the
  // parameter count) split 8 ways has 21,504 inputs and 23,552 × that scale outputs per GPU.
  // The KV cache's shape is given (a decode step needs it); at no context it adds no bytes.
  Model model = headless(70e9);
  model.kv_heads = 8;
  model.head_dim = 128;
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 0;
  r.hbm_fraction = 1.0;
  r.utilization = 0.5; // as --mfu: every GEMM at one utilisation, not the GPU's curve
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Workload w = workload_for(catalog, model, bf16, h100, r);
  const Layout tp8{8, 1, 1, 1};
  const double scale = 70e9 / (12.0 * 8192 * 8192 * 80);
  const double activations = 2 * (21504 + 23552 * scale) * 80;
  EXPECT_NEAR(stage_work(h100, w, tp8, step_batch(w, tp8, 1)).memory.value(),
              (17.5e9 + activations) / 3.35e12, 1e-12);
}

} // namespace
} // namespace icx::unit_step_model
