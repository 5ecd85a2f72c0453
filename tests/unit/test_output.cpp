#include "output/output.hpp"

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "icx/util/text.hpp"
#include "output/json.hpp"

namespace icx::cli::unit_output {
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

TEST(JsonRows, AStreamedDocumentIsTheWholeDocument) {
  // rows[] between keys, as icx.collective/1 has it, and a row of every shape a row takes.
  Json frame = Json::parse(R"({"schema": "icx.collective/1", "op": "all-reduce"})");
  frame["rows"] = Json::array();
  frame["crossover_bytes"] = 65536;
  frame["assumptions"] = {"ü × 2"};
  const Json rows = Json::parse(R"([{"size_bytes": 8, "expected": null},
      {"size_bytes": 4096, "expected": {"seconds": 1.5e-05, "algo": "ring"}, "measured": {}}])");
  const auto written = [&](std::size_t count) {
    std::string text;
    write_json_rows(
        frame, count, [&](std::size_t i) { return rows.at(i); },
        [&](std::string_view piece) { text += piece; });
    return text;
  };
  Json whole = frame;
  whole["rows"] = rows;
  EXPECT_EQ(written(2), whole.dump(2) + "\n");
  EXPECT_EQ(written(0), frame.dump(2) + "\n");
}

TEST(JsonRows, ARowIsWrittenAsDumpWritesIt) {
  // Every kind of value a row holds, and strings that need escapes, against nlohmann's dump.
  const Json row = Json::parse(R"({"int": -42, "unsigned": 18446744073709551615,
      "small": 1e-05, "whole": 100.0, "third": 0.3333333333333333, "big": 1.5e300,
      "yes": true, "no": false, "none": null, "plain": "nvlink4",
      "escaped": "a \"quote\" \\ and\ttab", "unicode": "ü × 8", "": "empty key",
      "ké\"y": 1, "nested": {"seconds": 0.5, "list": [1, 2.5, "x"], "deeper": {}},
      "list": [], "empty": {}})");
  std::string expected = "\n    ";
  const std::string text = row.dump(2);
  for (const char c : text) {
    expected += c;
    if (c == '\n') {
      expected += "    ";
    }
  }
  EXPECT_EQ(json_row(row, true), expected);
  EXPECT_EQ(json_row(Json::object(), false), ",\n    {}");
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
} // namespace icx::cli::unit_output
