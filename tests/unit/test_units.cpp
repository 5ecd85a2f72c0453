#include "icx/base/units.hpp"

#include <gtest/gtest.h>

namespace icx::unit_units {
namespace {

TEST(Units, BytesOverRateIsSeconds) {
  // 2^27 B over 64 GB/s = 134217728 / 64e9 s.
  const Seconds t = Bytes::of(134217728) / gigabytes_per_second(64);
  EXPECT_DOUBLE_EQ(t.value(), 0.002097152);
}

TEST(Units, RateTimesTimeIsBytes) {
  EXPECT_DOUBLE_EQ((gigabytes_per_second(50) * Seconds::of(2)).value(), 100e9);
}

TEST(Units, BytesOverSecondsIsRate) {
  EXPECT_DOUBLE_EQ((Bytes::of(1e9) / Seconds::of(0.5)).value(), 2e9);
}

TEST(Units, FlopsOverRateIsSeconds) {
  EXPECT_DOUBLE_EQ((Flops::of(989e12) / FlopsPerSecond::of(989e12)).value(), 1.0);
}

TEST(Units, MicrosecondsAreMillionths) {
  EXPECT_DOUBLE_EQ(microseconds(2).value(), 2e-6);
}

TEST(Units, RangeKnowsWhenItIsOneValue) {
  EXPECT_FALSE(Range<Bytes>::exactly(Bytes::of(3)).is_range());
  EXPECT_TRUE((Range<Bytes>{Bytes::of(1), Bytes::of(2)}).is_range());
}

} // namespace
} // namespace icx::unit_units
