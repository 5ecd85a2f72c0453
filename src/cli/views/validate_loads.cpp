#include "views/comparison.hpp"
#include "views/validate.hpp"

#include <map>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "icx/base/json_values.hpp"
#include "icx/base/units_format.hpp"
#include "icx/measured/loading_validation.hpp"
#include "icx/util/table.hpp"
#include "output/json.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

std::string from_text(const MeasuredLoad& row) {
  return row.storage ? fmt::format("storage at {}", format_rate(*row.storage)) : row.from;
}

void print_rows(const Style& style, const std::vector<LoadCheck>& checks) {
  TextTable table(comparison_columns({{"row", Align::left},
                                      {"hardware", Align::left, 8, 11},
                                      {"loader", Align::left, 7, 12},
                                      {"from", Align::left, 7, 12}}));
  const ComparisonText text{[](double s) { return format_seconds(Seconds::of(s)); }, 0, "-"};
  for (const LoadCheck& c : checks) {
    table.add_row(comparison_cells(
        {std::to_string(c.row.line), c.row.hardware, c.row.loader, from_text(c.row)}, c.comparison,
        c.row.use, text));
  }
  print_out("Expected load model against published load times\n\n{}\n", fit_table(style, table));
}

void print_summary(const Style& style, const std::vector<LoadCheck>& checks) {
  TextTable table({{"loader", Align::left},
                   {"use", Align::left},
                   {"rows", Align::right},
                   {"within bound", Align::right},
                   {"median |error|", Align::right},
                   {"worst |error|", Align::right}});
  for (const auto& [key, s] : summarise_loads(checks)) {
    table.add_row({key.first, key.second, std::to_string(s.rows),
                   key.second == "outside" ? "-" : std::to_string(s.within),
                   fmt::format("{:.0f} %", s.median_abs_error * 100),
                   fmt::format("{:.0f} %", s.worst_abs_error * 100)});
  }
  print_out("{}\n", fit_table(style, table));
  print_out("bound: a factor each row states (2× where the hardware, storage and cache state are "
            "published, 3× where one of them is assumed); fit = rows the loader's rates were "
            "fitted to (tools/fit/fit_loaders.py), held-out = rows not used, outside = cases the "
            "model does not cover. Sources: --json.\n");
}

Json row_json(const LoadCheck& c) {
  Json row;
  row["line"] = c.row.line;
  row["hardware"] = c.row.hardware;
  row["gpus"] = c.row.gpus;
  row["host_link"] = c.row.host_link;
  row["weights_bytes"] = json_number(c.row.weights.value());
  row["from"] = c.row.from;
  row["storage_bytes_per_s"] = json_number(c.row.storage);
  row["loader"] = c.row.loader;
  row["measured_seconds"] = json_number(c.row.measured.value());
  row["predicted_seconds"] = json_number(*c.comparison.predicted);
  row["error"] = json_number(c.comparison.error);
  row["bound"] = c.row.bound ? json_number(*c.row.bound) : nullptr;
  row["use"] = c.row.use;
  row["within_bound"] = !c.comparison.misses();
  row["source"] = c.row.source;
  return row;
}

Json document(const std::vector<LoadCheck>& checks) {
  Json doc = json_document("icx.validate-loads/1");
  doc["rows"] = Json::array();
  for (const LoadCheck& c : checks) {
    doc["rows"].push_back(row_json(c));
  }
  doc["summary"] = Json::array();
  for (const auto& [key, s] : summarise_loads(checks)) {
    doc["summary"].push_back({{"loader", key.first},
                              {"use", key.second},
                              {"rows", s.rows},
                              {"within_bound", s.within},
                              {"median_abs_error", json_number(s.median_abs_error)},
                              {"worst_abs_error", json_number(s.worst_abs_error)}});
  }
  return doc;
}

} // namespace

int run_validate_loads(const Catalog& catalog, const std::vector<std::string>& files,
                       const Style& style) {
  std::vector<std::string> texts;
  const std::vector<MeasuredLoad> rows = rows_of<MeasuredLoad>(
      measurement_files(files, shipped_loads(), "a loads CSV file", texts), parse_loads_csv);
  const std::vector<LoadCheck> checks = check_loads(catalog, rows);
  emit(style, document(checks), "rows", {}, [&] {
    print_rows(style, checks);
    print_summary(style, checks);
  });
  std::vector<std::string> out;
  for (const LoadCheck& c : checks) {
    if (c.comparison.misses()) {
      out.push_back(fmt::format("line {} ({}, {})", c.row.line, c.row.hardware, c.row.loader));
    }
  }
  return validation_status(out);
}

} // namespace icx::cli
