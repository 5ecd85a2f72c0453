#include "icx/util/table.hpp"

#include <gtest/gtest.h>

namespace icx::unit_table {
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
  TextTable table({{"wire", Align::left}, {"", Align::left, 1}, {"time", Align::right}});
  table.add_row({"pcie5", "##########", "336 ms"});
  // 5 + 2 + 10 + 2 + 6 = 25 columns in all.
  // Header: "wire" padded to 5, the empty bar header to 10, "time" right-aligned in 6.
  const std::string whole = "wire" + std::string(1 + 2 + 10 + 2 + 2, ' ') + "time\n" +
                            "-----  ----------  ------\n"
                            "pcie5  ##########  336 ms\n";
  EXPECT_EQ(table.render(), whole);
  EXPECT_EQ(table.render({25}), whole);
  EXPECT_EQ(table.render({24}), "wire     time\n"
                                "-----  ------\n"
                                "pcie5  336 ms\n");
  // Narrower than the remaining columns: printed whole, never cut.
  EXPECT_EQ(table.render({5}), "wire     time\n"
                               "-----  ------\n"
                               "pcie5  336 ms\n");
}

TEST(TextTable, GivesUpSpaceInRankOrderCuttingTextAndDroppingColumns) {
  // name may be cut to 4 columns at rank 3; tier is left out at rank 2; note is cut to 5
  // columns only once nothing is left to drop (rank 0); time is never touched.
  TextTable table({{"name", Align::left, 3, 4},
                   {"tier", Align::left, 2},
                   {"time", Align::right},
                   {"note", Align::left, 0, 5}});
  table.add_row({"nvlink4", "scale-up", "45 ms", "ring/LL"});
  // Whole: 7 + 2 + 8 + 2 + 5 + 2 + 7 = 33 columns.
  EXPECT_EQ(table.render({33}), "name     tier       time  note\n"
                                "-------  --------  -----  -------\n"
                                "nvlink4  scale-up  45 ms  ring/LL\n");
  const TableFit wide{33, false};
  EXPECT_TRUE(table.dropped(wide).empty());
  // Two columns short: name gives up two (7 → 5, "nvli…"), nothing is dropped.
  EXPECT_EQ(table.render({31}), "name   tier       time  note\n"
                                "-----  --------  -----  -------\n"
                                "nvli…  scale-up  45 ms  ring/LL\n");
  // 25 columns: name at its floor (4) is not enough (30), so tier goes (20 left, fits).
  EXPECT_EQ(table.render({25}), "name   time  note\n"
                                "----  -----  -------\n"
                                "nvl…  45 ms  ring/LL\n");
  const TableFit narrow{25, false};
  EXPECT_EQ(table.dropped(narrow), std::vector<std::string>{"tier"});
  // 18: note is cut last, to its floor of 5 ("ri..." in ASCII).
  EXPECT_EQ(table.render({18, true}), "name   time  note\n"
                                      "----  -----  -----\n"
                                      "n...  45 ms  ri...\n");
}

TEST(TextTable, RejectsARowOfTheWrongWidth) {
  TextTable table({{"a", Align::left}});
  EXPECT_THROW(table.add_row({"1", "2"}), std::logic_error);
}

} // namespace
} // namespace icx::unit_table
