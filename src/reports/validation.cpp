#include "icx/reports/validation.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace icx {

namespace {

/// Rows named in the failure; the rest are counted.
constexpr std::size_t max_rows_listed = 5;

std::string failure_of(const ValidationReport& report) {
  const std::vector<std::size_t> out = report.accuracy.out_of_bound();
  if (out.empty()) {
    return "";
  }
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < out.size() && i < max_rows_listed; ++i) {
    const AccuracyCheck& c = report.accuracy.checks[out[i]];
    rows.push_back(fmt::format("{}:{} ({} {:+.1f} %, bound ±{:.0f} %)",
                               report.files[report.file_of[out[i]]], c.measured.line,
                               to_string(c.bound.metric), c.comparison.error * 100,
                               c.bound.tolerance * 100));
  }
  if (out.size() > max_rows_listed) {
    rows.push_back(fmt::format("{} more", out.size() - max_rows_listed));
  }
  std::size_t held = 0;
  for (const AccuracyCheck& c : report.accuracy.checks) {
    held += c.comparison.predicted && c.comparison.held ? std::size_t{1} : std::size_t{0};
  }
  return fmt::format("{} of {} rows held to a bound are outside it: {}", out.size(), held,
                     fmt::join(rows, ", "));
}

Json row_json(const AccuracyCheck& c, const std::string& file) {
  const MeasuredCollective& m = c.measured;
  Json row = Json::object();
  row["file"] = file;
  row["line"] = m.line;
  row["hardware"] = m.hardware;
  row["wire"] = m.link;
  row["op"] = to_string(m.op);
  row["algo"] = to_string(m.algorithm);
  row["impl"] = to_string(m.setup.implementation);
  if (!m.setup.topology.empty()) {
    row["topology"] = m.setup.topology;
  }
  row["gpus"] = m.gpus;
  if (m.spans_nodes()) {
    row["nodes"] = m.nodes;
    row["gpus_per_node"] = m.gpus_per_node();
    row["nics_per_node"] = m.nics();
    if (!m.scale_up.empty()) {
      row["scale_up"] = m.scale_up;
    }
  }
  row["size_bytes"] = json_number(m.size.value());
  row["use"] = m.use;
  row["metric"] = to_string(c.bound.metric);
  row["tolerance"] = c.bound.tolerance;
  row["measured"] = {{"seconds", json_number(m.time.value())},
                     {"busbw_bytes_per_s", json_number(m.busbw.value())}};
  if (c.predicted) {
    row["predicted"] = {{"seconds", json_number(c.predicted->time.value())},
                        {"busbw_bytes_per_s", json_number(c.predicted->busbw.value())}};
    row["error"] = c.comparison.error;
    row["within"] = c.comparison.within();
  } else {
    row["predicted"] = nullptr;
    row["unavailable"] = c.predicted.reason();
  }
  row["source"] = m.source;
  return row;
}

} // namespace

ValidationReport validation_report(const Catalog& catalog, std::span<const MeasurementFile> files) {
  ValidationReport report;
  std::vector<MeasuredCollective> rows;
  for (const MeasurementFile& file : files) {
    for (MeasuredCollective& row : parse_measurements_csv(file.text, file.origin)) {
      rows.push_back(std::move(row));
      report.file_of.push_back(report.files.size());
    }
    report.files.push_back(file.origin);
  }
  report.accuracy = check_accuracy(catalog, rows);
  report.failure = failure_of(report);
  return report;
}

Json summary_json(const ComparisonSummary& s) {
  return {{"rows", s.rows},
          {"predicted", s.predicted},
          {"within_bound", s.within},
          {"median_abs_error", s.median_abs_error},
          {"worst_abs_error", s.worst_abs_error}};
}

void to_json(Json& json, const ValidationReport& report) {
  json = json_document("icx.validate/1");
  Json rows = Json::array();
  for (std::size_t i = 0; i < report.accuracy.checks.size(); ++i) {
    rows.push_back(row_json(report.accuracy.checks[i], report.files[report.file_of[i]]));
  }
  json["rows"] = std::move(rows);
  Json summary = Json::object();
  for (const auto& [use, s] : report.accuracy.by_use) {
    summary[use] = summary_json(s);
  }
  json["summary"] = std::move(summary);
  Json by_wire = Json::object();
  for (const auto& [wire, uses] : report.accuracy.by_wire) {
    for (const auto& [use, s] : uses) {
      by_wire[wire][use] = summary_json(s);
    }
  }
  json["summary_by_wire"] = std::move(by_wire);
}

} // namespace icx
