#include "icx/wire/tensor_parallel.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace icx::unit_tensor_parallel {
namespace {

// The seed chapter's worked example: a 70B-class model, hidden 8192, 80 layers, BF16,
// prefilling 4,096 tokens.
constexpr ActivationShape seed_shape{8192, 80, 2.0};
constexpr std::int64_t seed_tokens = 4096;

Link link_with(double low_gbps, double high_gbps) {
  Link link;
  link.headline_bandwidth = {gigabytes_per_second(low_gbps), gigabytes_per_second(high_gbps)};
  return link;
}

/// `value` rounded to `digits` significant digits, as a printed figure is.
double round_to(double value, int digits) {
  const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(value)));
  return std::round(value * scale) / scale;
}

TEST(TensorParallel, SeedTrafficIsExactToTheByte) {
  const TensorParallelTraffic t = tensor_parallel_traffic(seed_shape, seed_tokens);
  // 2 × 4096 × 8192 × 2 = 2^1 · 2^12 · 2^13 · 2^1 = 2^27.
  EXPECT_EQ(t.per_allreduce.value(), 134217728.0);
  EXPECT_EQ(t.allreduces_per_layer, 2);
  EXPECT_EQ(t.per_layer.value(), 268435456.0);
  // 2^28 × 80 layers.
  EXPECT_EQ(t.per_pass.value(), 21474836480.0);
}

TEST(TensorParallel, SeedTrafficMatchesTheChaptersRoundedFigures) {
  const TensorParallelTraffic t = tensor_parallel_traffic(seed_shape, seed_tokens);
  EXPECT_EQ(round_to(t.per_allreduce.value() / 1e6, 3), 134); // "134 MB"
  EXPECT_EQ(round_to(t.per_layer.value() / 1e6, 3), 268);     // "268 MB"
  EXPECT_EQ(round_to(t.per_pass.value() / 1e9, 3), 21.5);     // "21.5 GB"
}

TEST(TensorParallel, SeedTimesPerWire) {
  const Bytes total = tensor_parallel_traffic(seed_shape, seed_tokens).per_pass;
  // 21,474,836,480 B over each headline bandwidth, worked by hand.
  const double nvlink5 = headline_time(total, link_with(1800, 1800)).low.value();
  const double nvlink4 = headline_time(total, link_with(900, 900)).low.value();
  const double pcie5 = headline_time(total, link_with(64, 64)).low.value();
  const double ib_ndr = headline_time(total, link_with(50, 50)).low.value();
  EXPECT_NEAR(nvlink5, 0.0119305, 1e-7);
  EXPECT_NEAR(nvlink4, 0.0238609, 1e-7);
  EXPECT_DOUBLE_EQ(pcie5, 0.33554432);
  EXPECT_DOUBLE_EQ(ib_ndr, 0.4294967296);
  // The chapter prints these as 12, 24, 336 and 430 ms: the same values at the precision
  // it printed them (it divided its rounded 21.5 GB, hence two digits for some).
  EXPECT_EQ(round_to(nvlink5 * 1e3, 2), 12);
  EXPECT_EQ(round_to(nvlink4 * 1e3, 2), 24);
  EXPECT_EQ(round_to(pcie5 * 1e3, 3), 336);
  EXPECT_EQ(round_to(ib_ndr * 1e3, 2), 430);
}

TEST(TensorParallel, TrafficScalesWithTokensAndBytesPerElement) {
  const TensorParallelTraffic fp8 = tensor_parallel_traffic({8192, 80, 1.0}, 1);
  EXPECT_EQ(fp8.per_allreduce.value(), 2.0 * 8192);
  const TensorParallelTraffic fp4 = tensor_parallel_traffic({4096, 32, 0.5}, 3);
  EXPECT_EQ(fp4.per_allreduce.value(), 2.0 * 3 * 4096 * 0.5);
  EXPECT_EQ(fp4.per_pass.value(), 2.0 * 3 * 4096 * 0.5 * 2 * 32);
}

TEST(TensorParallel, RangeGivesFastThenSlowEnd) {
  const Range<Seconds> t = headline_time(Bytes::of(100e9), link_with(25, 50));
  EXPECT_DOUBLE_EQ(t.low.value(), 2.0);
  EXPECT_DOUBLE_EQ(t.high.value(), 4.0);
}

TEST(TensorParallel, FastestFirstKeepsCatalogOrderOnTies) {
  std::vector<Link> links{link_with(64, 64), link_with(900, 900), link_with(25, 50),
                          link_with(900, 900)};
  links[1].id = "first-900";
  links[3].id = "second-900";
  const std::vector<const Link*> ordered = fastest_first(links);
  ASSERT_EQ(ordered.size(), 4U);
  EXPECT_EQ(ordered[0]->id, "first-900");
  EXPECT_EQ(ordered[1]->id, "second-900");
  EXPECT_EQ(ordered[2], &links[0]);
  EXPECT_EQ(ordered[3], &links[2]);
}

TEST(TensorParallel, HeadlineTimesFollowTheGivenOrder) {
  const Link slow = link_with(50, 50);
  const Link fast = link_with(900, 900);
  const std::vector<const Link*> order{&slow, &fast};
  const std::vector<WireTime> times = headline_times(Bytes::of(900e9), order);
  ASSERT_EQ(times.size(), 2U);
  EXPECT_EQ(times[0].link, &slow);
  EXPECT_DOUBLE_EQ(times[0].seconds.low.value(), 18.0);
  EXPECT_DOUBLE_EQ(times[1].seconds.low.value(), 1.0);
}

} // namespace
} // namespace icx::unit_tensor_parallel
