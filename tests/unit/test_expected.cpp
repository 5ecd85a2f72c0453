#include "icx/base/expected.hpp"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace icx::unit_expected {
namespace {

Expected<int> halve(int n) {
  if (n % 2 != 0) {
    return unexpected(std::to_string(n) + " is odd");
  }
  return n / 2;
}

Check even(int n) {
  if (n % 2 != 0) {
    return unexpected("odd");
  }
  return {};
}

TEST(Expected, HoldsAValue) {
  const Expected<int> half = halve(8);
  ASSERT_TRUE(half);
  EXPECT_TRUE(half.has_value());
  EXPECT_EQ(half.value(), 4);
  EXPECT_EQ(*half, 4);
  EXPECT_EQ(half.value_or(0), 4);
  EXPECT_THROW((void)half.reason(), std::logic_error);
}

TEST(Expected, HoldsAReasonInstead) {
  const Expected<int> half = halve(7);
  EXPECT_FALSE(half);
  EXPECT_EQ(half.reason(), "7 is odd");
  EXPECT_EQ(half.value_or(-1), -1);
  EXPECT_THROW((void)half.value(), std::logic_error);
}

TEST(Expected, AStringValueIsNotAReason) {
  const Expected<std::string> text = std::string("value");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->size(), 5U);
  const Expected<std::string> failed = unexpected("why");
  EXPECT_EQ(failed.reason(), "why");
}

TEST(Expected, MovesItsValueOut) {
  Expected<std::string> text = std::string(40, 'a');
  const std::string moved = std::move(text).value();
  EXPECT_EQ(moved.size(), 40U);
}

TEST(Check, PassesOrSaysWhy) {
  EXPECT_TRUE(even(2));
  EXPECT_TRUE(Check());
  const Check odd = even(3);
  EXPECT_FALSE(odd);
  EXPECT_EQ(odd.reason(), "odd");
  EXPECT_THROW((void)even(4).reason(), std::logic_error);
}

} // namespace
} // namespace icx::unit_expected
