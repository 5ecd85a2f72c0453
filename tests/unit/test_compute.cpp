#include "icx/serving/compute.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_compute {
namespace {

using test::make_dtype;
using test::make_gpu;

const std::vector<Dtype> dtypes{make_dtype("fp32", 4), make_dtype("bf16", 2), make_dtype("fp8", 1),
                                make_dtype("fp4", 0.5)};

TEST(Compute, RateIsThePeakTimesTheUtilisation) {
  const Gpu gpu = make_gpu("nvlink4", 8);
  const ComputeRate rate = compute_rate(gpu, dtypes[1], dtypes, 0.5);
  EXPECT_EQ(rate.peak_dtype, "bf16");
  EXPECT_DOUBLE_EQ(rate.achieved().value(), 494.5e12);
}

TEST(Compute, NarrowDtypeFallsBackToTheNextWiderPeak) {
  Gpu gpu = make_gpu("nvlink3", 8);
  gpu.dense_peak["fp32"] = FlopsPerSecond::of(19.5e12);
  // No FP8 tensor cores: FP8 weights compute at the BF16 rate, not FP32.
  EXPECT_EQ(compute_rate(gpu, dtypes[2], dtypes, 0.5).peak_dtype, "bf16");
  gpu.dense_peak["fp8"] = FlopsPerSecond::of(1979e12);
  EXPECT_EQ(compute_rate(gpu, dtypes[3], dtypes, 0.5).peak_dtype, "fp8");
}

// MXFP4 (OCP MX v1.0: blocks of 32 E2M1 values sharing one E8M0 scale) computes on FP4 tensor
// cores where the GPU has them; without them its weights are dequantised to BF16 (weight-only
// kernels), not run at the next wider FP8 peak as plain FP4 would be.
TEST(Compute, BlockScaledDtypeRunsAtFp4ElseDequantisedToBf16) {
  Dtype mxfp4 = make_dtype("mxfp4", 4.25 / 8);
  mxfp4.compute_as = "fp4";
  mxfp4.weight_only_as = "bf16";
  std::vector<Dtype> all = dtypes;
  all.push_back(mxfp4);
  Gpu hopper = make_gpu("nvlink4", 8);
  hopper.dense_peak["fp8"] = FlopsPerSecond::of(1979e12);
  EXPECT_EQ(kernel_dtype(hopper, mxfp4), "bf16");
  EXPECT_EQ(compute_rate(hopper, mxfp4, all, 0.5).peak_dtype, "bf16");
  EXPECT_DOUBLE_EQ(compute_rate(hopper, mxfp4, all, 1).peak.value(), 989e12);
  // Plain FP4 keeps the narrowest wider peak.
  EXPECT_EQ(compute_rate(hopper, dtypes[3], all, 0.5).peak_dtype, "fp8");
  Gpu blackwell = hopper;
  blackwell.dense_peak["fp4"] = FlopsPerSecond::of(9000e12);
  EXPECT_EQ(kernel_dtype(blackwell, mxfp4), "fp4");
  EXPECT_DOUBLE_EQ(compute_rate(blackwell, mxfp4, all, 1).peak.value(), 9000e12);
  EXPECT_EQ(kernel_dtype(blackwell, dtypes[1]), "bf16");
}

TEST(Compute, NoWideEnoughPeakIsAnError) {
  const Gpu gpu = make_gpu("nvlink4", 8); // bf16 only
  EXPECT_THROW((void)compute_rate(gpu, dtypes[0], dtypes, 0.5), InputError);
}

TEST(Compute, GpuForLinkPrefersNativeThenReference) {
  Catalog catalog;
  catalog.overlay_text(R"({"dtypes": [{"id": "bf16", "name": "B", "bytes_per_element": 2,
      "source": "s"}],
    "links": [
      {"id": "fast", "name": "F", "connects": "c", "tier": "scale-up", "headline_GBps": 900,
       "headline_convention": "each-way", "per_direction_GBps": 900, "latency_us": 1, "source": "s"},
      {"id": "slow", "name": "S", "connects": "c", "tier": "host", "headline_GBps": 64,
       "headline_convention": "each-way", "per_direction_GBps": 64, "latency_us": 1, "source": "s"}],
    "gpus": [
      {"id": "first", "name": "1", "hbm_GB": 80, "hbm_bandwidth_GBps": 2000,
       "dense_tflops": {"bf16": 300}, "scale_up_link": "fast", "scale_up_domain": 8,
       "achievable_mfu": 0.5, "source": "s"},
      {"id": "ref", "name": "R", "hbm_GB": 80, "hbm_bandwidth_GBps": 3000,
       "dense_tflops": {"bf16": 900}, "scale_up_link": "fast", "scale_up_domain": 8,
       "achievable_mfu": 0.5, "reference": true, "source": "s"}]})",
                       "test.json");
  bool native = false;
  EXPECT_EQ(gpu_for_link(catalog, catalog.link("fast"), native).id, "first");
  EXPECT_TRUE(native);
  EXPECT_EQ(gpu_for_link(catalog, catalog.link("slow"), native).id, "ref");
  EXPECT_FALSE(native);
}

} // namespace
} // namespace icx::unit_compute
