// icx calibrate: fits a link's expected-model latency and efficiency to an nccl-tests log and
// writes a catalog overlay, so the user's own measurements drive every other command.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/measured/nccl_log.hpp"
#include "icx/reports/calibration.hpp"
#include "icx/reports/serving_calibration.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "icx/wire/collectives.hpp"
#include "options/common.hpp"
#include "options/fabric.hpp"
#include "options/files.hpp"
#include "options/serving_runs.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "views/comparison.hpp"
#include "views/validate.hpp"

namespace icx::cli {

namespace {

struct CalibrateOptions {
  CommonOptions common;
  std::string log;
  std::string wire;
  FabricOptions fabric;
  std::optional<int> gpus;
  std::string op;
  std::string algo = "auto";
  std::optional<std::string> output;
  bool force = false;
  /// Serving benchmark runs to fit an engine's costs to, and their setup.
  std::vector<std::string> serving;
  ServingRunOptions runs;
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

/// The fabric flags with --gpus-per-node from the log's hosts when it names several.
FabricOptions fabric_options_of(const CalibrateOptions& options, const NcclTestLog& log) {
  FabricOptions fabric = options.fabric;
  const std::optional<int> per_host = log_gpus_per_node(log, options.log, fabric.gpus_per_node);
  if (!per_host || fabric.gpus_per_node) {
    return fabric;
  }
  if (fabric.scale_out.empty() && fabric.system.empty()) {
    throw UsageError(fmt::format("--scale-out: {} runs on {} hosts of {} ranks; give --scale-out "
                                 "LINK and --nics-per-node N, or --system ID (or "
                                 "--gpus-per-node {} when one scale-up domain spans the hosts)",
                                 options.log, *log.ranks / *per_host, *per_host, *log.ranks));
  }
  fabric.gpus_per_node = per_host;
  return fabric;
}

CalibrationRequest request_of(const CalibrateOptions& options, const Catalog& catalog) {
  CalibrationRequest request;
  request.algorithm = parse_algorithm(options.algo);
  request.log = parse_nccl_test_log(
      read_text_file(options.log, {"an nccl-tests log file", limits::max_nccl_log_file_bytes}),
      options.log);
  request.log_name = options.log;
  if (!options.op.empty()) {
    request.op = parse_collective(options.op, "--op: ");
  }
  request.op = measured_collective(request);
  request.gpus = gpus_of(options, request.log);
  const Fabric fabric =
      parse_fabric(catalog, fabric_options_of(options, request.log), options.wire, request.gpus);
  if (request.gpus > fabric.gpus_per_node) {
    if (const Check check =
            check_fabric_algorithm(fabric, *request.op, request.algorithm, request.gpus);
        !check) {
      throw UsageError(fmt::format("--algo {}: {}", options.algo, check.reason()));
    }
    request.fabric = fabric;
    return request;
  }
  request.link = fabric.scale_up;
  require_algorithm(*request.link, *request.op, request.algorithm);
  return request;
}

/// Every file the overlay was computed from: -o must not replace one of them.
std::vector<std::filesystem::path> inputs_of(const CalibrateOptions& options) {
  std::vector<std::filesystem::path> inputs;
  if (!options.log.empty()) {
    inputs.emplace_back(options.log);
  }
  inputs.insert(inputs.end(), options.serving.begin(), options.serving.end());
  inputs.insert(inputs.end(), options.common.catalogs.begin(), options.common.catalogs.end());
  return inputs;
}

/// Writes `overlay` when -o was given and the fit meets its bounds (or --force); a fit that
/// misses them (`misses`) is said on stderr either way, with `advice`.
void write_overlay(const CalibrateOptions& options, const std::string& misses,
                   const std::string& advice, const nlohmann::ordered_json& overlay) {
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
    write_text_file_atomically(*options.output, overlay.dump(2) + "\n", inputs_of(options));
  } catch (const InputError& error) {
    throw InputError(fmt::format("-o{}{}", options.output->empty() ? ": " : " ", error.what()));
  }
}

void print_table(const Style& style, const CalibrationReport& report) {
  print_out("{}: {} rows from {}\n\n", fit_subject(report), report.fit.samples.size(),
            report.log_name);
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
  print_out("{}\n", fit_table(style, table));
}

void print_fit(const CalibrationReport& report) {
  const CalibrationResult& fit = report.fit;
  const Link& link = *report.link;
  const AlgorithmParameters& p = report.fitted;
  print_out("fitted: latency {}{}, efficiency {:.3g} of {} each way; ramp {} and small-message "
            "slowdown {:.3g} {}\n",
            format_seconds(fit.latency),
            p.steps ? fmt::format(" ({} {} × {})", *p.steps,
                                  report.fabric ? "steps between nodes" : "ring steps",
                                  format_seconds(p.unit_latency))
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
  const auto& large = report.median_abs_error_large;
  print_out("median |error| {:.1f} %{}; measured time = mean of the out-of-place and in-place "
            "columns; fit = least squares on relative time error\n",
            fit.median_abs_error * 100,
            large ? fmt::format(" ({:.1f} % from 16 MiB)", *large * 100) : std::string());
}

void print_serving_fit(const Style& style, const ServingCalibration& c) {
  const auto costs = [](const EngineCosts& e) {
    return fmt::format("{} per step, {} per request, prompt scale {:.3g}", format_seconds(e.step),
                       format_seconds(e.request), e.prompt_scale);
  };
  print_out("{}: {} run{} of {}\n\n", c.engine.id, c.after_check.checks.size(),
            c.after_check.checks.size() == 1 ? "" : "s", "serving benchmarks");
  TextTable table({{"run", Align::left},
                   {"figure", Align::left},
                   {"measured", Align::right},
                   {"catalog", Align::right},
                   {"fitted", Align::right}});
  for (std::size_t i = 0; i < c.after_check.checks.size(); ++i) {
    const ServingCheck& before = c.before_check.checks[i];
    const ServingCheck& after = c.after_check.checks[i];
    for (std::size_t j = 0; j < after.latencies.size(); ++j) {
      const Comparison& b = before.latencies[j].comparison;
      const Comparison& a = after.latencies[j].comparison;
      table.add_row({j == 0 ? serving_run_name(after.run) : std::string(),
                     figure_name(after.latencies[j]), format_seconds(Seconds::of(*a.measured)),
                     fmt::format("{:+.0f} %", b.error * 100),
                     fmt::format("{:+.0f} %", a.error * 100)});
    }
  }
  print_out("{}\n", fit_table(style, table));
  const std::string pass =
      c.fitted.prefill_step.value() > 0
          ? fmt::format(", per prefill step at {}", format_seconds(c.fitted.prefill_step))
          : std::string();
  print_out("fitted: {} (the catalog's: {}; per layer kept at {}, per sequence at {}{}); median "
            "|error| of each run's mean (else median) TTFT and TPOT {:.1f} %, worst {:.1f} %\n",
            costs(c.fitted), costs(c.before), format_seconds(c.fitted.layer),
            format_seconds(c.fitted.sequence), pass, c.median_abs_error * 100,
            c.worst_abs_error * 100);
}

int run_calibrate_serving(const CLI::App& app, const CalibrateOptions& options,
                          const Catalog& catalog) {
  std::vector<std::string> texts;
  const std::vector<ServingRun> runs = rows_of<ServingRun>(
      measurement_files(options.serving, {}, "a benchmark result file", texts), parse_serving_runs);
  // The cluster by calibrate's own --system, --gpus… flags.
  ServingRunOptions setup = options.runs;
  setup.place.nodes = options.fabric;
  setup.place.gpus = options.gpus;
  const ResolvedModel model = serving_run_model(catalog, app, setup, options.serving);
  const ServingCalibration c =
      calibrate_serving(catalog, serving_run_request(catalog, setup, options.common, model), runs);
  write_overlay(options, c.misses, "check --model, --system, --tp… and --engine against the runs",
                serving_overlay(c));
  Json doc;
  to_json(doc, c);
  const Style style = style_of(options.common);
  emit(style, doc, "runs_after", {}, [&] {
    print_serving_fit(style, c);
    if (options.output) {
      print_out("overlay written to {} (use it with --catalog {})\n", *options.output,
                *options.output);
    }
  });
  return 0;
}

int run_calibrate(const CLI::App& app, const CalibrateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  if (!options.serving.empty()) {
    return run_calibrate_serving(app, options, catalog);
  }
  if (options.log.empty()) {
    throw UsageError("calibrate needs a measurement: an nccl-tests log (icx calibrate LOG "
                     "--wire ID), or serving benchmark runs (--serving FILE… --model M "
                     "--system ID)");
  }
  const CalibrationReport report = calibration_report(catalog, request_of(options, catalog));
  write_overlay(options, report.misses,
                report.fabric
                    ? "check --scale-out, --nics-per-node, --gpus-per-node and --algo against "
                      "the run"
                    : "check --wire, --algo and --gpus against the run",
                catalog_overlay(report.overlay));
  const Style style = style_of(options.common);
  emit(style, Json(report), "rows", {}, [&] {
    print_table(style, report);
    print_fit(report);
    if (options.output) {
      print_out("overlay written to {} (use it with --catalog {})\n", *options.output,
                *options.output);
    }
  });
  return 0;
}

void add_serving_calibration_options(CLI::App& sub, CalibrateOptions& options) {
  sub.add_option("--serving", options.serving,
                 "Fit a serving engine's time per step and per request to your own benchmark "
                 "runs (vllm bench serve --save-result JSON, SGLang bench_serving JSONL, "
                 "genai-perf's export) on the setup --model, --system, --tp… describe")
      ->type_name("FILE…")
      ->check(input_file("--serving"))
      ->excludes("log");
  add_serving_run_options(sub, options.runs, false);
}

} // namespace

Command setup_calibrate(CLI::App& app) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate",
      "Fit a wire's expected-model latency and efficiency to an nccl-tests log (across "
      "nodes: the scale-out link's)");
  sub->add_option("log", options->log, "nccl-tests output, as the tool printed it")
      ->type_name("FILE")
      ->check(input_file("LOG"));
  sub->add_option("-w,--wire", options->wire,
                  "Link id or alias the log was measured on (inside a node, when it spans nodes)")
      ->type_name("ID");
  add_fabric_options(*sub, options->fabric);
  sub->add_option("-g,--gpus", options->gpus, "GPUs in the run (default: the ranks the log lists)")
      ->type_name("N")
      ->transform(whole_number(min_collective_gpus, limits::max_domain));
  sub->add_option("--op", options->op,
                  "Operation measured (default: the test the log names, else all-reduce)")
      ->type_name("OP")
      ->check(shown_choices(names<Collective>()));
  sub->add_option("--algo", options->algo,
                  "auto: ring on one node (the log shows what NCCL chose, low-latency protocol "
                  "below, Simple above), the fastest of ring, tree and nvls-tree across nodes; "
                  "or ring, tree, nvls-tree, or nvls when NCCL ran in-network reduction")
      ->type_name("ALGO")
      ->check(shown_choices(names<Algorithm>()))
      ->default_str("auto");
  sub->add_option("-o,--output", options->output,
                  "Write the wire's catalog entry with the fitted parameters (a --catalog file)")
      ->type_name("FILE")
      ->check(output_file("-o"));
  sub->add_flag("--force", options->force,
                fmt::format("Write the overlay even when the fit misses its quality bounds "
                            "(median |error| above {:.0f} %, a row off by more than {:.0f} %, or "
                            "the efficiency at its bound of 1)",
                            fit_bounds::max_median_abs_error * 100,
                            fit_bounds::max_row_abs_error * 100));
  add_serving_calibration_options(*sub, *options);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx calibrate all_reduce_perf.log --wire nvlink4 --gpus 8 -o my-nvlink4.json\n"
              "  icx calibrate --serving qps1.json qps4.json --model 70b --system aws-p4d --tp 8 "
              "-o my-vllm.json\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --catalog "
              "my-nvlink4.json\n"
              "  icx calibrate nvls.log --wire nvlink4 --algo nvls --json\n"
              "  icx calibrate two-nodes.log --scale-up nvlink4 --scale-out gcp-tcpxo "
              "--nics-per-node 8 -o my-nic.json");
  return {sub, [sub, options] { return run_calibrate(*sub, *options); }};
}

} // namespace icx::cli
