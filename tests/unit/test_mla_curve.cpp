// Latent attention's own kernel curve (gpus[].mla): read and written back like the attention
// curve, taken by an engine without its own, and chosen for a model with latent attention.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "icx/serving/attention.hpp"
#include "icx/serving/step_model.hpp"
#include "kernel_fit_check.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_mla_curve {
namespace {

/// A GPU "g" (3.35 TB/s, 1000 TFLOP/s bf16) with an attention curve and an MLA curve that
/// differ in every decode figure, and SGLang's own GEMM curve (so it takes the default MLA).
const char* const gpu_with_mla = R"({"gpus": [{"id": "g", "name": "G", "hbm_GB": 192,
  "hbm_bandwidth_GBps": 3350, "dense_tflops": {"bf16": 1000, "fp8": 2000},
  "scale_up_link": "nvlink4", "scale_up_domain": 8, "achievable_mfu": 0.5, "source": "s",
  "attention": {"prefill": {"compute_fraction": 0.9, "half_tokens": 1000, "half_head_dim": 50,
                            "launch_us": 10},
                "decode": {"memory_fraction": 0.8, "head_ns": 2, "launch_us": 10,
                           "fp8_cache_scale": 0.7}},
  "mla": {"prefill": {"compute_fraction": 0.5, "half_tokens": 2000, "half_head_dim": 0,
                      "launch_us": 20},
          "decode": {"memory_fraction": 0.5, "head_ns": 40, "launch_us": 30,
                     "fp8_cache_scale": 1}},
  "engine_curves": {"sglang": {"gemm": {"bf16": {"compute_fraction": 0.4, "half_weights_M": 1,
    "memory_fraction": 0.8, "knee": 8, "floor_us": 5, "launch_us": 2}}}}}]})";

class MlaCurveTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();
  void SetUp() override { catalog.overlay_text(gpu_with_mla, "user.json"); }
};

TEST_F(MlaCurveTest, ReadWrittenBackAndTakenByAnEngineWithoutItsOwn) {
  const Gpu& gpu = catalog.gpu("g");
  ASSERT_TRUE(gpu.curves.mla);
  EXPECT_DOUBLE_EQ(gpu.curves.mla->memory_fraction, 0.5);
  EXPECT_DOUBLE_EQ(gpu.curves.mla->per_head.value(), 40e-9);
  EXPECT_DOUBLE_EQ(gpu.curves.mla->half_head_dim, 0);
  EXPECT_EQ(gpu.curves_for(&catalog.engine("sglang")).mla, gpu.curves.mla);
  const nlohmann::ordered_json written = gpu;
  EXPECT_EQ(written["mla"]["decode"]["head_ns"], 40);
  EXPECT_FALSE(written["engine_curves"]["sglang"].contains("mla"));
  Catalog again = Catalog::shipped();
  nlohmann::ordered_json doc;
  doc["gpus"] = {written};
  again.overlay_text(doc.dump(), "again.json");
  EXPECT_EQ(again.gpu("g").curves.mla, gpu.curves.mla);
}

TEST_F(MlaCurveTest, ALatentModelRunsByTheMlaCurveAndOthersByTheAttentionCurve) {
  const Gpu& gpu = catalog.gpu("g");
  EXPECT_EQ(attention_curve(gpu.curves, catalog.model("deepseek-v3")), &*gpu.curves.mla);
  EXPECT_EQ(attention_curve(gpu.curves, catalog.model("70b")), &*gpu.curves.attention);
  KernelCurves without = gpu.curves;
  without.mla.reset();
  EXPECT_EQ(attention_curve(without, catalog.model("deepseek-v3")), &*without.attention);
}

TEST_F(MlaCurveTest, ADeepSeekDecodeLayerReadsItsLatentCacheAtTheMlaRate) {
  // DeepSeek-V3, one sequence at 4096 tokens of context, TP 8: each GPU reads the whole latent
  // cache, 4096 × (512 + 64) × 2 B = 4,718,592 B per layer, at 3.35 TB/s × 0.5, and pays 16
  // heads × 40 ns and the 30 µs launch: 2.8170 + 0.64 + 30 µs per layer, 61 layers.
  const Gpu& gpu = catalog.gpu("g");
  ServingRequest r;
  r.phase = Phase::decode;
  r.context = 4096;
  r.batch = 1;
  const Dtype& bf16 = catalog.dtype("bf16");
  const Workload w = workload_for(catalog, catalog.model("deepseek-v3"), bf16, gpu,
                                  with_default_dtypes(catalog, bf16, r));
  const Layout tp8{8, 1, 1, 1};
  const StageWork work = stage_work(gpu, w, tp8, step_batch(w, tp8, 1));
  const auto attention = std::ranges::find(work.terms, StepOp::attention, &StepTerm::op);
  ASSERT_NE(attention, work.terms.end());
  const double per_layer = 4096.0 * 576 * 2 / (3.35e12 * 0.5) + 16 * 40e-9 + 30e-6;
  EXPECT_NEAR(attention->seconds.value(), 61 * per_layer, 1e-9);
}

TEST_F(MlaCurveTest, AnIncompleteCurveIsRefusedWithItsPointer) {
  const std::string error = test::catalog_error(Catalog::shipped(), R"({"gpus": [{"id": "g",
    "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350, "dense_tflops": {"bf16": 1000},
    "scale_up_link": "nvlink4", "scale_up_domain": 8, "achievable_mfu": 0.5, "source": "s",
    "mla": {"prefill": {"compute_fraction": 0.5, "half_tokens": 2000, "half_head_dim": 0,
                        "launch_us": 20}}}]})");
  EXPECT_NE(error.find("/gpus/0/mla"), std::string::npos) << error;
}

/// The shipped MLA curves against aiconfigurator's one-layer MLA rows
/// (data/measurements/kernels/mla.csv; tools/fit/fit_mla.py), priced as the step model prices
/// DeepSeek-V3: prefill FLOPs 2·h·(192 + 128)·b·s²/2 at a head width of 160, decode reading
/// b·c·576 elements of the latent cache. The default curves are fitted to TensorRT-LLM's rows
/// (no kernel-only vLLM table is published), SGLang's own where closer; the H200's rows check
/// the H100's curves it borrows.
TEST(MlaCurves, TheShippedCurvesFollowTheMeasuredKernels) {
  const Catalog catalog = Catalog::shipped();
  const Model& dsv3 = catalog.model("deepseek-v3");
  test::KernelErrors errors;
  const auto rows = test::measurement_rows("kernels/mla.csv");
  ASSERT_GE(rows.size(), 1400U);
  for (const std::vector<std::string>& f : rows) {
    const Gpu& gpu = catalog.gpu(f.at(0));
    const KernelCurves& curves = gpu.curves_for(&catalog.engine(f.at(1)));
    const AttentionCurve* curve = attention_curve(curves, dsv3);
    ASSERT_TRUE(curve != nullptr && curves.mla) << f.at(0);
    const double b = std::stod(f.at(5));
    const double s = std::stod(f.at(6));
    const double c = std::stod(f.at(7));
    const double h = std::stod(f.at(8));
    const double w = catalog.dtype(f.at(11)).bytes_per_element;
    const double seconds =
        f.at(4) == "prefill"
            ? prefill_attention_time(*curve, *attention_peak(gpu, curves),
                                     Flops::of(2 * h * (192 + 128) * b * s * s / 2), s, 160)
                  .seconds.value()
            : decode_attention_time(*curve, gpu.hbm_bandwidth,
                                    {Bytes::of(b * c * 576 * w), b, h, w, 0, Seconds{}})
                  .seconds.value();
    errors[{f.at(0) + " " + f.at(4), test::engine_label(gpu, f.at(1))}].push_back(
        std::abs(seconds / (std::stod(f.at(12)) * 1e-3) - 1));
  }
  // Fitted within 10 % (the B200's decode at 9.9 %; SGLang's B200 decode rows, priced by the
  // default curve, at 11.2 %); held out (the H200 by the H100's curves) within 25 %.
  const std::map<std::pair<std::string, std::string>, double> bound{
      {{"b200 decode", "trtllm"}, 0.10},
      {{"b200 decode", "sglang"}, 0.12},
      {{"b200 prefill", "trtllm"}, 0.10},
      {{"b200 prefill", "sglang"}, 0.10},
      {{"h100-sxm decode", "trtllm"}, 0.10},
      {{"h100-sxm decode", "sglang"}, 0.10},
      {{"h100-sxm prefill", "trtllm"}, 0.10},
      {{"h200 decode", "trtllm on h100-sxm's curves"}, 0.25},
      {{"h200 decode", "sglang on h100-sxm's curves"}, 0.25},
      {{"h200 prefill", "trtllm on h100-sxm's curves"}, 0.10}};
  ASSERT_EQ(errors.size(), bound.size());
  for (const auto& [key, e] : errors) {
    const double median = detail::median(e);
    std::cout << key.first << " " << key.second << ": median |error| " << median * 100 << " %\n";
    EXPECT_LE(median, bound.at(key)) << key.first << " " << key.second;
  }
}

} // namespace
} // namespace icx::unit_mla_curve
