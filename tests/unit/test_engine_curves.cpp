// Kernel curves per engine (gpus[].engine_curves): read, completed from the default engine's,
// chosen by the workload's engine, written back without the default's copies.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "icx/serving/gemm.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_engine_curves {
namespace {

/// A GPU with a default bf16 GEMM curve and attention, and SGLang's own bf16 GEMM curve.
std::string gpu_with_engine_curves(const std::string& engine) {
  return R"({"gpus": [{"id": "g", "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350,
    "dense_tflops": {"bf16": 1000}, "scale_up_link": "nvlink4", "scale_up_domain": 8,
    "achievable_mfu": 0.5, "source": "s",
    "gemm": {"bf16": {"compute_fraction": 0.8, "half_weights_M": 1, "memory_fraction": 0.8,
                      "knee": 8, "floor_us": 5, "launch_us": 2}},
    "attention": {"prefill": {"compute_fraction": 0.9, "half_tokens": 1000, "half_head_dim": 50,
                              "launch_us": 10},
                  "decode": {"memory_fraction": 0.8, "head_ns": 2, "launch_us": 10,
                             "fp8_cache_scale": 0.7}},
    "engine_curves": {")" +
         engine + R"(": {"gemm": {"bf16": {"compute_fraction": 0.4, "half_weights_M": 1,
      "memory_fraction": 0.8, "knee": 8, "floor_us": 5, "launch_us": 2}}}}}]})";
}

TEST(EngineCurves, AnEnginesOwnCurvePricesItsKernels) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(gpu_with_engine_curves("sglang"), "user.json");
  const Gpu& gpu = catalog.gpu("g");
  const KernelCurves& sglang = gpu.curves_for(&catalog.engine("sglang"));
  // 2 × 4096 × 8192 × 8192 FLOP at 1000 TFLOP/s × 0.8 × W / (W + 1M), W = 67.1M weights: the
  // default's compute; SGLang's fraction is half, so its compute takes twice as long.
  const GemmShape shape{4096, 8192, 8192};
  const auto by_default = gemm_time(gpu, gpu.curves, catalog.dtype("bf16"), shape);
  const auto by_sglang = gemm_time(gpu, sglang, catalog.dtype("bf16"), shape);
  ASSERT_TRUE(by_default && by_sglang);
  const double weights = 8192.0 * 8192;
  EXPECT_NEAR(by_default->compute.value(),
              2 * 4096 * weights / (1e15 * 0.8 * weights / (weights + 1e6)), 1e-12);
  EXPECT_NEAR(by_sglang->compute.value() / by_default->compute.value(), 2.0, 1e-12);
  // What SGLang does not give, it takes from the default: the attention curve.
  EXPECT_EQ(sglang.attention, gpu.curves.attention);
  // An engine without curves of its own runs the default's.
  EXPECT_EQ(&gpu.curves_for(&catalog.engine("vllm")), &gpu.curves);
  EXPECT_EQ(&gpu.curves_for(nullptr), &gpu.curves);
}

TEST(EngineCurves, WrittenBackWithoutTheDefaultsCopies) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(gpu_with_engine_curves("sglang"), "user.json");
  const nlohmann::ordered_json written = catalog.gpu("g");
  ASSERT_TRUE(written.contains("engine_curves"));
  const auto& sglang = written["engine_curves"]["sglang"];
  EXPECT_TRUE(sglang.contains("gemm"));
  EXPECT_FALSE(sglang.contains("attention"));
}

TEST(EngineCurves, AnUnknownEngineOrAnEmptyEntryIsRefused) {
  const Catalog shipped = Catalog::shipped();
  EXPECT_EQ(test::catalog_error(shipped, gpu_with_engine_curves("nope")),
            "user.json: gpu 'g': engine_curves 'nope' is not a catalog engine id");
  const std::string empty = test::catalog_error(
      shipped, R"({"gpus": [{"id": "g", "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350,
        "dense_tflops": {"bf16": 1000}, "scale_up_link": "nvlink4", "scale_up_domain": 8,
        "achievable_mfu": 0.5, "source": "s", "engine_curves": {"sglang": {}}}]})");
  EXPECT_NE(empty.find("/gpus/0/engine_curves"), std::string::npos) << empty;
  EXPECT_NE(empty.find("at least one of gemm, moe, attention and mla"), std::string::npos) << empty;
}

/// An engine entry whose kernels are `lender`'s.
std::string engine_calling(const std::string& id, const std::string& lender) {
  return R"({"engines": [{"id": ")" + id + R"(", "name": "E", "version": "1", "impl": "vllm",
    "scheduler": {"default": {"max_batch": 8, "prefill_chunk": 512}}, "policy": "decode-first",
    "costs": {"step_us": 500, "layer_us": 10, "request_us": 20000}, "kernels_from": ")" +
         lender + R"(", "source": "s"}]})";
}

TEST(EngineCurves, AnEngineCallingAnothersKernelsTakesItsCurves) {
  const Catalog catalog = Catalog::shipped();
  const Engine& nim = catalog.engine("trtllm-engine");
  EXPECT_EQ(nim.kernels_id(), "trtllm");
  EXPECT_EQ(catalog.engine("trtllm").kernels_id(), "trtllm");
  // The H100's TensorRT-LLM curves (its fp8 GEMMs quantise per tensor) price the older backend,
  // not the default's.
  const Gpu& h100 = catalog.gpu("h100-sxm");
  EXPECT_EQ(&h100.curves_for(&nim), &h100.curves_for(&catalog.engine("trtllm")));
  EXPECT_NE(&h100.curves_for(&nim), &h100.curves);
  // A GPU without the lender's curves runs the default's.
  const Gpu& mi300x = catalog.gpu("mi300x");
  EXPECT_EQ(&mi300x.curves_for(&nim), &mi300x.curves);
  const nlohmann::ordered_json written = nim;
  EXPECT_EQ(written["kernels_from"], "trtllm");
}

TEST(EngineCurves, KernelsFromNamesAnotherEngineWithKernelsOfItsOwn) {
  const Catalog shipped = Catalog::shipped();
  EXPECT_EQ(test::catalog_error(shipped, engine_calling("e", "nope")),
            "user.json: engine 'e': kernels_from 'nope' is not another engine's id; name the "
            "engine whose kernels this one calls");
  EXPECT_EQ(test::catalog_error(shipped, engine_calling("e", "e")),
            "user.json: engine 'e': kernels_from 'e' is not another engine's id; name the engine "
            "whose kernels this one calls");
  EXPECT_EQ(test::catalog_error(shipped, engine_calling("e", "trtllm-engine")),
            "user.json: engine 'e': kernels_from 'trtllm-engine' takes its own kernels from "
            "'trtllm'; name an engine with kernels of its own");
  Catalog catalog = shipped;
  catalog.overlay_text(engine_calling("e", "sglang"), "user.json");
  EXPECT_EQ(catalog.engine("e").kernels_id(), "sglang");
}

} // namespace
} // namespace icx::unit_engine_curves
