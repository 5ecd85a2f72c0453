// icx validate: the expected model against published measurements, row by row, with the
// bound each row is held to and the median and worst error.
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "icx/validation.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"

namespace icx::cli {

namespace {

struct ValidateOptions {
  CommonOptions common;
  std::vector<std::string> files;
};

struct Origin {
  std::string file;
  std::size_t first_row = 0;
};

std::string metric_name(Metric metric) {
  return metric == Metric::busbw ? "busbw" : "time";
}

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

Json to_json(const AccuracyReport& report, const std::vector<std::string>& files,
             const std::vector<std::size_t>& file_of) {
  Json doc = json_document("icx.validate/1");
  Json rows = Json::array();
  for (std::size_t i = 0; i < report.checks.size(); ++i) {
    const AccuracyCheck& c = report.checks[i];
    const MeasuredCollective& m = c.measured;
    Json row = Json::object();
    row["file"] = files[file_of[i]];
    row["line"] = m.line;
    row["hardware"] = m.hardware;
    row["wire"] = m.link;
    row["op"] = to_string(m.op);
    row["algo"] = to_string(m.algorithm);
    row["gpus"] = m.gpus;
    row["size_bytes"] = json_number(m.size.value());
    row["use"] = m.use;
    row["metric"] = metric_name(c.bound.metric);
    row["tolerance"] = c.bound.tolerance;
    row["measured"] = {{"seconds", json_number(m.time.value())},
                       {"busbw_bytes_per_s", json_number(m.busbw.value())}};
    if (c.predicted) {
      row["predicted"] = {{"seconds", json_number(c.predicted->time.value())},
                          {"busbw_bytes_per_s", json_number(c.predicted->busbw.value())}};
      row["error"] = c.error;
      row["within"] = c.within();
    } else {
      row["predicted"] = nullptr;
      row["unavailable"] = c.unavailable;
    }
    row["source"] = m.source;
    rows.push_back(std::move(row));
  }
  doc["rows"] = std::move(rows);
  Json summary = Json::object();
  for (const auto& [use, s] : report.by_use) {
    summary[use] = {{"rows", s.rows},
                    {"predicted", s.predicted},
                    {"within_bound", s.within},
                    {"median_abs_error", s.median_abs_error},
                    {"worst_abs_error", s.worst_abs_error}};
  }
  doc["summary"] = std::move(summary);
  return doc;
}

/// Rows named in the failure line; the rest are counted.
constexpr std::size_t max_rows_listed = 5;

/// One line on stderr naming the rows outside their bound; the exit status.
int report_out_of_bound(const AccuracyReport& report, const std::vector<std::string>& names,
                        const std::vector<std::size_t>& file_of) {
  const std::vector<std::size_t> out = report.out_of_bound();
  if (out.empty()) {
    return exit_ok;
  }
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < out.size() && i < max_rows_listed; ++i) {
    const AccuracyCheck& c = report.checks[out[i]];
    rows.push_back(fmt::format("{}:{} ({} {:+.1f} %, bound ±{:.0f} %)", names[file_of[out[i]]],
                               c.measured.line, metric_name(c.bound.metric), c.error * 100,
                               c.bound.tolerance * 100));
  }
  if (out.size() > max_rows_listed) {
    rows.push_back(fmt::format("{} more", out.size() - max_rows_listed));
  }
  std::size_t held = 0;
  for (const AccuracyCheck& c : report.checks) {
    held += c.predicted && c.held_to_bound() ? std::size_t{1} : std::size_t{0};
  }
  flush_stdout(); // the table first, then the verdict on it, wherever both go
  print_stderr_line(
      fmt::format("icx: validation failed: {} of {} rows held to a bound are outside it: {}",
                  out.size(), held, fmt::join(rows, ", ")));
  return exit_check_failed;
}

int run_validate(const ValidateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  std::vector<std::string> names;
  std::vector<MeasuredCollective> rows;
  std::vector<std::size_t> file_of;
  auto add = [&](const std::string& name, std::string_view text) {
    for (MeasuredCollective& row : parse_measurements_csv(text, name)) {
      rows.push_back(std::move(row));
      file_of.push_back(names.size());
    }
    names.push_back(name);
  };
  if (options.files.empty()) {
    for (const ShippedMeasurements& file : shipped_measurements()) {
      add(file.name, file.text);
    }
  } else {
    for (const std::string& file : options.files) {
      add(file,
          read_text_file(file, {"a measurements CSV file", limits::max_measurements_file_bytes}));
    }
  }
  const AccuracyReport report = check_accuracy(catalog, rows);
  if (const Style style = style_of(options.common); style.format != Format::table) {
    emit(style, to_json(report, names, file_of), "rows", {}, [] {});
    return report_out_of_bound(report, names, file_of);
  }
  TextTable table({{"row", Align::left},
                   {"hardware", Align::left},
                   {"wire", Align::left},
                   {"op", Align::left},
                   {"gpus", Align::right},
                   {"size (B)", Align::right},
                   {"metric", Align::left},
                   {"measured", Align::right},
                   {"predicted", Align::right},
                   {"error", Align::right},
                   {"bound", Align::right},
                   {"use", Align::left},
                   {"", Align::left}});
  for (std::size_t i = 0; i < report.checks.size(); ++i) {
    const AccuracyCheck& c = report.checks[i];
    const MeasuredCollective& m = c.measured;
    const std::string& file = names[file_of[i]];
    table.add_row(
        {fmt::format("{}:{}", file.substr(file.find_last_of('/') + 1), m.line), m.hardware, m.link,
         fmt::format("{} {}", to_string(m.op), to_string(m.algorithm)), std::to_string(m.gpus),
         fmt::format("{:.0f}", m.size.value()), metric_name(c.bound.metric), measured_text(c),
         predicted_text(c), c.predicted ? fmt::format("{:+.1f} %", c.error * 100) : "-",
         fmt::format("±{:.0f} %", c.bound.tolerance * 100), m.use, verdict(c)});
  }
  print_out("Expected model against published measurements\n\n{}\n", table.render());
  TextTable summary({{"use", Align::left},
                     {"rows", Align::right},
                     {"predicted", Align::right},
                     {"within bound", Align::right},
                     {"median |error|", Align::right},
                     {"worst |error|", Align::right}});
  for (const auto& [use, s] : report.by_use) {
    summary.add_row({use, std::to_string(s.rows), std::to_string(s.predicted),
                     use == "outside" ? "-" : std::to_string(s.within),
                     fmt::format("{:.1f} %", s.median_abs_error * 100),
                     fmt::format("{:.1f} %", s.worst_abs_error * 100)});
  }
  print_out("{}\n", summary.render());
  print_out("bound: busbw ±10 % from 1 GiB, ±25 % from 128 MiB, time ±50 % below; fit = rows the "
            "catalog's parameters were fitted to, held-out = rows not used, outside = cases the "
            "model does not cover (shown, not held to a bound). Sources: --json.\n");
  return report_out_of_bound(report, names, file_of);
}

} // namespace

Command setup_validate(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Compare the expected model with published collective measurements");
  sub->add_option("files", options->files,
                  "Measurement CSVs (columns as tests/data/collectives.csv); default: the "
                  "shipped ones")
      ->type_name("FILE");
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx validate\n"
              "  icx validate --json\n"
              "  icx validate my-cluster.csv --catalog my-nvlink4.json\n\n"
              "Exit status: 0 every predicted fit and held-out row is within its bound, 3 some "
              "are not (listed on stderr), 2 bad input.");
  return {sub, [options] { return run_validate(*options); }};
}

} // namespace icx::cli
