#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "icx/serving/gemm.hpp"
#include "kernel_fit_check.hpp"
#include "test_fixtures.hpp"

namespace icx {
namespace {

TEST(Gemm, APrefillGemmIsComputeBoundByHand) {
  // H100 bf16 (catalog: 989 TFLOP/s, 3.35 TB/s; curve 0.818, 1.18 M, 0.861, knee 8, 5.8 µs
  // floor, 2.6 µs launch), 4096 tokens through 8192 × 8192: the fraction of peak is
  // 0.818 × 67,108,864 / (67,108,864 + 1,180,000) = 0.803865; compute = 2 × 4096 × 8192² /
  // (989e12 × 0.803865) = 691.50 µs; memory = (8192² + 4096 × 8192) × 2 + 4096 × 8192 × 2 =
  // 268,435,456 B at 2.88435 TB/s = 93.07 µs, which the knee of 8 all but hides.
  const Catalog catalog = Catalog::shipped();
  const auto t = gemm_time(catalog.gpu("h100-sxm"), catalog.dtype("bf16"), {4096, 8192, 8192});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bound, GemmBound::compute);
  EXPECT_NEAR(t->compute.value(), 2.0 * 4096 * 8192 * 8192 / (989e12 * 0.803865), 1e-8);
  EXPECT_NEAR(t->memory.value(), 268435456.0 / (3.35e12 * 0.861), 1e-9);
  EXPECT_NEAR(t->seconds.value(), 691.50e-6 + 2.6e-6, 0.05e-6);
}

TEST(Gemm, ADecodeGemmReadsItsWeights) {
  // One token through the same weight: (8192² + 8192) × 2 + 8192 × 2 = 134,250,496 B at
  // 2.88435 TB/s = 46.544 µs, over the 5.8 µs floor, plus the 2.6 µs launch.
  const Catalog catalog = Catalog::shipped();
  const auto t = gemm_time(catalog.gpu("h100-sxm"), catalog.dtype("bf16"), {1, 8192, 8192});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bound, GemmBound::memory);
  EXPECT_NEAR(t->seconds.value(), 46.544e-6 + 2.6e-6, 0.01e-6);
}

TEST(Gemm, AnFp8GemmPaysForQuantisingItsActivations) {
  // H100 fp8 (1979 TFLOP/s; curve 0.695, 3.93 M, 0.815, knee 4.85, 3 µs, 5.4 µs): 64 tokens
  // through 8192 × 8192 add 64 × 8192 × (2 + 1) B = 1,572,864 B at 2.73025 TB/s = 0.5761 µs.
  const Catalog catalog = Catalog::shipped();
  const auto t = gemm_time(catalog.gpu("h100-sxm"), catalog.dtype("fp8"), {64, 8192, 8192});
  ASSERT_TRUE(t);
  const double moved = (8192.0 * 8192 + 64.0 * 8192) * 1 + 64.0 * 8192 * 2;
  const double quantise = 1572864.0 / (3.35e12 * 0.815);
  EXPECT_NEAR(t->memory.value(), moved / (3.35e12 * 0.815) + quantise, 1e-10);
  EXPECT_NEAR(quantise, 0.5761e-6, 0.0001e-6);
}

TEST(Gemm, NoCurveNoTime) {
  const Catalog catalog = Catalog::shipped();
  EXPECT_FALSE(gemm_time(catalog.gpu("a100-sxm"), catalog.dtype("bf16"), {1, 8192, 8192}));
}

/// One row of data/measurements/kernels/gemm.csv.
struct MeasuredGemm {
  std::string gpu, engine, dtype;
  GemmShape shape;
  double seconds = 0;
};

/// gpu,engine,version,kernel,dtype,m,n,k,latency_ms
std::vector<MeasuredGemm> measured_gemms() {
  std::vector<MeasuredGemm> rows;
  for (const std::vector<std::string>& f : test::measurement_rows("kernels/gemm.csv")) {
    rows.push_back({f.at(0),
                    f.at(1),
                    f.at(4),
                    {std::stod(f.at(5)), std::stod(f.at(6)), std::stod(f.at(7))},
                    std::stod(f.at(8)) * 1e-3});
  }
  return rows;
}

TEST(Gemm, TheShippedCurvesFollowTheMeasuredKernels) {
  // Fitted on vLLM 0.24.0's rows (tools/fit/fit_gemm.py): median |error| within 10 % per GPU
  // and dtype. TensorRT-LLM's and SGLang's rows are held out, and held to 30 %: bf16 comes
  // within 7 %, and TensorRT-LLM's fp8, which quantises per tensor with kernels of its own, is
  // the farthest (about 15 % on H100 and 28 % on B200): one curve per dtype does not describe
  // every engine's fp8 path.
  const Catalog catalog = Catalog::shipped();
  test::KernelErrors errors;
  const std::vector<MeasuredGemm> rows = measured_gemms();
  ASSERT_GE(rows.size(), 1900U);
  for (const MeasuredGemm& r : rows) {
    const auto t = gemm_time(catalog.gpu(r.gpu), catalog.dtype(r.dtype), r.shape);
    ASSERT_TRUE(t) << r.gpu << " " << r.dtype;
    errors[{r.gpu + " " + r.dtype, r.engine}].push_back(
        std::abs(t->seconds.value() / r.seconds - 1));
  }
  ASSERT_EQ(errors.size(), 12U);
  test::expect_fit_and_held_out(errors, 0.10, 0.30);
}

TEST(BorrowedCurves, AGpuOfTheSameDieTakesTheLendersCurves) {
  const Catalog catalog = Catalog::shipped();
  const Gpu& h200 = catalog.gpu("h200");
  const Gpu& h100 = catalog.gpu("h100-sxm");
  EXPECT_EQ(h200.curves_from, "h100-sxm");
  EXPECT_EQ(h200.gemm, h100.gemm);
  EXPECT_EQ(h200.moe, h100.moe);
  EXPECT_EQ(h200.attention, h100.attention);
  // The same fractions of the H200's own 4.8 TB/s: a batch-1 GEMV of 8192 × 8192 bf16 weights
  // (134 MB) reads faster there than on the H100's 3.35 TB/s.
  const auto on_h200 = gemm_time(h200, catalog.dtype("bf16"), {1, 8192, 8192});
  const auto on_h100 = gemm_time(h100, catalog.dtype("bf16"), {1, 8192, 8192});
  ASSERT_TRUE(on_h200 && on_h100);
  EXPECT_NEAR(on_h100->memory.value() / on_h200->memory.value(), 4800.0 / 3350, 1e-9);
  // Written back, the borrower names its lender and holds no curves of its own.
  nlohmann::ordered_json written = h200;
  EXPECT_EQ(written["curves_from"], "h100-sxm");
  EXPECT_FALSE(written.contains("gemm"));
}

TEST(BorrowedCurves, ErrorsNameTheGpu) {
  const Catalog shipped = Catalog::shipped();
  const std::string gpu = R"({"gpus": [{"id": "x", "name": "X", "hbm_GB": 80,
    "hbm_bandwidth_GBps": 3000, "dense_tflops": {"bf16": 900}, "scale_up_link": "nvlink4",
    "scale_up_domain": 8, "achievable_mfu": 0.5, "curves_from": ")";
  EXPECT_EQ(test::catalog_error(shipped, gpu + R"(nope", "source": "s"}]})"),
            "user.json: gpu 'x': curves_from 'nope' is not a known gpu id");
  EXPECT_EQ(test::catalog_error(shipped, gpu + R"(h200", "source": "s"}]})"),
            "user.json: gpu 'x': curves_from 'h200' borrows its own curves; name a GPU with "
            "curves of its own");
  EXPECT_EQ(test::catalog_error(shipped, gpu + R"(h100-sxm", "source": "s"}]})"),
            "user.json: gpu 'x': curves_from 'h100-sxm' has a fp8 curve, and dense_tflops has "
            "no fp8 peak to scale it");
  const std::string both =
      test::catalog_error(shipped, gpu + R"(h100-sxm", "gemm": {}, "source": "s"}]})");
  EXPECT_NE(both.find("/gpus/0/gemm: the GPU takes its curves from curves_from"), std::string::npos)
      << both;
}

} // namespace
} // namespace icx
