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
#include "views/validate_loads.hpp"

namespace icx::cli {

namespace {

std::string rate_text(const std::optional<double>& tokens_per_s) {
  return tokens_per_s ? fmt::format("{:.3g} tok/s", *tokens_per_s) : "-";
}

void print_rows(const std::vector<OffloadCheck>& checks) {
  TextTable table(comparison_columns(
      {{"row", Align::left}, {"hardware", Align::left}, {"engine", Align::left}}));
  for (const OffloadCheck& c : checks) {
    const bool priced = c.predicted_tokens_per_s.has_value();
    table.add_row({std::to_string(c.row.line), c.row.hardware,
                   priced ? std::string(to_string(c.row.engine)) : "-",
                   rate_text(c.row.measured_tokens_per_s), rate_text(c.predicted_tokens_per_s),
                   priced ? fmt::format("{:+.0f} %", c.error * 100) : "-",
                   bound_text(factor_bound(c.row.bound)), c.row.use,
                   !priced    ? c.row.note
                   : c.within ? "ok"
                              : "OUT"});
  }
  print_out("Offloaded decode (icx offload, expected step) against published runs\n\n{}\n",
            table.render());
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
    row["engine"] = c.predicted_tokens_per_s ? Json(to_string(c.row.engine)) : Json(nullptr);
    for (const auto& [key, value] :
         {std::pair{"measured_tokens_per_s", c.row.measured_tokens_per_s},
          {"predicted_tokens_per_s", c.predicted_tokens_per_s}}) {
      row[key] = value ? json_number(*value) : nullptr;
    }
    row["error"] = c.predicted_tokens_per_s ? json_number(c.error) : nullptr;
    row["bound"] = c.row.bound ? json_number(*c.row.bound) : nullptr;
    row["within_bound"] = c.within;
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
  emit(style, document(checks), "rows", {}, [&] { print_rows(checks); });
  std::vector<std::string> outside;
  for (const OffloadCheck& c : checks) {
    if (!c.within) {
      outside.push_back(fmt::format("line {} ({})", c.row.line, c.row.hardware));
    }
  }
  return validation_status(outside);
}

} // namespace icx::cli
