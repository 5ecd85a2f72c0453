#include "icx/util/number_text.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace icx::unit_number_text {
namespace {

TEST(ParseWhole, LeadingZerosAreDecimalNotOctal) {
  // C's strtol with base 0 would read "01024" as octal 532 and reject "08".
  EXPECT_EQ(parse_whole("01024"), 1024);
  EXPECT_EQ(parse_whole("08"), 8);
  EXPECT_EQ(parse_whole("016"), 16);
  EXPECT_EQ(parse_whole("010000"), 10000);
}

TEST(ParseWhole, RejectsEverythingButDecimalDigits) {
  for (const char* text : {"", "-1", "+5", "0x10", "1e3", "2.5", " 5", "5 ", "1,5", "nan", "inf",
                           "0b101", "99999999999999999999999"}) {
    EXPECT_FALSE(parse_whole(text)) << text;
  }
}

TEST(ParseWholeDecimal, ReadsAnyDecimalSpellingOfAWholeNumber) {
  EXPECT_EQ(parse_whole_decimal("4096"), 4096);
  EXPECT_EQ(parse_whole_decimal("04096"), 4096);
  EXPECT_EQ(parse_whole_decimal("1e3"), 1000);
  EXPECT_EQ(parse_whole_decimal("1E3"), 1000);
  EXPECT_EQ(parse_whole_decimal("1e+3"), 1000);
  EXPECT_EQ(parse_whole_decimal("4.096e3"), 4096);
  EXPECT_EQ(parse_whole_decimal("0.5e1"), 5);
  EXPECT_EQ(parse_whole_decimal("8.0"), 8);
  EXPECT_EQ(parse_whole_decimal("8."), 8);
  EXPECT_EQ(parse_whole_decimal("1000e-3"), 1);
  EXPECT_EQ(parse_whole_decimal("0e5"), 0);
  EXPECT_EQ(parse_whole_decimal("0.000"), 0);
}

TEST(ParseWholeCount, ReadsThousandsAndMillions) {
  EXPECT_EQ(parse_whole_count("4096"), 4096);
  EXPECT_EQ(parse_whole_count("4k"), 4000);
  EXPECT_EQ(parse_whole_count("1.5M"), 1500000);
  EXPECT_EQ(parse_whole_count("0.5k"), 500);
  EXPECT_EQ(parse_whole_count("1.0005k"), std::nullopt); // 1000.5 is not whole
  EXPECT_EQ(parse_whole_count("4e3k"), std::nullopt);    // two exponents
  EXPECT_EQ(parse_whole_count("4K"), std::nullopt);      // K is a size's (1024), not a count's
  EXPECT_EQ(parse_whole_count("k"), std::nullopt);
  EXPECT_EQ(parse_whole_count("-4k"), std::nullopt);
  EXPECT_EQ(parse_whole_count("4m"), std::nullopt);
}

TEST(ParseWholeDecimal, IsExactBeyondWhatADoubleHolds) {
  // 2^53 + 1 = 9007199254740993 has no double; 2^63 - 1 is the int64 maximum.
  EXPECT_EQ(parse_whole_decimal("9007199254740993"), 9007199254740993);
  EXPECT_EQ(parse_whole_decimal("9.007199254740993e15"), 9007199254740993);
  EXPECT_EQ(parse_whole_decimal("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parse_whole_decimal("9.223372036854775807e18"), INT64_MAX);
  EXPECT_EQ(parse_whole_decimal("92233720368547758070e-1"), INT64_MAX);
  for (const char* text : {"9223372036854775808", "1e19", "92233720368547758080e-1"}) {
    EXPECT_FALSE(parse_whole_decimal(text)) << text;
  }
  // A double rounds 1 + 1e-16 to 1; the text is still not a whole number.
  EXPECT_FALSE(parse_whole_decimal("1.0000000000000001"));
}

TEST(ParseWholeDecimal, RejectsFractionsSignsHexAndJunk) {
  for (const char* text : {"", "2.5", "1e-3", "4.0965e3", "-1", "-0", "+5", "0x10", "0x1p3", "nan",
                           "inf", "1e400", "1e", "e3", ".", " 5", "5 ", "1,5", "0b101"}) {
    EXPECT_FALSE(parse_whole_decimal(text)) << text;
  }
}

TEST(ParseDecimal, ReadsDecimalWithPointAndExponent) {
  EXPECT_DOUBLE_EQ(*parse_decimal("70.6e9"), 70.6e9);
  EXPECT_DOUBLE_EQ(*parse_decimal("010"), 10.0);
  EXPECT_DOUBLE_EQ(*parse_decimal("00.5"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_decimal("-1"), -1.0);
}

TEST(ParseDecimal, RejectsHexNonFiniteAndJunk) {
  for (const char* text : {"", "0x10", "0x1p3", "nan", "inf", "-inf", "infinity", "1e400", "1e-400",
                           "+5", "5abc", " 5", "5 "}) {
    EXPECT_FALSE(parse_decimal(text)) << text;
  }
}

} // namespace
} // namespace icx::unit_number_text
