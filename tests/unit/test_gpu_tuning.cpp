// A GPU's named setups of the serving software (GpuTuning, --tuning): read from the catalog,
// refused when malformed, and applied to a step's efficiencies and all-reduce rings.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/util/input_error.hpp"
#include "icx/wire/collectives.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_gpu_tuning {
namespace {

/// A GPU "g" on the shipped catalog's nvlink4 with `tunings` (a JSON object's body).
std::string gpu_with(const std::string& tunings) {
  return R"({"gpus": [{"id": "g", "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 1000,
    "dense_tflops": {"bf16": 100}, "scale_up_link": "nvlink4", "scale_up_domain": 8,
    "achievable_mfu": 0.5, "achievable_hbm_fraction": 0.8, "tunings": {)" +
         tunings + R"(}, "source": "s"}]})";
}

TEST(GpuTuning, ShippedMi300xHasAStockDefaultAndTheTunedCatalogFigures) {
  const Catalog catalog = Catalog::shipped();
  const Gpu& mi300x = catalog.gpu("mi300x");
  const GpuTuning* stock = gpu_tuning(mi300x, "");
  ASSERT_NE(stock, nullptr);
  EXPECT_EQ(stock->id, "stock");
  EXPECT_EQ(stock->hbm_fraction, 0.40);
  EXPECT_EQ(stock->mfu, 0.3);
  EXPECT_EQ(stock->attention_mfu, 0.025);
  EXPECT_EQ(stock->moe_mfu, 0.06);
  EXPECT_NEAR(stock->ring_step.value(), 10e-6, 1e-15);
  const GpuTuning* tuned = gpu_tuning(mi300x, "tuned");
  ASSERT_NE(tuned, nullptr);
  EXPECT_FALSE(tuned->hbm_fraction.has_value());
  EXPECT_FALSE(tuned->mfu.has_value());
  EXPECT_EQ(tuned->ring_step.value(), 0);
  // A GPU without tunings has none, whatever is asked.
  EXPECT_EQ(gpu_tuning(catalog.gpu("h100-sxm"), "stock"), nullptr);
}

TEST(GpuTuning, AnUnknownTuningNamesTheGpusOwn) {
  const Catalog catalog = Catalog::shipped();
  try {
    (void)gpu_tuning(catalog.gpu("mi300x"), "fast");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'fast'"), std::string::npos) << message;
    EXPECT_NE(message.find("stock, tuned"), std::string::npos) << message;
  }
}

TEST(GpuTuning, OverlayIsCheckedWithItsPointer) {
  const Catalog catalog = Catalog::shipped();
  EXPECT_EQ(test::catalog_error(catalog, gpu_with(R"("a": {"name": "A", "default": true,
    "hbm_fraction": 0.5, "source": "s"})")),
            "(no error)");
  const std::string two_defaults =
      test::catalog_error(catalog, gpu_with(R"("a": {"name": "A", "default": true, "source": "s"},
                           "b": {"name": "B", "default": true, "source": "s"})"));
  EXPECT_NE(two_defaults.find("/gpus/0"), std::string::npos) << two_defaults;
  EXPECT_NE(two_defaults.find("exactly one"), std::string::npos) << two_defaults;
  const std::string no_default =
      test::catalog_error(catalog, gpu_with(R"("a": {"name": "A", "source": "s"})"));
  EXPECT_NE(no_default.find("found 0"), std::string::npos) << no_default;
  const std::string too_high = test::catalog_error(
      catalog, gpu_with(R"("a": {"name": "A", "default": true, "hbm_fraction": 1.5,
                                "source": "s"})"));
  EXPECT_NE(too_high.find("/gpus/0/tunings/a/hbm_fraction"), std::string::npos) << too_high;
  const std::string scale_too_high = test::catalog_error(
      catalog, gpu_with(R"("a": {"name": "A", "default": true, "cache_read_scale": 1.2,
                                "source": "s"})"));
  EXPECT_NE(scale_too_high.find("/gpus/0/tunings/a/cache_read_scale"), std::string::npos)
      << scale_too_high;
  const std::string unknown = test::catalog_error(
      catalog, gpu_with(R"("a": {"name": "A", "default": true, "speed": 2, "source": "s"})"));
  EXPECT_NE(unknown.find("/gpus/0/tunings/a"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("speed"), std::string::npos) << unknown;
}

struct GpuTuningStep : ::testing::Test {
  Catalog catalog = Catalog::shipped();
  const Model& llama70 = catalog.model("llama-3.1-70b");
  const Dtype& bf16 = catalog.dtype("bf16");
  const Gpu& mi300x = catalog.gpu("mi300x");
  Workload workload(const std::string& tuning, std::optional<double> hbm = std::nullopt) {
    ServingRequest r;
    r.phase = Phase::decode;
    r.tuning = tuning;
    r.hbm_fraction = hbm;
    return workload_for(catalog, llama70, bf16, mi300x, r);
  }
};

TEST_F(GpuTuningStep, TheDefaultTuningSetsTheEfficienciesAndTheRingStep) {
  const Workload stock = workload("");
  EXPECT_EQ(stock.gpu_tuning, gpu_tuning(mi300x, "stock"));
  EXPECT_DOUBLE_EQ(stock.hbm_fraction, 0.40);
  EXPECT_DOUBLE_EQ(stock.rate.utilization, 0.3);
  EXPECT_NEAR(stock.setup.ring_step.value(), 10e-6, 1e-15);
  // The tuned setup is the GPU's own catalog figures: Triad's 0.77 and the assumed 0.5.
  const Workload tuned = workload("tuned");
  EXPECT_DOUBLE_EQ(tuned.hbm_fraction, 0.77);
  EXPECT_DOUBLE_EQ(tuned.rate.utilization, 0.5);
  EXPECT_EQ(tuned.setup.ring_step.value(), 0);
  // A latent-attention MoE model runs every GEMM on the stock image's MoE path at 6 % of peak;
  // another MoE model only its routed experts.
  ServingRequest r;
  r.phase = Phase::prefill;
  const Workload deepseek =
      workload_for(catalog, catalog.model("deepseek-v3"), catalog.dtype("fp8"), mi300x, r);
  EXPECT_DOUBLE_EQ(deepseek.rate.utilization, 0.06);
  EXPECT_DOUBLE_EQ(deepseek.expert_rate.utilization, 0.06);
  EXPECT_TRUE(deepseek.rate_from_tuning);
  const Workload qwen =
      workload_for(catalog, catalog.model("qwen3-235b-a22b"), catalog.dtype("bf16"), mi300x, r);
  EXPECT_DOUBLE_EQ(qwen.rate.utilization, 0.3);
  EXPECT_DOUBLE_EQ(qwen.expert_rate.utilization, 0.06);
  // --mfu sets every GEMM, the experts' too.
  r.utilization = 0.3;
  const Workload given =
      workload_for(catalog, catalog.model("deepseek-v3"), catalog.dtype("fp8"), mi300x, r);
  EXPECT_DOUBLE_EQ(given.rate.utilization, 0.3);
  EXPECT_DOUBLE_EQ(given.expert_rate.utilization, 0.3);
  EXPECT_FALSE(given.rate_from_tuning);
  // --hbm-fraction overrides the tuning's figure; the rest of the tuning stands.
  const Workload hbm_given = workload("", 0.6);
  EXPECT_DOUBLE_EQ(hbm_given.hbm_fraction, 0.6);
  EXPECT_TRUE(hbm_given.hbm_fraction_given);
  EXPECT_DOUBLE_EQ(hbm_given.rate.utilization, 0.3);
}

/// The stage's attention term.
StepTerm attention_of(const StageWork& work) {
  const auto term = std::ranges::find(work.terms, StepOp::attention, &StepTerm::op);
  return term == work.terms.end() ? StepTerm{} : *term;
}

TEST_F(GpuTuningStep, APrefillsAttentionRunsAtTheTuningsOwnShareOfTheBf16Peak) {
  // 70B, a 4096-token prompt, TP 8: each GPU's 8 heads of 128 run 4 × 8 × 128 × 4096² / 2 =
  // 34,359,738,368 FLOPs per layer, over 80 layers, at 2.5 % of the MI300X's 1307.4 TFLOP/s:
  // 84.10 ms, where the GEMMs' 30 % would take a twelfth of it.
  ServingRequest r;
  r.phase = Phase::prefill;
  r.tokens = 4096;
  const Layout tp8{8, 1, 1, 1};
  const double flops = 34359738368.0 * 80;
  const Workload stock = workload_for(catalog, llama70, bf16, mi300x, r);
  const StepTerm attention =
      attention_of(stage_work(mi300x, stock, tp8, step_batch(stock, tp8, 1)));
  EXPECT_NEAR(attention.seconds.value(), flops / (1307.4e12 * 0.025), 1e-9);
  EXPECT_NEAR(attention.seconds.value(), 84.10e-3, 0.01e-3);
  // --mfu prices every operation at the given share, the attention too.
  r.utilization = 0.3;
  const Workload given = workload_for(catalog, llama70, bf16, mi300x, r);
  EXPECT_NEAR(
      attention_of(stage_work(mi300x, given, tp8, step_batch(given, tp8, 1))).seconds.value(),
      flops / (1307.4e12 * 0.3), 1e-9);
  // A latent-attention model's prefill runs on the MoE path (6 %), not the attention figure.
  r.utilization.reset();
  EXPECT_FALSE(workload_for(catalog, catalog.model("deepseek-v3"), catalog.dtype("fp8"), mi300x, r)
                   .prefill_attention_rate.has_value());
}

TEST_F(GpuTuningStep, TheA100ServedTuningReadsTheCacheAtItsShareOfTheCurvesRate) {
  // Llama-3.1-8B on one A100, 64 sequences decoding at a 4,096-token context: each layer
  // reads 64 × 4096 × 8 KV heads × 128 × 2 (keys, values) × 2 bytes = 1,073,741,824 bytes of
  // cache. vLLM's decode curve reads it at 0.729 of 2,039 GB/s (0.722 ms a layer); the served
  // tuning at 0.65 of that (1.111 ms), the kernel tables' tuning at the curve's own rate.
  const Gpu& a100 = catalog.gpu("a100-sxm");
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 4096;
  r.batch = 64;
  const Layout one{1, 1, 1, 1};
  const double layer_bytes = 64.0 * 4096 * 8 * 128 * 2 * 2;
  const auto memory = [&](const std::string& tuning) {
    r.tuning = tuning;
    const Workload w = workload_for(catalog, catalog.model("llama-3.1-8b"), bf16, a100, r);
    return attention_of(stage_work(a100, w, one, step_batch(w, one, 64))).memory.value() / 32;
  };
  EXPECT_EQ(gpu_tuning(a100, "")->id, "served");
  EXPECT_NEAR(memory(""), layer_bytes / (2039e9 * 0.729 * 0.65), 1e-9);
  EXPECT_NEAR(memory(""), 1.111e-3, 0.001e-3);
  EXPECT_NEAR(memory("kernel-tables"), layer_bytes / (2039e9 * 0.729), 1e-9);
}

TEST(GpuTuningRing, EachRingStepOfAnAllReduceTakesTheAddedTime) {
  // test::nvswitch_link's ring: 2 µs a step. A 4-GPU all-reduce has 2 (4 − 1) = 6 steps, so
  // 10 µs more a step adds 60 µs to either ring protocol, whichever is faster.
  const Link link = test::nvswitch_link(true, false);
  CollectiveRequest request{
      Collective::all_reduce, Algorithm::ring, 4, Bytes::of(16384), {Implementation::nccl, {}, {}}};
  const Seconds plain = expected_collective(link, request).time;
  request.setup.ring_step = microseconds(10);
  const Seconds slower = expected_collective(link, request).time;
  EXPECT_NEAR((slower - plain).value(), 60e-6, 1e-12);
}

TEST(GpuTuningRing, OnlyScaleUpAllReducesTakeIt) {
  // The added time was measured on all-reduces over the GPU's own scale-up link: an
  // all-gather there, or an all-reduce over a scale-out link, runs as rccl-tests measure it.
  Link link = test::nvswitch_link(true, false);
  CollectiveRequest gather{
      Collective::all_gather, Algorithm::ring, 4, Bytes::of(16384), {Implementation::nccl, {}, {}}};
  const Seconds plain = expected_collective(link, gather).time;
  gather.setup.ring_step = microseconds(10);
  EXPECT_EQ(expected_collective(link, gather).time.value(), plain.value());
  link.tier = Tier::scale_out;
  CollectiveRequest reduce{
      Collective::all_reduce, Algorithm::ring, 4, Bytes::of(16384), {Implementation::nccl, {}, {}}};
  const Seconds out = expected_collective(link, reduce).time;
  reduce.setup.ring_step = microseconds(10);
  EXPECT_EQ(expected_collective(link, reduce).time.value(), out.value());
}

} // namespace
} // namespace icx::unit_gpu_tuning
