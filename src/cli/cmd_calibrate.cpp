// icx calibrate: fits a link's expected-model latency and efficiency to an nccl-tests log and
// writes a catalog overlay, so the user's own measurements drive every other command.
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/calibration.hpp"
#include "icx/collectives.hpp"
#include "icx/limits.hpp"
#include "icx/nccl_log.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text_file.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"

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

/// Rows named in a refusal; the rest are counted.
constexpr std::size_t max_rows_listed = 5;

/// The operation: --op, else the test the log names ("all_reduce_perf"), else all-reduce.
Collective choose_op(const CalibrateOptions& options, const NcclTestLog& log) {
  if (!options.op.empty()) {
    if (const auto op = collective_from_name(options.op)) {
      return *op;
    }
    throw UsageError(fmt::format("--op: unknown operation '{}'; known: all-reduce, all-gather, "
                                 "reduce-scatter, all-to-all, point-to-point",
                                 options.op));
  }
  if (log.test.empty()) {
    return Collective::all_reduce;
  }
  std::string name = log.test;
  if (name.ends_with("_perf")) {
    name.resize(name.size() - 5);
  }
  if (const auto op = collective_from_name(name)) {
    return *op;
  }
  throw UsageError(fmt::format("{}: the log is from {}, which icx does not model; known: "
                               "all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                               "alltoall_perf, sendrecv_perf",
                               options.log, log.test));
}

int choose_gpus(const CalibrateOptions& options, const NcclTestLog& log) {
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

/// The shared ramp parameters: the link's own, else those of the first link that has them.
const ExpectedModel& prior_for(const Catalog& catalog, const Link& link) {
  if (link.expected) {
    return *link.expected;
  }
  for (const Link& other : catalog.links()) {
    if (other.expected) {
      return *other.expected;
    }
  }
  throw InputError("no link in the catalog has expected-model parameters to take the shared "
                   "ramp from");
}

/// A catalog figure as the catalog writes it: one number, or [low, high].
template <class Q> Json catalog_range(const Range<Q>& range, double unit) {
  if (!range.is_range()) {
    return json_number(range.low.value() / unit);
  }
  return Json::array(
      {json_number(range.low.value() / unit), json_number(range.high.value() / unit)});
}

/// The link's catalog entry with the fitted expected model: a file --catalog accepts.
Json overlay(const Link& link, const ExpectedModel& model) {
  Json entry = Json::object();
  entry["id"] = link.id;
  entry["name"] = link.name;
  if (!link.aliases.empty()) {
    entry["aliases"] = link.aliases;
  }
  entry["connects"] = link.connects;
  entry["tier"] = to_string(link.tier);
  entry["headline_GBps"] = catalog_range(link.headline_bandwidth, giga);
  entry["headline_convention"] = to_string(link.headline_convention);
  entry["per_direction_GBps"] = catalog_range(link.per_direction_bandwidth, giga);
  entry["latency_us"] = catalog_range(link.latency, micro);
  if (link.measured_host_to_device) {
    entry["host_to_device_GBps"] = link.measured_host_to_device->value() / giga;
  }
  entry["source"] = link.source;
  Json expected = Json::object();
  expected["efficiency"] = model.efficiency;
  expected["step_latency_us"] = model.step_latency.value() / micro;
  expected["ramp_us"] = model.ramp.value() / micro;
  expected["small_message_slowdown"] = model.small_message_slowdown;
  if (model.in_network_reduction) {
    expected["in_network_reduction"] = {
        {"efficiency", model.in_network_reduction->efficiency},
        {"latency_us", model.in_network_reduction->latency.value() / micro}};
  }
  expected["source"] = model.source;
  entry["expected"] = std::move(expected);
  Json doc = Json::object();
  doc["links"] = Json::array({std::move(entry)});
  return doc;
}

/// "median |error| 534.2 % is above 15 %; 5 of 5 rows off by more than 50 %: line 6 …".
std::string describe_misses(const FitQuality& quality, const CalibrationResult& fit,
                            const NcclTestLog& log, const Link& link) {
  std::vector<std::string> misses;
  if (!quality.median_within) {
    misses.push_back(fmt::format("median |error| {:.1f} % is above {:.0f} %",
                                 fit.median_abs_error * 100,
                                 fit_bounds::max_median_abs_error * 100));
  }
  if (!quality.rows_beyond.empty()) {
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < quality.rows_beyond.size() && i < max_rows_listed; ++i) {
      const std::size_t row = quality.rows_beyond[i];
      rows.push_back(
          fmt::format("line {} ({:+.1f} %)", log.rows[row].line, fit.samples[row].error * 100));
    }
    if (quality.rows_beyond.size() > max_rows_listed) {
      rows.push_back(fmt::format("{} more", quality.rows_beyond.size() - max_rows_listed));
    }
    misses.push_back(fmt::format("{} of {} rows off by more than {:.0f} %: {}",
                                 quality.rows_beyond.size(), fit.samples.size(),
                                 fit_bounds::max_row_abs_error * 100, fmt::join(rows, ", ")));
  }
  if (quality.efficiency_at_limit) {
    misses.push_back(fmt::format("the efficiency ran into its bound of 1: the runs moved data as "
                                 "fast as {} each way allows or faster",
                                 format_rate(link.per_direction_bandwidth.high)));
  }
  return fmt::format("{}", fmt::join(misses, "; "));
}

/// Every file the overlay was computed from: -o must not replace one of them.
std::vector<std::filesystem::path> inputs_of(const CalibrateOptions& options) {
  std::vector<std::filesystem::path> inputs{options.log};
  inputs.insert(inputs.end(), options.common.catalogs.begin(), options.common.catalogs.end());
  return inputs;
}

/// Writes the overlay when -o was given and the fit meets its bounds (or --force); a fit
/// that misses them is said on stderr either way.
void write_overlay(const CalibrateOptions& options, const Json& document,
                   const std::string& misses) {
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
    write_text_file_atomically(*options.output, document.dump(2) + "\n", inputs_of(options));
  } catch (const InputError& error) {
    throw InputError(fmt::format("-o{}{}", options.output->empty() ? ": " : " ", error.what()));
  }
}

int run_calibrate(const CalibrateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const Link& link =
      for_flag("--wire", [&]() -> const Link& { return catalog.link(options.wire); });
  const auto algorithm = algorithm_from_name(options.algo);
  if (!algorithm) {
    throw UsageError(
        fmt::format("--algo: unknown algorithm '{}'; known: ring, nvls", options.algo));
  }
  const NcclTestLog log = parse_nccl_test_log(
      read_text_file(options.log, {"an nccl-tests log file", limits::max_nccl_log_file_bytes}),
      options.log);
  const Collective op = choose_op(options, log);
  if (const auto reason = algorithm_unsupported_reason(link, op, *algorithm)) {
    throw UsageError(fmt::format("--algo {}: {}; use --algo ring", to_string(*algorithm), *reason));
  }
  const int gpus = choose_gpus(options, log);
  std::vector<TimedSample> samples;
  for (const NcclTestRow& row : log.rows) {
    samples.push_back({row.size, row.mean_time()});
  }
  ExpectedModel prior = prior_for(catalog, link);
  prior.source = fmt::format("Latency and efficiency calibrated by icx calibrate from {} ({} {} "
                             "rows over {} GPUs, {}); ramp and small-message slowdown from: {}",
                             options.log, log.rows.size(), to_string(op), gpus,
                             to_string(*algorithm), prior.source);
  const CalibrationResult fit = calibrate(link, prior, op, *algorithm, gpus, samples);
  const Json overlay_doc = overlay(link, fit.model);
  const FitQuality quality = fit_quality(fit);
  const std::string misses = quality.acceptable() ? "" : describe_misses(quality, fit, log, link);

  const bool nvls = *algorithm == Algorithm::nvls;
  const double efficiency =
      nvls ? fit.model.in_network_reduction->efficiency : fit.model.efficiency;
  const Style style = style_of(options.common);
  if (style.format != Format::table) {
    Json doc = json_document("icx.calibrate/1");
    doc["log"] = options.log;
    doc["wire"] = link.id;
    doc["op"] = to_string(op);
    doc["algo"] = to_string(*algorithm);
    doc["gpus"] = gpus;
    Json fitted = Json::object();
    fitted["efficiency"] = efficiency;
    fitted["efficiency_at_limit"] = fit.efficiency_at_limit;
    fitted["latency_seconds"] = json_number(fit.latency.value());
    if (!nvls) {
      fitted["step_latency_seconds"] = json_number(fit.model.step_latency.value());
    }
    fitted["ramp_seconds"] = json_number(fit.model.ramp.value());
    fitted["small_message_slowdown"] = fit.model.small_message_slowdown;
    doc["fitted"] = std::move(fitted);
    Json rows = Json::array();
    for (std::size_t i = 0; i < fit.samples.size(); ++i) {
      const SampleFit& s = fit.samples[i];
      rows.push_back({{"line", log.rows[i].line},
                      {"size_bytes", json_number(s.measured.size.value())},
                      {"measured_seconds", json_number(s.measured.time.value())},
                      {"predicted_seconds", json_number(s.predicted.value())},
                      {"error", s.error}});
    }
    doc["rows"] = std::move(rows);
    doc["median_abs_error"] = fit.median_abs_error;
    doc["quality"] = {{"max_median_abs_error", fit_bounds::max_median_abs_error},
                      {"max_row_abs_error", fit_bounds::max_row_abs_error},
                      {"acceptable", quality.acceptable()},
                      {"misses", misses}};
    doc["overlay"] = overlay_doc;
    write_overlay(options, overlay_doc, misses);
    emit(style, std::move(doc), "rows", {}, [] {});
    return 0;
  }
  write_overlay(options, overlay_doc, misses);
  print_out("{} over {} GPUs on {} [{}], {}: {} rows from {}\n\n", to_string(op), gpus, link.name,
            link.id, to_string(*algorithm), log.rows.size(), options.log);
  TextTable table({{"line", Align::right},
                   {"size (B)", Align::right},
                   {"measured", Align::right},
                   {"fitted", Align::right},
                   {"error", Align::right}});
  for (std::size_t i = 0; i < fit.samples.size(); ++i) {
    const SampleFit& s = fit.samples[i];
    table.add_row({std::to_string(log.rows[i].line), fmt::format("{:.0f}", s.measured.size.value()),
                   format_seconds(s.measured.time), format_seconds(s.predicted),
                   fmt::format("{:+.1f} %", s.error * 100)});
  }
  print_out("{}\n", table.render());
  print_out("fitted: latency {}{}, efficiency {:.3g} of {} each way; ramp {} and small-message "
            "slowdown {:.3g} kept from the catalog\n",
            format_seconds(fit.latency),
            nvls ? std::string()
                 : fmt::format(" ({} ring steps × {})", ring_steps(op, gpus),
                               format_seconds(fit.model.step_latency)),
            efficiency, format_rate(link.per_direction_bandwidth.high),
            format_seconds(fit.model.ramp), fit.model.small_message_slowdown);
  if (fit.efficiency_at_limit) {
    print_out("warning: the fit hit the efficiency limit of 1: the measured runs moved data faster "
              "than {} each way allows; the log is probably from a faster wire than '{}'\n",
              format_rate(link.per_direction_bandwidth.high), link.id);
  }
  print_out("median |error| {:.1f} %; measured time = mean of the out-of-place and in-place "
            "columns; fit = least squares on relative time error\n",
            fit.median_abs_error * 100);
  if (options.output) {
    print_out("overlay written to {} (use it with --catalog {})\n", *options.output,
              *options.output);
  }
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
  sub->add_option("--algo", options->algo, "ring, or nvls when NCCL ran in-network reduction")
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
