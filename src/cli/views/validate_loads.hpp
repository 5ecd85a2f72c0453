// icx validate --loads and --offload: the expected load and the offloaded decode step against
// published runs, row by row, with each row's bound (and, for loads, the error per loader).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/measured/comparison.hpp"
#include "icx/util/table.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// Prints the check of `files` (the shipped loads when empty); returns the exit status: 0 every
/// fit and held-out row within its bound, 3 otherwise (named on stderr).
int run_validate_loads(const Catalog& catalog, const std::vector<std::string>& files,
                       const Style& style);

/// Prints the check of published offloaded runs (data/measurements/offload.csv when `files` is
/// empty); the exit status as run_validate_loads.
int run_validate_offload(const Catalog& catalog, const std::vector<std::string>& files,
                         const Style& style);

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

/// A row's factor bound (absent for a row shown but not held to one).
std::optional<Bound> factor_bound(const std::optional<double>& factor);

/// "2×" (a factor), "±10 %" (a tolerance) or "-" (no bound).
std::string bound_text(const std::optional<Bound>& bound);

/// 0 when no row is `outside` its bound; else 3, with one line on stderr naming them.
int validation_status(const std::vector<std::string>& outside);

} // namespace icx::cli
