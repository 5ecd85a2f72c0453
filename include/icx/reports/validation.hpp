// `icx validate` as data: every row of the measurement files checked against the expected
// model, which file each row came from, and why validation fails when it does.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/collective_validation.hpp"

namespace icx {

struct ValidationReport {
  AccuracyReport accuracy;
  /// The files read, in order.
  std::vector<std::string> files;
  /// Index into `files` of each of accuracy.checks.
  std::vector<std::size_t> file_of;
  /// Why validation fails: the rows held to a bound that miss it, up to five by name
  /// ("2 of 3 rows held to a bound are outside it: a.csv:3 (busbw -50.1 %, bound ±10 %), …");
  /// empty when every predicted row is within its bound.
  std::string failure;

  [[nodiscard]] bool passed() const { return failure.empty(); }
};

/// Parses every file and checks each row (check_accuracy). Throws InputError for a malformed
/// file, LookupError for a row naming an unknown link.
ValidationReport validation_report(const Catalog& catalog, std::span<const MeasurementFile> files);

/// The icx.validate/1 document.
void to_json(Json& json, const ValidationReport& report);

} // namespace icx
