// Reading measurement CSVs (RFC 4180 quoting, one record per line): a header naming the
// columns, then rows read column by column with errors naming the file, line and column.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/text_file.hpp"

namespace icx::detail {

/// Splits one CSV record. Quoted fields may not span lines (no measurement file needs it).
std::vector<std::string> split_record(std::string_view line, const std::string& where);

/// Throws InputError when the header lacks one of `required` or names a column twice.
void check_header(const std::vector<std::string>& header, std::span<const char* const> required,
                  const std::string& where);

class CsvRow {
public:
  CsvRow(const std::vector<std::string>& header, std::vector<std::string> fields, std::string where)
      : header_(header), fields_(std::move(fields)), where_(std::move(where)) {}

  [[nodiscard]] const std::string& text(std::string_view column) const {
    return fields_[index(column)];
  }
  [[nodiscard]] bool has(std::string_view column) const {
    return std::ranges::find(header_, column) != header_.end();
  }
  [[noreturn]] void fail(std::string_view column, const std::string& what) const {
    throw InputError(fmt::format("{}: column '{}': {}", where_, column, what));
  }
  [[nodiscard]] int whole(std::string_view column, int min, int max) const {
    const auto value = parse_decimal(text(column));
    if (!value || *value < min || *value > max || std::trunc(*value) != *value) {
      fail(column,
           fmt::format("expected a whole number from {} to {}, got '{}'", min, max, text(column)));
    }
    return static_cast<int>(*value);
  }
  /// A number in `bounds` (icx/base/limits.hpp); an empty field is an error.
  [[nodiscard]] double bounded(std::string_view column, const limits::Bounds& bounds) const {
    const auto value = optional_positive(column);
    if (!value || *value < bounds.min || *value > bounds.max) {
      fail(column, fmt::format("expected a number from {:g} to {:g}, got '{}'", bounds.min,
                               bounds.max, text(column)));
    }
    return *value;
  }
  /// A positive number, or nullopt for an empty field.
  [[nodiscard]] std::optional<double> optional_positive(std::string_view column) const {
    if (text(column).empty()) {
      return std::nullopt;
    }
    const auto value = parse_decimal(text(column));
    if (!value || *value <= 0) {
      fail(column, fmt::format("expected a number greater than 0, got '{}'", text(column)));
    }
    return value;
  }

private:
  [[nodiscard]] std::size_t index(std::string_view column) const {
    return static_cast<std::size_t>(std::ranges::find(header_, column) - header_.begin());
  }

  const std::vector<std::string>& header_;
  std::vector<std::string> fields_;
  std::string where_;
};

/// The rows of `text` after its header, each read by `read(row, line number)`. Throws
/// InputError "<origin>:<line>: …" for an empty file, a missing column, a row whose field count
/// differs from the header's, or no rows.
template <class T, class Read>
std::vector<T> read_csv_rows(std::string_view text, const std::string& origin,
                             std::span<const char* const> required, Read read) {
  std::vector<std::string> header;
  std::vector<T> rows;
  for_each_line(text, [&](std::string_view line, std::size_t line_number) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      return;
    }
    const std::string where = fmt::format("{}:{}", origin, line_number);
    std::vector<std::string> fields = split_record(line, where);
    if (header.empty()) {
      header = std::move(fields);
      check_header(header, required, where);
      return;
    }
    if (fields.size() != header.size()) {
      throw InputError(fmt::format("{}: expected {} fields as in the header, got {}", where,
                                   header.size(), fields.size()));
    }
    rows.push_back(read(CsvRow(header, std::move(fields), where), line_number));
  });
  if (header.empty()) {
    throw InputError(origin + ": empty file; expected a header line naming the columns");
  }
  if (rows.empty()) {
    throw InputError(origin + ": no measurement rows after the header");
  }
  return rows;
}

/// Runs a catalog lookup for a parsed row (with `origin` and `line` members); an unknown id
/// becomes an InputError naming the file, line and column.
template <class Row, class Lookup>
decltype(auto) look_up(const Row& row, std::string_view column, Lookup lookup) {
  try {
    return lookup();
  } catch (const LookupError& error) {
    throw InputError(
        fmt::format("{}:{}: column '{}': {}", row.origin, row.line, column, error.what()));
  }
}

} // namespace icx::detail
