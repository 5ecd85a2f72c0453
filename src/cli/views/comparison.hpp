// The one printer of measured-against-predicted tables (icx validate, --loads, --offload): the
// files a table reads, the columns every table ends with, and the exit status of a check.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "icx/measured/comparison.hpp"
#include "icx/util/table.hpp"

namespace icx::cli {

/// The files named, read (`texts` keeps their contents alive), or `shipped` when none is
/// named; `what` names the kind of file in a read error. The one reader of every validation
/// table's files.
std::vector<MeasurementFile> measurement_files(const std::vector<std::string>& paths,
                                               std::vector<MeasurementFile> shipped,
                                               const char* what, std::vector<std::string>& texts);

/// The rows of `files` read by `parse` (text, origin), in order.
template <class Row, class Parse>
std::vector<Row> rows_of(const std::vector<MeasurementFile>& files, Parse parse) {
  std::vector<Row> rows;
  for (const MeasurementFile& file : files) {
    for (Row& row : parse(file.text, file.origin)) {
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// `leading` followed by the columns every validation table ends with: measured, predicted,
/// error, bound, use and the row's verdict.
std::vector<Column> comparison_columns(std::vector<Column> leading);

/// How a table writes the cells of its comparison.
struct ComparisonText {
  /// A measured or predicted figure, in the table's unit.
  std::function<std::string(double)> value;
  /// Decimals of the error's percentage.
  int error_decimals = 0;
  /// The verdict of a row without a prediction (why it has none).
  std::string unpriced;
};

/// `leading` followed by the cells of comparison_columns for `c`, a row of use `use`.
std::vector<std::string> comparison_cells(std::vector<std::string> leading, const Comparison& c,
                                          std::string_view use, const ComparisonText& text);

/// "2×" (a factor), "±10 %" (a tolerance) or "-" (no bound).
std::string bound_text(const std::optional<Bound>& bound);

/// 0 when no row is `outside` its bound; else 3, with one line on stderr naming them.
int validation_status(const std::vector<std::string>& outside);

} // namespace icx::cli
