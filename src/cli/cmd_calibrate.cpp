// icx calibrate: fits a link's expected-model latency and efficiency to an nccl-tests log and
// writes a catalog overlay, so the user's own measurements drive every other command.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/calibration_report.hpp"
#include "icx/collectives.hpp"
#include "icx/limits.hpp"
#include "icx/nccl_log.hpp"
#include "icx/units_format.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"

namespace icx::cli {

namespace {

struct CalibrateOptions {
  CommonOptions common;
  std::string log;
  std::string wire;
  std::optional<int> gpus;
  std::string op;
  std::string algo = "ring";
  std::optional<std::string> output;
  bool force = false;
};

/// --gpus, else the ranks the log lists; the two must agree.
int gpus_of(const CalibrateOptions& options, const NcclTestLog& log) {
  if (options.gpus && log.ranks && *options.gpus != *log.ranks) {
    throw UsageError(fmt::format("--gpus {} disagrees with the {} ranks listed in {}",
                                 *options.gpus, *log.ranks, options.log));
  }
  if (options.gpus) {
    return *options.gpus;
  }
  if (log.ranks && *log.ranks >= min_collective_gpus) {
    return *log.ranks;
  }
  throw UsageError(
      fmt::format("--gpus: {} does not list two or more ranks; give --gpus N", options.log));
}

CalibrationRequest request_of(const CalibrateOptions& options, const Catalog& catalog) {
  CalibrationRequest request;
  request.link = &for_flag("--wire", [&]() -> const Link& { return catalog.link(options.wire); });
  request.algorithm = parse_algorithm(options.algo);
  request.log = parse_nccl_test_log(
      read_text_file(options.log, {"an nccl-tests log file", limits::max_nccl_log_file_bytes}),
      options.log);
  request.log_name = options.log;
  if (!options.op.empty()) {
    request.op = parse_collective(options.op, "--op: ");
  }
  request.op = measured_collective(request);
  require_algorithm(*request.link, *request.op, request.algorithm);
  request.gpus = gpus_of(options, request.log);
  return request;
}

/// Every file the overlay was computed from: -o must not replace one of them.
std::vector<std::filesystem::path> inputs_of(const CalibrateOptions& options) {
  std::vector<std::filesystem::path> inputs{options.log};
  inputs.insert(inputs.end(), options.common.catalogs.begin(), options.common.catalogs.end());
  return inputs;
}

/// Writes the overlay when -o was given and the fit meets its bounds (or --force); a fit
/// that misses them is said on stderr either way.
void write_overlay(const CalibrateOptions& options, const CalibrationReport& report) {
  const std::string& misses = report.misses;
  const std::string advice = "check --wire, --algo and --gpus against the run";
  if (options.output && !misses.empty() && !options.force) {
    throw InputError(fmt::format("-o {}: not written: the fit misses its quality bounds: {}; {}, "
                                 "or write it anyway with --force",
                                 *options.output, misses, advice));
  }
  if (!misses.empty()) {
    print_stderr_line(fmt::format("icx: warning: the fit misses its quality bounds: {}; {}", misses,
                                  options.output ? "written anyway (--force)" : advice));
  }
  if (!options.output) {
    return;
  }
  try {
    write_text_file_atomically(*options.output, catalog_overlay(report.overlay).dump(2) + "\n",
                               inputs_of(options));
  } catch (const InputError& error) {
    throw InputError(fmt::format("-o{}{}", options.output->empty() ? ": " : " ", error.what()));
  }
}

void print_table(const CalibrationReport& report) {
  print_out("{} over {} GPUs on {} [{}], {}: {} rows from {}\n\n", to_string(report.op),
            report.gpus, report.link->name, report.link->id, to_string(report.algorithm),
            report.fit.samples.size(), report.log_name);
  TextTable table({{"line", Align::right},
                   {"size (B)", Align::right},
                   {"measured", Align::right},
                   {"fitted", Align::right},
                   {"error", Align::right}});
  for (std::size_t i = 0; i < report.fit.samples.size(); ++i) {
    const SampleFit& s = report.fit.samples[i];
    table.add_row({std::to_string(report.lines[i]), fmt::format("{:.0f}", s.measured.size.value()),
                   format_seconds(s.measured.time), format_seconds(s.predicted),
                   fmt::format("{:+.1f} %", s.error * 100)});
  }
  print_out("{}\n", table.render());
}

void print_fit(const CalibrationReport& report) {
  const CalibrationResult& fit = report.fit;
  const Link& link = *report.link;
  const AlgorithmParameters& p = report.fitted;
  print_out("fitted: latency {}{}, efficiency {:.3g} of {} each way; ramp {} and small-message "
            "slowdown {:.3g} {}\n",
            format_seconds(fit.latency),
            p.steps ? fmt::format(" ({} ring steps × {})", *p.steps, format_seconds(p.unit_latency))
                    : std::string(),
            p.efficiency, format_rate(link.per_direction_bandwidth.high),
            format_seconds(fit.model.ramp), fit.model.small_message_slowdown,
            fit.regimes == 2 ? "fitted too: the log shows two regimes (NCCL's LL protocol below, "
                               "Simple above)"
                             : "kept from the catalog");
  if (fit.efficiency_at_limit) {
    print_out("warning: the fit hit the efficiency limit of 1: the measured runs moved data faster "
              "than {} each way allows; the log is probably from a faster wire than '{}'\n",
              format_rate(link.per_direction_bandwidth.high), link.id);
  }
  print_out("median |error| {:.1f} %; measured time = mean of the out-of-place and in-place "
            "columns; fit = least squares on relative time error\n",
            fit.median_abs_error * 100);
}

int run_calibrate(const CalibrateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const CalibrationReport report = calibration_report(catalog, request_of(options, catalog));
  write_overlay(options, report);
  const Style style = style_of(options.common);
  emit(style, Json(report), "rows", {}, [&] {
    print_table(report);
    print_fit(report);
    if (options.output) {
      print_out("overlay written to {} (use it with --catalog {})\n", *options.output,
                *options.output);
    }
  });
  return 0;
}

} // namespace

Command setup_calibrate(CLI::App& app) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Fit a wire's expected-model latency and efficiency to an nccl-tests log");
  sub->add_option("log", options->log, "nccl-tests output, as the tool printed it")
      ->type_name("FILE")
      ->required();
  sub->add_option("-w,--wire", options->wire, "Link id or alias the log was measured on")
      ->type_name("ID")
      ->required();
  sub->add_option("-g,--gpus", options->gpus, "GPUs in the run (default: the ranks the log lists)")
      ->type_name("N")
      ->transform(whole_number(min_collective_gpus, limits::max_domain));
  sub->add_option("--op", options->op,
                  "Operation measured (default: the test the log names, else all-reduce)")
      ->type_name("OP");
  sub->add_option("--algo", options->algo,
                  "ring (auto means ring here: the log shows what NCCL chose, low-latency "
                  "protocol below, Simple above), or nvls when NCCL ran in-network reduction")
      ->type_name("ALGO")
      ->default_str("ring");
  sub->add_option("-o,--output", options->output,
                  "Write the wire's catalog entry with the fitted parameters (a --catalog file)")
      ->type_name("FILE");
  sub->add_flag("--force", options->force,
                fmt::format("Write the overlay even when the fit misses its quality bounds "
                            "(median |error| above {:.0f} %, a row off by more than {:.0f} %, or "
                            "the efficiency at its bound of 1)",
                            fit_bounds::max_median_abs_error * 100,
                            fit_bounds::max_row_abs_error * 100));
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx calibrate all_reduce_perf.log --wire nvlink4 --gpus 8 -o my-nvlink4.json\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --catalog "
              "my-nvlink4.json\n"
              "  icx calibrate nvls.log --wire nvlink4 --algo nvls --json");
  return {sub, [options] { return run_calibrate(*options); }};
}

} // namespace icx::cli
