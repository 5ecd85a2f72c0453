#include "views/validate_loads.hpp"

#include <cmath>
#include <map>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "icx/base/json_values.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/measured/loading_validation.hpp"
#include "icx/util/statistics.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "output/json.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

struct Summary {
  int rows = 0;
  int within = 0;
  std::vector<double> errors;
};

/// Per loader and use, in name order.
std::map<std::pair<std::string, std::string>, Summary>
summarise(const std::vector<LoadCheck>& checks) {
  std::map<std::pair<std::string, std::string>, Summary> summaries;
  for (const LoadCheck& c : checks) {
    Summary& s = summaries[{c.row.loader, c.row.use}];
    ++s.rows;
    s.within += c.within ? 1 : 0;
    s.errors.push_back(std::abs(c.error));
  }
  return summaries;
}

std::string from_text(const MeasuredLoad& row) {
  return row.storage ? fmt::format("storage at {}", format_rate(*row.storage)) : row.from;
}

void print_rows(const std::vector<LoadCheck>& checks) {
  TextTable table(comparison_columns({{"row", Align::left},
                                      {"hardware", Align::left},
                                      {"loader", Align::left},
                                      {"from", Align::left}}));
  for (const LoadCheck& c : checks) {
    const std::string_view verdict = !c.row.bound ? "shown" : c.within ? "ok" : "OUT";
    table.add_row({std::to_string(c.row.line), c.row.hardware, c.row.loader, from_text(c.row),
                   format_seconds(c.row.measured), format_seconds(c.predicted),
                   fmt::format("{:+.0f} %", c.error * 100), bound_text(factor_bound(c.row.bound)),
                   c.row.use, std::string(verdict)});
  }
  print_out("Expected load model against published load times\n\n{}\n", table.render());
}

void print_summary(const std::vector<LoadCheck>& checks) {
  TextTable table({{"loader", Align::left},
                   {"use", Align::left},
                   {"rows", Align::right},
                   {"within bound", Align::right},
                   {"median |error|", Align::right},
                   {"worst |error|", Align::right}});
  for (const auto& [key, s] : summarise(checks)) {
    table.add_row({key.first, key.second, std::to_string(s.rows),
                   key.second == "outside" ? "-" : std::to_string(s.within),
                   fmt::format("{:.0f} %", detail::median(s.errors) * 100),
                   fmt::format("{:.0f} %", std::ranges::max(s.errors) * 100)});
  }
  print_out("{}\n", table.render());
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
  row["predicted_seconds"] = json_number(c.predicted.value());
  row["error"] = json_number(c.error);
  row["bound"] = c.row.bound ? json_number(*c.row.bound) : nullptr;
  row["use"] = c.row.use;
  row["within_bound"] = c.within;
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
  for (const auto& [key, s] : summarise(checks)) {
    doc["summary"].push_back({{"loader", key.first},
                              {"use", key.second},
                              {"rows", s.rows},
                              {"within_bound", s.within},
                              {"median_abs_error", json_number(detail::median(s.errors))},
                              {"worst_abs_error", json_number(std::ranges::max(s.errors))}});
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
    print_rows(checks);
    print_summary(checks);
  });
  std::vector<std::string> out;
  for (const LoadCheck& c : checks) {
    if (!c.within) {
      out.push_back(fmt::format("line {} ({}, {})", c.row.line, c.row.hardware, c.row.loader));
    }
  }
  return validation_status(out);
}

std::vector<MeasurementFile> measurement_files(const std::vector<std::string>& paths,
                                               std::vector<MeasurementFile> shipped,
                                               const char* what, std::vector<std::string>& texts) {
  if (paths.empty()) {
    return shipped;
  }
  std::vector<MeasurementFile> files;
  texts.reserve(paths.size()); // the views into texts stay valid
  for (const std::string& path : paths) {
    texts.push_back(read_text_file(path, {what, limits::max_measurements_file_bytes}));
    files.push_back({path, texts.back()});
  }
  return files;
}

std::vector<Column> comparison_columns(std::vector<Column> leading) {
  for (const char* header : {"measured", "predicted", "error", "bound"}) {
    leading.push_back({header, Align::right});
  }
  leading.push_back({"use", Align::left});
  leading.push_back({"", Align::left});
  return leading;
}

std::optional<Bound> factor_bound(const std::optional<double>& factor) {
  if (!factor) {
    return std::nullopt;
  }
  return Bound{Bound::Kind::factor, *factor};
}

std::string bound_text(const std::optional<Bound>& bound) {
  if (!bound) {
    return "-";
  }
  return bound->kind == Bound::Kind::factor ? fmt::format("{:g}×", bound->value)
                                            : fmt::format("±{:.0f} %", bound->value * 100);
}

int validation_status(const std::vector<std::string>& outside) {
  if (outside.empty()) {
    return exit_ok;
  }
  flush_stdout();
  print_stderr_line(fmt::format("icx: validation failed: {} row{} outside {} bound: {}",
                                outside.size(), outside.size() == 1 ? "" : "s",
                                outside.size() == 1 ? "its" : "their", fmt::join(outside, "; ")));
  return exit_check_failed;
}

} // namespace icx::cli
