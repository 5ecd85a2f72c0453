#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "icx/base/json_values.hpp"
#include "icx/base/limits.hpp"
#include "icx/reports/offload_validation.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "output/json.hpp"
#include "output/terminal.hpp"
#include "views/comparison.hpp"
#include "views/validate.hpp"

namespace icx::cli {

namespace {

void print_rows(const Style& style, const std::vector<OffloadCheck>& checks) {
  TextTable table(comparison_columns(
      {{"row", Align::left}, {"hardware", Align::left}, {"engine", Align::left}}));
  for (const OffloadCheck& c : checks) {
    const ComparisonText text{[](double rate) { return fmt::format("{:.3g} tok/s", rate); }, 0,
                              c.row.note};
    table.add_row(
        comparison_cells({std::to_string(c.row.line), c.row.hardware,
                          c.comparison.predicted ? std::string(to_string(c.row.engine)) : "-"},
                         c.comparison, c.row.use, text));
  }
  print_out("Offloaded decode (icx offload, expected step) against published runs\n\n{}\n",
            fit_table(style, table));
  print_out("predicted = batch / the expected step, the resident bytes in the HBM the run held "
            "them in; nothing is fitted on these rows; outside = a run icx cannot price (the "
            "last column says why). Sources: --json.\n");
}

Json document(const std::vector<OffloadCheck>& checks) {
  Json doc = json_document("icx.validate-offload/1");
  doc["rows"] = Json::array();
  for (const OffloadCheck& c : checks) {
    Json row;
    row["line"] = c.row.line;
    row["hardware"] = c.row.hardware;
    row["use"] = c.row.use;
    const Comparison& cmp = c.comparison;
    row["engine"] = cmp.predicted ? Json(to_string(c.row.engine)) : Json(nullptr);
    row["measured_tokens_per_s"] = cmp.measured ? json_number(*cmp.measured) : nullptr;
    row["predicted_tokens_per_s"] = cmp.predicted ? json_number(*cmp.predicted) : nullptr;
    row["error"] = cmp.predicted ? json_number(cmp.error) : nullptr;
    row["bound"] = c.row.bound ? json_number(*c.row.bound) : nullptr;
    row["within_bound"] = !cmp.misses();
    row["note"] = c.row.note;
    row["source"] = c.row.source;
    doc["rows"].push_back(std::move(row));
  }
  return doc;
}

} // namespace

int run_validate_offload(const Catalog& catalog, const std::vector<std::string>& files,
                         const Style& style) {
  std::vector<std::string> texts;
  const std::vector<OffloadCheck> checks = check_offloads(
      catalog, rows_of<MeasuredOffload>(
                   measurement_files(files, shipped_offloads(), "an offload CSV file", texts),
                   parse_offloads_csv));
  emit(style, document(checks), "rows", {}, [&] { print_rows(style, checks); });
  std::vector<std::string> outside;
  for (const OffloadCheck& c : checks) {
    if (c.comparison.misses()) {
      outside.push_back(fmt::format("line {} ({})", c.row.line, c.row.hardware));
    }
  }
  return validation_status(outside);
}

} // namespace icx::cli
