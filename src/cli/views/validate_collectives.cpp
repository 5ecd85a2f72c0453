// icx validate: the expected collective model against published measurements, row by row,
// with the bound each row is held to and the median and worst error per wire and use.
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/reports/validation.hpp"
#include "icx/util/table.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"
#include "views/comparison.hpp"
#include "views/validate.hpp"

namespace icx::cli {

namespace {

/// The exit status; a failure is one line on stderr naming the rows outside their bound.
int exit_status(const ValidationReport& report) {
  if (report.passed()) {
    return exit_ok;
  }
  flush_stdout(); // the table first, then the verdict on it, wherever both go
  print_stderr_line(fmt::format("icx: validation failed: {}", report.failure));
  return exit_check_failed;
}

/// "all-reduce ring", "all-reduce auto, vllm", "all-reduce ring, host".
std::string run_text(const MeasuredCollective& m) {
  std::string text = fmt::format("{} {}", to_string(m.op), to_string(m.algorithm));
  if (m.setup.implementation != Implementation::nccl) {
    text += fmt::format(", {}", to_string(m.setup.implementation));
  }
  if (!m.setup.topology.empty()) {
    text += ", " + m.setup.topology;
  }
  return text;
}

/// The link, or across nodes the node's NICs and the link inside: "4x ib-hdr, nvlink3".
std::string wire_text(const MeasuredCollective& m) {
  if (!m.spans_nodes()) {
    return m.link;
  }
  std::string text = fmt::format("{}x {}", m.nics(), m.link);
  return m.scale_up.empty() ? text : text + ", " + m.scale_up;
}

/// "8", or across nodes "3x8" (nodes × GPUs per node).
std::string gpus_text(const MeasuredCollective& m) {
  return m.spans_nodes() ? fmt::format("{}x{}", m.nodes, m.gpus_per_node())
                         : std::to_string(m.gpus);
}

/// The rows of file `f`, named by their line. To fit a terminal the table leaves out use and
/// bound, cuts the wire and the operation, then leaves out gpus, the metric (the unit says it)
/// and the hardware (the wire says most of it).
TextTable file_rows(const ValidationReport& report, std::size_t f) {
  TextTable table(comparison_columns({{"line", Align::right},
                                      {"hardware", Align::left, 1},
                                      {"wire", Align::left, 3, 10},
                                      {"op", Align::left, 3, 10},
                                      {"gpus", Align::right, 3},
                                      {"size (B)", Align::right},
                                      {"metric", Align::left, 2}}));
  for (std::size_t i = 0; i < report.accuracy.checks.size(); ++i) {
    if (report.file_of[i] != f) {
      continue;
    }
    const AccuracyCheck& c = report.accuracy.checks[i];
    const MeasuredCollective& m = c.measured;
    const Metric metric = c.bound.metric;
    const ComparisonText text{[metric](double value) {
                                return metric == Metric::busbw
                                           ? format_rate(BytesPerSecond::of(value))
                                           : format_seconds(Seconds::of(value));
                              },
                              1, "n/a"};
    table.add_row(comparison_cells({std::to_string(m.line), m.hardware, wire_text(m), run_text(m),
                                    gpus_text(m), fmt::format("{:.0f}", m.size.value()),
                                    std::string(to_string(metric))},
                                   c.comparison, m.use, text));
  }
  return table;
}

/// One table per measurements file, under the file's name.
void print_rows(const Style& style, const ValidationReport& report) {
  for (std::size_t f = 0; f < report.files.size(); ++f) {
    const TextTable table = file_rows(report, f);
    if (table.empty()) {
      continue;
    }
    print_out("Expected model against published measurements in {}\n\n{}\n",
              std::filesystem::path(report.files[f]).filename().string(), fit_table(style, table));
  }
}

void print_summary(const Style& style, const ValidationReport& report) {
  TextTable summary({{"wire", Align::left, 1, 16},
                     {"use", Align::left},
                     {"rows", Align::right},
                     {"predicted", Align::right, 2},
                     {"in bound", Align::right},
                     {"median |error|", Align::right},
                     {"worst |error|", Align::right}});
  const auto add = [&](const std::string& wire, const std::string& use,
                       const ComparisonSummary& s) {
    summary.add_row({wire, use, std::to_string(s.rows), std::to_string(s.predicted),
                     use == "outside" ? "-" : std::to_string(s.within),
                     fmt::format("{:.1f} %", s.median_abs_error * 100),
                     fmt::format("{:.1f} %", s.worst_abs_error * 100)});
  };
  for (const auto& [wire, uses] : report.accuracy.by_wire) {
    for (const auto& [use, s] : uses) {
      add(wire, use, s);
    }
  }
  for (const auto& [use, s] : report.accuracy.by_use) {
    add("all", use, s);
  }
  print_out("{}\n", fit_table(style, summary));
  print_out("bound: busbw ±10 % from 1 GiB, ±25 % from 128 MiB, time ±50 % below; fit = rows the "
            "catalog's parameters were fitted to, held-out = rows not used, outside = cases the "
            "model does not cover (shown, not held to a bound). Sources: --json.\n");
}

} // namespace

int run_validate_collectives(const Catalog& catalog, const std::vector<std::string>& files,
                             const Style& style) {
  std::vector<std::string> texts;
  const ValidationReport report = validation_report(
      catalog, measurement_files(files, shipped_measurements(), "a measurements CSV file", texts));
  emit(style, Json(report), "rows", {}, [&] {
    print_rows(style, report);
    print_summary(style, report);
  });
  return exit_status(report);
}

} // namespace icx::cli
