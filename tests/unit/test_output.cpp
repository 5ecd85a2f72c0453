#include "output/output.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/util/text.hpp"
#include "output/json.hpp"

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

TEST(Csv, ALineHasTheDeclaredColumnsWhateverItsRowHolds) {
  const std::vector<std::string> keys = {"gpus", "expected.seconds", "expected.algo", "note"};
  EXPECT_EQ(csv_header(keys), "gpus,expected.seconds,expected.algo,note\r\n");
  // A field the row lacks is an empty cell; a null object leaves its fields empty.
  EXPECT_EQ(csv_line(Json::parse(R"({"gpus": 8, "expected": {"seconds": 0.25}})"), keys),
            "8,0.25,,\r\n");
  EXPECT_EQ(csv_line(Json::parse(R"({"gpus": 3, "expected": null, "note": "a, b"})"), keys),
            "3,,,\"a, b\"\r\n");
  // A value with no column is a mistake in the sweep, never a silent drop.
  EXPECT_THROW(csv_line(Json::parse(R"({"gpus": 8, "wire": "pcie5"})"), keys), std::logic_error);
  EXPECT_THROW(csv_line(Json::parse(R"({"expected": {"busbw": 1}})"), keys), std::logic_error);
}

TEST(JsonRows, ThePiecesAreTheWholeDocument) {
  Json head = Json::object();
  head["schema"] = "icx.sweep/1";
  head["sweep"] = Json::parse(R"({"param": "gpus", "values": [2, 4]})");
  Json tail = Json::object();
  tail["wire"] = "nvlink4";
  const Json rows = Json::parse(R"([{"gpus": 2, "expected": {"seconds": 0.5, "algo": "ring"}},
                                    {"gpus": 4, "expected": null, "note": "ü"}])");
  Json whole = head;
  whole["rows"] = rows;
  whole["wire"] = "nvlink4";
  std::string pieces = json_rows_open(head);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    pieces += json_row(rows[i], i == 0);
  }
  pieces += json_rows_close(tail, true);
  EXPECT_EQ(pieces, whole.dump(2) + "\n");
  // No rows: an empty array, as the whole document writes it.
  whole["rows"] = Json::array();
  EXPECT_EQ(json_rows_open(head) + json_rows_close(tail, false), whole.dump(2) + "\n");
}

TEST(JsonRows, RefusesARowThatIsNotFinite) {
  Json row = Json::object();
  row["seconds"] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(json_row(row, true), std::logic_error);
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
