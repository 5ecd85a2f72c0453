#include "icx/serving/moe.hpp"

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_fit_check.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_moe {
namespace {

TEST(Moe, ADecodeLayerReadsTheExpertsItRuns) {
  // H100 fp8 (1979 TFLOP/s, 3.35 TB/s; curve 0.28, 26.5 tokens, 0.83, knee 1.91, 24.1 µs, 1.76
  // ns per entry): 256 assignments over 32 experts of 7168 × 2048, 8 tokens each. The
  // fraction of peak is 0.28 × 8 / 34.5 = 0.064928: compute 2 × 256 × 3 × 7168 × 2048 /
  // (1979e12 × 0.064928) = 175.49 µs; memory (32 × 3 × 7168 × 2048 × 1 B + 256 × (2 × 7168 +
  // 3 × 2048) × 2 B) / 2.7805 TB/s = 510.62 µs; blended 544.37 µs, plus 24.1 µs and 256 ×
  // 1.76 ns: 568.92 µs.
  const Catalog catalog = Catalog::shipped();
  const auto t = moe_time(catalog.gpu("h100-sxm"), catalog.gpu("h100-sxm").curves,
                          catalog.dtype("fp8"), {256, 32, 7168, 2048, 256});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bound, GemmBound::memory);
  EXPECT_NEAR(t->compute.value(), 175.49e-6, 0.01e-6);
  EXPECT_NEAR(t->memory.value(), 510.62e-6, 0.01e-6);
  EXPECT_NEAR(t->seconds.value(), 568.92e-6, 0.01e-6);
}

TEST(Moe, ARankWithNoTokensStillLaunchesItsKernel) {
  const Catalog catalog = Catalog::shipped();
  const auto t = moe_time(catalog.gpu("h100-sxm"), catalog.gpu("h100-sxm").curves,
                          catalog.dtype("fp8"), {0, 0, 7168, 2048, 0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bound, GemmBound::floor);
  EXPECT_NEAR(t->seconds.value(), 24.1e-6, 1e-12);
}

TEST(Moe, NoCurveNoTime) {
  const Catalog catalog = Catalog::shipped();
  EXPECT_FALSE(moe_time(catalog.gpu("a100-sxm"), catalog.gpu("a100-sxm").curves,
                        catalog.dtype("fp8"), {256, 32, 7168, 2048, 256}));
}

/// One row of data/measurements/kernels/moe.csv.
struct MeasuredMoe {
  std::string gpu, engine, dtype;
  std::int64_t tokens = 0, hidden = 0, inter = 0, topk = 0, experts = 0, tp = 0, ep = 0;
  double seconds = 0;
};

/// gpu,engine,version,kernel,dtype,tokens,hidden,inter,topk,experts,tp,ep,latency_ms
std::vector<MeasuredMoe> measured_moe() {
  std::vector<MeasuredMoe> rows;
  for (const std::vector<std::string>& f : test::measurement_rows("kernels/moe.csv")) {
    rows.push_back({f.at(0), f.at(1), f.at(4), std::stoll(f.at(5)), std::stoll(f.at(6)),
                    std::stoll(f.at(7)), std::stoll(f.at(8)), std::stoll(f.at(9)),
                    std::stoll(f.at(10)), std::stoll(f.at(11)), std::stod(f.at(12)) * 1e-3});
  }
  return rows;
}

/// The rows' routing, aiconfigurator's "balanced" case (collector/helper.py balanced_logits):
/// token t picks experts (t + j × ceil(E / k)) mod E, spread out when there are fewer tokens
/// than that stride; rank 0 holds experts 0 .. E / ep − 1. Its assignments and distinct
/// experts.
std::pair<double, double> rank0_share(const MeasuredMoe& r) {
  const std::int64_t stride = (r.experts + r.topk - 1) / r.topk;
  const std::int64_t local = r.experts / r.ep;
  double assigned = 0;
  std::set<std::int64_t> seen;
  for (std::int64_t t = 0; t < r.tokens; ++t) {
    for (std::int64_t j = 0; j < r.topk; ++j) {
      const std::int64_t e = r.tokens >= stride
                                 ? (t + j * stride) % r.experts
                                 : static_cast<std::int64_t>(static_cast<double>(t * stride) /
                                                                 static_cast<double>(r.tokens) +
                                                             static_cast<double>(j * stride)) %
                                       r.experts;
      if (e < local) {
        ++assigned;
        seen.insert(e);
      }
    }
  }
  return {assigned, static_cast<double>(seen.size())};
}

TEST(Moe, TheShippedCurvesFollowTheMeasuredKernels) {
  // The default curves are fitted on vLLM 0.24.0's rows (tools/fit/fit_moe.py): median |error|
  // within 10 % per GPU and dtype. SGLang's and TensorRT-LLM's rows are priced by their own
  // curves, held to 30 %: SGLang's collector hands a rank its tokens differently (11-14 %).
  const Catalog catalog = Catalog::shipped();
  test::KernelErrors errors;
  const std::vector<MeasuredMoe> rows = measured_moe();
  ASSERT_GE(rows.size(), 1200U);
  for (const MeasuredMoe& r : rows) {
    const auto [assigned, run] = rank0_share(r);
    // Every token's entries reach the rank's kernel in these runs.
    const MoeShape shape{assigned, run, static_cast<double>(r.hidden),
                         static_cast<double>(r.inter) / static_cast<double>(r.tp),
                         static_cast<double>(r.tokens * r.topk)};
    const Gpu& gpu = catalog.gpu(r.gpu);
    const KernelCurves& curves = gpu.curves_for(&catalog.engine(r.engine));
    const auto t = moe_time(gpu, curves, catalog.dtype(r.dtype), shape);
    ASSERT_TRUE(t) << r.gpu << " " << r.dtype;
    errors[{r.gpu + " " + r.dtype, test::engine_label(catalog.gpu(r.gpu), r.engine)}].push_back(
        std::abs(t->seconds.value() / r.seconds - 1));
  }
  // h100-sxm, h200 and b200, bf16 and fp8, three engines each. The H200's rows check the curves
  // it borrows from the H100 (curves_from), held out: within 10 % for vLLM.
  ASSERT_EQ(errors.size(), 18U);
  test::expect_fit_and_held_out(errors, 0.10, 0.30);
}

TEST(Moe, TheCatalogNeedsAPeakForEachCurve) {
  const std::string error = test::catalog_error(Catalog::shipped(), R"({"gpus": [{"id": "g",
    "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350, "dense_tflops": {"bf16": 989},
    "scale_up_link": "nvlink4", "scale_up_domain": 8, "achievable_mfu": 0.5, "source": "s",
    "moe": {"fp8": {"compute_fraction": 0.3, "half_tokens": 20, "memory_fraction": 0.8,
                    "knee": 2, "launch_us": 20, "route_ns": 1}}}]})");
  EXPECT_NE(error.find("/gpus/0/moe"), std::string::npos) << error;
  EXPECT_NE(error.find("'fp8' has no dense_tflops figure"), std::string::npos) << error;
}

TEST(Moe, TheCatalogRefusesANegativeRoutingCost) {
  const std::string error = test::catalog_error(Catalog::shipped(), R"({"gpus": [{"id": "g",
    "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350, "dense_tflops": {"bf16": 989},
    "scale_up_link": "nvlink4", "scale_up_domain": 8, "achievable_mfu": 0.5, "source": "s",
    "moe": {"bf16": {"compute_fraction": 0.3, "half_tokens": 20, "memory_fraction": 0.8,
                     "knee": 2, "launch_us": 20, "route_ns": -1}}}]})");
  EXPECT_NE(error.find("/gpus/0/moe/bf16/route_ns"), std::string::npos) << error;
}

} // namespace
} // namespace icx::unit_moe
