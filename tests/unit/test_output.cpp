#include "output.hpp"

#include <gtest/gtest.h>

#include "icx/util/text.hpp"

namespace icx::cli {
namespace {

TEST(Csv, FlattensNestedObjectsAndQuotesWhenNeeded) {
  const Json rows = Json::parse(R"([
    {"id": "pcie5", "seconds": 0.5, "verdict": {"level": "avoid", "reason": "a, b"}},
    {"id": "x\"y", "range": [1, 2], "extra": null}])");
  EXPECT_EQ(to_csv(rows), "id,seconds,verdict.level,verdict.reason,range,extra\r\n"
                          "pcie5,0.5,avoid,\"a, b\",,\r\n"
                          "\"x\"\"y\",,,,1;2,\r\n");
}

TEST(Csv, EmptyRowsGiveAnEmptyHeader) {
  EXPECT_EQ(to_csv(Json::array()), "\r\n");
}

TEST(Bar, ScalesToTheMaximumInEighths) {
  const Style unicode{Format::table, false, false, false, std::nullopt};
  EXPECT_EQ(bar(unicode, 10, 10, 4), "████");
  EXPECT_EQ(bar(unicode, 5, 10, 4), "██");
  EXPECT_EQ(bar(unicode, 1, 16, 4), "▎"); // 1/16 of 4 columns × 8 = 2 eighths: ▎
}

TEST(Bar, AsciiUsesWholeColumnsAndNeverVanishes) {
  const Style ascii{Format::table, false, true, false, std::nullopt};
  EXPECT_EQ(bar(ascii, 10, 10, 20), std::string(20, '#'));
  EXPECT_EQ(bar(ascii, 1, 1000, 20), "#");
  EXPECT_EQ(bar(ascii, 0, 10, 20), "");
}

TEST(Paint, ColoursOnlyWhenAsked) {
  Style plain;
  EXPECT_EQ(paint(plain, Level::avoid), "avoid");
  Style color;
  color.color = true;
  const std::string painted = paint(color, Level::ok);
  EXPECT_NE(painted, "ok");
  EXPECT_NE(painted.find("ok"), std::string::npos);
  EXPECT_EQ(display_width(painted), 2U); // escape sequences take no columns
}

} // namespace
} // namespace icx::cli
