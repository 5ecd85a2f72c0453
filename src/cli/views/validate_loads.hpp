// icx validate --loads and --offload: the expected load and the offloaded decode step against
// published runs, row by row, with each row's bound (and, for loads, the error per loader).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "icx/base/limits.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/util/text_file.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// Prints the check of `files` (the shipped loads when empty); returns the exit status: 0 every
/// fit and held-out row within its bound, 3 otherwise (named on stderr).
int run_validate_loads(const Catalog& catalog, const std::vector<std::string>& files,
                       const Style& style);

/// Prints the check of published offloaded runs (tests/data/offload.csv when `files` is empty);
/// the exit status as run_validate_loads.
int run_validate_offload(const Catalog& catalog, const std::vector<std::string>& files,
                         const Style& style);

/// The rows of `files` read by `parse` (text, origin), or of the shipped file when none is
/// named; `what` names the kind of file in a read error.
template <class Row, class Shipped, class Parse>
std::vector<Row> csv_rows_of(const std::vector<std::string>& files, Shipped shipped, Parse parse,
                             const char* what) {
  if (files.empty()) {
    const auto file = shipped();
    return parse(file.text, file.origin);
  }
  std::vector<Row> rows;
  for (const std::string& file : files) {
    const std::string text = read_text_file(file, {what, limits::max_measurements_file_bytes});
    for (Row& row : parse(text, file)) {
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// 0 when no row is `outside` its bound; else 3, with one line on stderr naming them.
int validation_status(const std::vector<std::string>& outside);

} // namespace icx::cli
