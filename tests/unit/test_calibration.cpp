#include "icx/measured/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/measured/nccl_log.hpp"

namespace icx::unit_calibration {
namespace {

Link test_link() {
  Link link;
  link.id = "testlink";
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(1800));
  link.per_direction_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(900));
  return link;
}

ExpectedModel prior() {
  ExpectedModel model;
  model.efficiency = 0.5;
  model.step_latency = microseconds(1);
  model.ramp = microseconds(100);
  model.small_message_slowdown = 0.8;
  return model;
}

TEST(Calibration, RecoversTheParametersThatMadeTheTimes) {
  // Times written down from the model itself with efficiency 0.7 and 3 µs per step (8 GPUs,
  // 14 steps): the fit must find those two numbers again.
  ExpectedModel truth = prior();
  truth.efficiency = 0.7;
  truth.step_latency = microseconds(3);
  const Link link = test_link();
  std::vector<TimedSample> samples;
  for (double size = 1024; size <= 16e9; size *= 4) {
    const CollectiveRequest request{
        Collective::all_reduce, Algorithm::ring, 8, Bytes::of(size), {}};
    samples.push_back({Bytes::of(size), expected_time(link, truth, request)});
  }
  const CalibrationResult fit =
      calibrate(link, prior(), Collective::all_reduce, Algorithm::ring, 8, samples);
  EXPECT_NEAR(fit.model.efficiency, 0.7, 1e-3);
  EXPECT_NEAR(fit.model.step_latency.value(), 3e-6, 3e-9);
  EXPECT_NEAR(fit.latency.value(), 42e-6, 42e-9);
  EXPECT_LT(fit.median_abs_error, 1e-3);
  // One regime fits: the shared ramp and slowdown are kept.
  EXPECT_EQ(fit.regimes, 1);
  EXPECT_EQ(fit.model.ramp, microseconds(100));
  EXPECT_DOUBLE_EQ(fit.model.small_message_slowdown, 0.8);
}

/// A log that switches protocol: 8 µs + S / (20 GB/s busbw) for small messages (LL-like) and
/// 50 µs + S / (400 GB/s busbw) for large ones (Simple-like), the faster at each size, for an
/// 8-GPU all-reduce (busbw = 1.75 S / t, so the time per byte is 1.75 / busbw).
Seconds two_regime_time(double size) {
  return Seconds::of(std::min(8e-6 + 1.75 * size / 20e9, 50e-6 + 1.75 * size / 400e9));
}

TEST(Calibration, FindsTwoRegimesInALogThatSwitchesProtocol) {
  // On a 450 GB/s-per-direction link. The lines cross where 42 µs = 1.75 S (1/20e9 - 1/400e9),
  // S = 42e-6 / 8.3125e-11 = 505,263 B. The two-regime model that reproduces it: step latency
  // 8 µs / 14 steps, ramp 50 - 8 = 42 µs, efficiency 400 / 450 = 0.8889 (Simple's busbw over
  // the wire) and slowdown 400 / 20 - 1 = 19 (LL at 1/20 of Simple's rate).
  Link link = test_link();
  link.per_direction_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(450));
  std::vector<TimedSample> samples;
  for (double size = 8; size <= 8.0 * 1024 * 1024 * 1024; size *= 4) {
    samples.push_back({Bytes::of(size), two_regime_time(size)});
  }
  ASSERT_EQ(samples.size(), 16U); // 8 B, 32 B, …, 8 GiB
  const CalibrationResult fit =
      calibrate(link, prior(), Collective::all_reduce, Algorithm::ring, 8, samples);
  EXPECT_EQ(fit.regimes, 2);
  EXPECT_NEAR(fit.model.efficiency, 400.0 / 450, 0.01);
  EXPECT_NEAR(fit.model.ramp.value(), 42e-6, 1e-6);
  EXPECT_NEAR(fit.model.small_message_slowdown, 19, 0.5);
  EXPECT_NEAR(fit.latency.value(), 8e-6, 0.2e-6);
  // Sizes the log does not hold (16 B, 64 B, …, 4 GiB) are predicted within 10 %.
  for (double size = 16; size <= 4.0 * 1024 * 1024 * 1024; size *= 4) {
    const CollectiveRequest request{
        Collective::all_reduce, Algorithm::ring, 8, Bytes::of(size), {}};
    const double predicted = expected_time(link, fit.model, request).value();
    EXPECT_NEAR(predicted / two_regime_time(size).value(), 1.0, 0.1) << size;
  }
}

TEST(Calibration, FitsInNetworkReductionOnAPublishedNvl72Run) {
  // coreweave/nccl-tests pull request 43: 72 GB200s, NVLS. From the two end rows by hand:
  // t(8 GiB) - t(1 GiB) = 7 GiB / (900 GB/s · e) → e ≈ (7 × 2^30 B / (900e9 B/s)) /
  // (20.15 ms - 3.02 ms) ≈ 0.49, and, the nvls line having no ramp, L ≈ 3.02 ms -
  // 2^30/(900e9·0.49) ≈ 3.02 ms - 2.43 ms ≈ 0.58 ms.
  std::ifstream in(std::string(ICX_TEST_DATA_DIR) + "/nccl-tests/nvl72-gb200-all_reduce.log");
  std::ostringstream text;
  text << in.rdbuf();
  const NcclTestLog log = parse_nccl_test_log(text.str(), "nvl72");
  std::vector<TimedSample> samples;
  for (const NcclTestRow& row : log.rows) {
    samples.push_back({row.size, row.mean_time()});
  }
  const CalibrationResult fit =
      calibrate(test_link(), prior(), Collective::all_reduce, Algorithm::nvls, 72, samples);
  ASSERT_TRUE(fit.model.in_network_reduction);
  EXPECT_NEAR(fit.model.in_network_reduction->efficiency, 0.49, 0.02);
  EXPECT_NEAR(fit.latency.value(), 0.58e-3, 0.1e-3);
  for (const SampleFit& sample : fit.samples) {
    EXPECT_LT(std::abs(sample.error), 0.05) << sample.measured.size.value();
  }
  // The ring parameters are the prior's.
  EXPECT_EQ(fit.model.efficiency, 0.5);
}

TEST(Calibration, NeverFitsMoreThanTheWireCarries) {
  // Times from a wire four times faster (3600 GB/s each way, efficiency 0.8) fitted as if they
  // came from the 900 GB/s test link: the efficiency stops at its bound of 1, so every
  // prediction is at least the ring's bytes at the full 900 GB/s, 2·7/8·S / 900e9 s.
  Link faster = test_link();
  faster.per_direction_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(3600));
  ExpectedModel truth = prior();
  truth.efficiency = 0.8;
  std::vector<TimedSample> samples;
  for (double size = 1 << 20; size <= 8e9; size *= 4) {
    const CollectiveRequest request{
        Collective::all_reduce, Algorithm::ring, 8, Bytes::of(size), {}};
    samples.push_back({Bytes::of(size), expected_time(faster, truth, request)});
  }
  const CalibrationResult fit =
      calibrate(test_link(), prior(), Collective::all_reduce, Algorithm::ring, 8, samples);
  EXPECT_LE(fit.model.efficiency, 1.0);
  EXPECT_TRUE(fit.efficiency_at_limit);
  for (const SampleFit& sample : fit.samples) {
    const double wire_seconds = 2.0 * 7 / 8 * sample.measured.size.value() / 900e9;
    EXPECT_GE(sample.predicted.value(), wire_seconds * (1 - 1e-9));
  }
  const FitQuality quality = fit_quality(fit);
  EXPECT_FALSE(quality.acceptable());
  EXPECT_TRUE(quality.efficiency_at_limit);
}

TEST(Calibration, InNetworkReductionOnlyOnAScaleUpSwitch) {
  Link host = test_link();
  host.tier = Tier::host;
  const std::vector<TimedSample> samples{{Bytes::of(1e6), Seconds::of(1e-3)},
                                         {Bytes::of(1e9), Seconds::of(1e-1)}};
  EXPECT_THROW((void)calibrate(host, prior(), Collective::all_reduce, Algorithm::nvls, 8, samples),
               InputError);
  EXPECT_THROW(
      (void)calibrate(test_link(), prior(), Collective::all_to_all, Algorithm::nvls, 8, samples),
      InputError);
}

/// A fit whose rows are off by `errors` (predicted / measured - 1), with their median.
CalibrationResult fit_with_errors(const std::vector<double>& errors, double median) {
  CalibrationResult fit;
  for (const double error : errors) {
    fit.samples.push_back(
        {{Bytes::of(1e6), Seconds::of(1e-3)}, Seconds::of(1e-3 * (1 + error)), error});
  }
  fit.median_abs_error = median;
  return fit;
}

TEST(Calibration, QualityBoundsAreInclusive) {
  // 15 % median and 50 % worst row are still acceptable.
  EXPECT_TRUE(fit_quality(fit_with_errors({0.15, -0.5, 0.1}, 0.15)).acceptable());
  const FitQuality median_over = fit_quality(fit_with_errors({0.16, 0.2, 0.1}, 0.16));
  EXPECT_FALSE(median_over.median_within);
  EXPECT_TRUE(median_over.rows_beyond.empty());
  const FitQuality row_over = fit_quality(fit_with_errors({0.01, -0.51, 0.02, 0.6}, 0.015));
  EXPECT_TRUE(row_over.median_within);
  EXPECT_EQ(row_over.rows_beyond, (std::vector<std::size_t>{1, 3}));
  EXPECT_FALSE(row_over.acceptable());
}

TEST(Calibration, NeedsTwoSizes) {
  const std::vector<TimedSample> one{{Bytes::of(1e6), Seconds::of(1e-3)},
                                     {Bytes::of(1e6), Seconds::of(1.1e-3)}};
  EXPECT_THROW(
      (void)calibrate(test_link(), prior(), Collective::all_reduce, Algorithm::ring, 8, one),
      InputError);
}

TEST(Calibration, NeedsAGpuCountARingCanHave) {
  const std::vector<TimedSample> two{{Bytes::of(1e6), Seconds::of(1e-3)},
                                     {Bytes::of(1e7), Seconds::of(5e-3)}};
  // From 2 GPUs to the largest domain, 2^20 = 1048576; the count a fuzzer reached
  // (1176847186) overflowed 2(n-1) in an int before this check.
  for (const int gpus : {1, 0, -3, 1048577, 1176847186}) {
    EXPECT_THROW(
        (void)calibrate(test_link(), prior(), Collective::all_reduce, Algorithm::ring, gpus, two),
        InputError)
        << gpus;
  }
}

} // namespace
} // namespace icx::unit_calibration
