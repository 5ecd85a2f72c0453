#include "icx/util/number_text.hpp"

#include <gtest/gtest.h>

namespace icx {
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
} // namespace icx
