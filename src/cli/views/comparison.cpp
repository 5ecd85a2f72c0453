#include "views/comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/limits.hpp"
#include "icx/util/text_file.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

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
  for (const char* header : {"measured", "predicted", "error"}) {
    leading.push_back({header, Align::right});
  }
  leading.push_back({"bound", Align::right, 4});
  leading.push_back({"use", Align::left, 5});
  leading.push_back({"", Align::left});
  return leading;
}

namespace {

std::string verdict_text(const Comparison& c, const ComparisonText& text) {
  switch (verdict(c)) {
  case RowVerdict::unpriced:
    return text.unpriced;
  case RowVerdict::shown:
    return "shown";
  case RowVerdict::within:
    return "ok";
  case RowVerdict::out:
    return "OUT";
  }
  return "";
}

} // namespace

std::vector<std::string> comparison_cells(std::vector<std::string> leading, const Comparison& c,
                                          std::string_view use, const ComparisonText& text) {
  const auto figure = [&](const std::optional<double>& value) {
    return value ? text.value(*value) : "-";
  };
  leading.push_back(figure(c.measured));
  leading.push_back(figure(c.predicted));
  leading.push_back(c.predicted ? fmt::format("{:+.{}f} %", c.error * 100, text.error_decimals)
                                : "-");
  leading.push_back(bound_text(c.bound));
  leading.emplace_back(use);
  leading.push_back(verdict_text(c, text));
  return leading;
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
