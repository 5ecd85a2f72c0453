// icx validate: the expected model against published measurements, row by row, with the
// bound each row is held to and the median and worst error.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/reports/validation.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "views/validate_loads.hpp"

namespace icx::cli {

namespace {

struct ValidateOptions {
  CommonOptions common;
  std::vector<std::string> files;
  bool loads = false;
  bool offload = false;
};

std::string measured_text(const AccuracyCheck& c) {
  return c.bound.metric == Metric::busbw ? format_rate(c.measured.busbw)
                                         : format_seconds(c.measured.time);
}

std::string predicted_text(const AccuracyCheck& c) {
  if (!c.predicted) {
    return "-";
  }
  return c.bound.metric == Metric::busbw ? format_rate(c.predicted->busbw)
                                         : format_seconds(c.predicted->time);
}

std::string verdict(const AccuracyCheck& c) {
  if (!c.predicted) {
    return "n/a";
  }
  if (!c.held_to_bound()) {
    return "shown";
  }
  return c.within() ? "ok" : "OUT";
}

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

void print_rows(const ValidationReport& report) {
  TextTable table(comparison_columns({{"row", Align::left},
                                      {"hardware", Align::left},
                                      {"wire", Align::left},
                                      {"op", Align::left},
                                      {"gpus", Align::right},
                                      {"size (B)", Align::right},
                                      {"metric", Align::left}}));
  for (std::size_t i = 0; i < report.accuracy.checks.size(); ++i) {
    const AccuracyCheck& c = report.accuracy.checks[i];
    const MeasuredCollective& m = c.measured;
    const std::string& file = report.files[report.file_of[i]];
    table.add_row({fmt::format("{}:{}", file.substr(file.find_last_of('/') + 1), m.line),
                   m.hardware, wire_text(m), run_text(m), gpus_text(m),
                   fmt::format("{:.0f}", m.size.value()), std::string(to_string(c.bound.metric)),
                   measured_text(c), predicted_text(c),
                   c.predicted ? fmt::format("{:+.1f} %", c.error * 100) : "-",
                   bound_text(c.bound.bound()), m.use, verdict(c)});
  }
  print_out("Expected model against published measurements\n\n{}\n", table.render());
}

void print_summary(const ValidationReport& report) {
  TextTable summary({{"wire", Align::left},
                     {"use", Align::left},
                     {"rows", Align::right},
                     {"predicted", Align::right},
                     {"within bound", Align::right},
                     {"median |error|", Align::right},
                     {"worst |error|", Align::right}});
  const auto add = [&](const std::string& wire, const std::string& use, const AccuracySummary& s) {
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
  print_out("{}\n", summary.render());
  print_out("bound: busbw ±10 % from 1 GiB, ±25 % from 128 MiB, time ±50 % below; fit = rows the "
            "catalog's parameters were fitted to, held-out = rows not used, outside = cases the "
            "model does not cover (shown, not held to a bound). Sources: --json.\n");
}

int run_validate(const ValidateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  if (options.loads) {
    return run_validate_loads(catalog, options.files, style_of(options.common));
  }
  if (options.offload) {
    return run_validate_offload(catalog, options.files, style_of(options.common));
  }
  std::vector<std::string> texts;
  const ValidationReport report =
      validation_report(catalog, measurement_files(options.files, shipped_measurements(),
                                                   "a measurements CSV file", texts));
  emit(style_of(options.common), Json(report), "rows", {}, [&] {
    print_rows(report);
    print_summary(report);
  });
  return exit_status(report);
}

} // namespace

Command setup_validate(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Compare the expected model with published collective measurements");
  sub->add_option(
         "files", options->files,
         "Measurement CSVs (columns as data/measurements/collectives.csv; with --loads or "
         "--offload as data/measurements/loads.csv or offload.csv); default: the shipped ones")
      ->type_name("FILE")
      ->check(input_file("FILE"));
  sub->add_flag("--loads", options->loads,
                "Check the expected load model of 'icx coldstart --loader' against published "
                "load times instead");
  sub->add_flag("--offload", options->offload,
                "Check the expected decode step of 'icx offload' against published offloaded "
                "runs instead")
      ->excludes("--loads");
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx validate\n"
              "  icx validate --json\n"
              "  icx validate my-cluster.csv --catalog my-nvlink4.json\n"
              "  icx validate --loads\n"
              "  icx validate --offload --json\n\n"
              "Exit status: 0 every predicted fit and held-out row is within its bound, 3 some "
              "are not (listed on stderr), 2 bad input.");
  return {sub, [options] { return run_validate(*options); }};
}

} // namespace icx::cli
