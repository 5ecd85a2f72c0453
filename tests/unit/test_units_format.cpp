#include "icx/base/units_format.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

namespace icx::cli::unit_units_format {
namespace {

TEST(UnitsFormat, BytesUseDecimalPrefixesAndThreeDigits) {
  EXPECT_EQ(format_bytes(Bytes::of(134217728)), "134 MB");
  EXPECT_EQ(format_bytes(Bytes::of(268435456)), "268 MB");
  EXPECT_EQ(format_bytes(Bytes::of(21474836480)), "21.5 GB");
  EXPECT_EQ(format_bytes(Bytes::of(140e9)), "140 GB");
  EXPECT_EQ(format_bytes(Bytes::of(512)), "512 B");
}

TEST(UnitsFormat, SecondsScaleToTheReadableUnit) {
  EXPECT_EQ(format_seconds(Seconds::of(0.33554432)), "336 ms");
  EXPECT_EQ(format_seconds(Seconds::of(0.0119304647)), "11.9 ms");
  EXPECT_EQ(format_seconds(Seconds::of(2.1875)), "2.19 s");
  EXPECT_EQ(format_seconds(Seconds::of(43.83e-6)), "43.8 µs");
}

TEST(UnitsFormat, RoundingUpCrossesToTheNextPrefix) {
  EXPECT_EQ(format_bytes(Bytes::of(999.6e6)), "1 GB");
  EXPECT_EQ(format_seconds(Seconds::of(0.99996)), "1 s");
}

TEST(UnitsFormat, RatesAndRanges) {
  EXPECT_EQ(format_rate(gigabytes_per_second(1800)), "1.8 TB/s");
  EXPECT_EQ(format_range(Range<BytesPerSecond>{gigabytes_per_second(25), gigabytes_per_second(50)}),
            "25–50 GB/s");
  EXPECT_EQ(format_range(Range<BytesPerSecond>::exactly(gigabytes_per_second(64))), "64 GB/s");
  EXPECT_EQ(format_range(Range<Seconds>{Seconds::of(0.5), Seconds::of(2)}), "500 ms–2 s");
}

TEST(UnitsFormat, ParametersInBillions) {
  EXPECT_EQ(format_params(70553706496), "70.6B");
  EXPECT_EQ(format_params(37e9), "37B");
  EXPECT_EQ(format_params(405853388800), "406B");
}

TEST(UnitsFormat, CountsGetThousandsSeparators) {
  EXPECT_EQ(format_count(134217728), "134,217,728");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
}

TEST(UnitsFormat, RatiosKeepThreeDigitsWithoutExponents) {
  EXPECT_EQ(format_ratio(3350.0 / 64), "52.3×"); // HBM 3.35 TB/s over PCIe 5.0's 64 GB/s
  EXPECT_EQ(format_ratio(1.0), "1×");
  EXPECT_EQ(format_ratio(104.6875), "105×");
  EXPECT_EQ(format_ratio(1234.5), "1230×");
}

TEST(UnitsFormat, ScaledCountsTakeAPrefixFromAThousand) {
  EXPECT_EQ(format_scaled(0.625), "0.625"); // no milli prefix for a rate below one
  EXPECT_EQ(format_scaled(395.2), "395");
  EXPECT_EQ(format_scaled(3380), "3.38 k"); // no space left where a unit would go
  EXPECT_EQ(format_scaled(12'600'000), "12.6 M");
}

} // namespace
} // namespace icx::cli::unit_units_format

namespace icx::cli::unit_units_format {
namespace {

TEST(FormatNonFinite, IsABugNotOutput) {
  // Input and catalog ranges keep every figure finite; printing "inf B/s" or "-nan s" would
  // be a wrong answer, so the formatters refuse.
  EXPECT_THROW(static_cast<void>(format_si(std::numeric_limits<double>::infinity(), "B/s")),
               std::logic_error);
  EXPECT_THROW(static_cast<void>(format_si(std::nan(""), "s")), std::logic_error);
  EXPECT_THROW(static_cast<void>(format_ratio(std::numeric_limits<double>::infinity())),
               std::logic_error);
}

} // namespace
} // namespace icx::cli::unit_units_format

namespace icx::unit_units_format {
namespace {

TEST(UnitsFormat, ShareIsWholePercentOfTheWhole) {
  EXPECT_EQ(format_share(Seconds::of(0.045), Seconds::of(0.1)), "45 %");
  EXPECT_EQ(format_share(Seconds::of(2), Seconds::of(3)), "67 %");
  EXPECT_EQ(format_share(Seconds::of(1), Seconds::of(0)), "0 %");
}

} // namespace
} // namespace icx::unit_units_format
