#include "icx/util/spelling.hpp"

#include <array>
#include <string>

#include <gtest/gtest.h>

namespace icx::unit_spelling {
namespace {

TEST(Spelling, FoldCaseLowersAscii) {
  EXPECT_EQ(fold_case("NVLink-4"), "nvlink-4");
}

TEST(Spelling, EditDistanceCountsEdits) {
  EXPECT_EQ(edit_distance("pcie6", "pcie5"), 1U);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("same", "same"), 0U);
  EXPECT_EQ(edit_distance("bf61", "bf16"), 1U); // a swap of neighbours is one edit
}

TEST(Spelling, NearestSuggestsATypo) {
  const std::array<std::string, 3> names{"nvlink4", "pcie5", "ib-ndr"};
  EXPECT_EQ(nearest("pcie6", names), "pcie5");
  EXPECT_EQ(nearest("NVLNK4", names), "nvlink4");
}

TEST(Spelling, NearestStaysQuietForUnrelatedWords) {
  const std::array<std::string, 2> names{"nvlink4", "pcie5"};
  EXPECT_FALSE(nearest("ethernet", names).has_value());
  EXPECT_FALSE(nearest("x", names).has_value());
}

} // namespace
} // namespace icx::unit_spelling
