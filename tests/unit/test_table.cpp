#include "icx/util/table.hpp"

#include <gtest/gtest.h>

namespace icx {
namespace {

TEST(TextTable, AlignsColumnsAndDropsTrailingSpaces) {
  TextTable table({{"wire", Align::left}, {"time", Align::right}});
  table.add_row({"pcie5", "336 ms"});
  table.add_row({"nvlink4", "23.9 ms"});
  EXPECT_EQ(table.render(), "wire        time\n"
                            "-------  -------\n"
                            "pcie5     336 ms\n"
                            "nvlink4  23.9 ms\n");
}

TEST(TextTable, CountsMultiByteCharactersAsOneColumn) {
  TextTable table({{"a", Align::left}, {"b", Align::left}});
  table.add_row({"25–50", "x"});
  table.add_row({"µs", "y"});
  EXPECT_EQ(table.render(), "a      b\n"
                            "-----  -\n"
                            "25–50  x\n"
                            "µs     y\n");
}

TEST(TextTable, LeavesOutOptionalColumnsOnlyWhenTooWide) {
  TextTable table({{"wire", Align::left}, {"", Align::left, true}, {"time", Align::right}});
  table.add_row({"pcie5", "##########", "336 ms"});
  // 5 + 2 + 10 + 2 + 6 = 25 columns in all.
  // Header: "wire" padded to 5, the empty bar header to 10, "time" right-aligned in 6.
  const std::string whole = "wire" + std::string(1 + 2 + 10 + 2 + 2, ' ') + "time\n" +
                            "-----  ----------  ------\n"
                            "pcie5  ##########  336 ms\n";
  EXPECT_EQ(table.render(), whole);
  EXPECT_EQ(table.render(25), whole);
  EXPECT_EQ(table.render(24), "wire     time\n"
                              "-----  ------\n"
                              "pcie5  336 ms\n");
  // Narrower than the remaining columns: printed whole, never cut.
  EXPECT_EQ(table.render(5), "wire     time\n"
                             "-----  ------\n"
                             "pcie5  336 ms\n");
}

TEST(TextTable, RejectsARowOfTheWrongWidth) {
  TextTable table({{"a", Align::left}});
  EXPECT_THROW(table.add_row({"1", "2"}), std::logic_error);
}

} // namespace
} // namespace icx
