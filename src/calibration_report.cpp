#include "icx/calibration_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/catalog_json.hpp"
#include "icx/error.hpp"

namespace icx {

namespace {

/// Rows named in the reasons a fit misses its bounds; the rest are counted.
constexpr std::size_t max_rows_listed = 5;

} // namespace

Collective measured_collective(const CalibrationRequest& request) {
  if (request.op) {
    return *request.op;
  }
  if (request.log.test.empty()) {
    return Collective::all_reduce;
  }
  if (const auto op = collective_of_test(request.log.test)) {
    return *op;
  }
  throw InputError(fmt::format("{}: the log is from {}, which icx does not model; known: "
                               "all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                               "alltoall_perf, sendrecv_perf",
                               request.log_name, request.log.test));
}

namespace {

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

std::string rows_beyond_text(const CalibrationReport& report) {
  const std::vector<std::size_t>& beyond = report.quality.rows_beyond;
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < beyond.size() && i < max_rows_listed; ++i) {
    rows.push_back(fmt::format("line {} ({:+.1f} %)", report.lines[beyond[i]],
                               report.fit.samples[beyond[i]].error * 100));
  }
  if (beyond.size() > max_rows_listed) {
    rows.push_back(fmt::format("{} more", beyond.size() - max_rows_listed));
  }
  return fmt::format("{} of {} rows off by more than {:.0f} %: {}", beyond.size(),
                     report.fit.samples.size(), fit_bounds::max_row_abs_error * 100,
                     fmt::join(rows, ", "));
}

/// "median |error| 534.2 % is above 15 %; 5 of 5 rows off by more than 50 %: line 6 …".
std::string misses_of(const CalibrationReport& report) {
  std::vector<std::string> misses;
  if (!report.quality.median_within) {
    misses.push_back(fmt::format("median |error| {:.1f} % is above {:.0f} %",
                                 report.fit.median_abs_error * 100,
                                 fit_bounds::max_median_abs_error * 100));
  }
  if (!report.quality.rows_beyond.empty()) {
    misses.push_back(rows_beyond_text(report));
  }
  if (report.quality.efficiency_at_limit) {
    misses.push_back(fmt::format("the efficiency ran into its bound of 1: the runs moved data as "
                                 "fast as {} GB/s each way allows or faster",
                                 report.link->per_direction_bandwidth.high.value() / giga));
  }
  return fmt::format("{}", fmt::join(misses, "; "));
}

} // namespace

std::optional<Collective> collective_of_test(std::string_view test) {
  if (test.ends_with("_perf")) {
    test.remove_suffix(std::string_view("_perf").size());
  }
  return collective_from_name(test);
}

CalibrationReport calibration_report(const Catalog& catalog, const CalibrationRequest& request) {
  CalibrationReport report;
  report.link = request.link;
  report.log_name = request.log_name;
  report.op = measured_collective(request);
  // A log is fitted as a ring unless nvls is named (calibrate).
  report.algorithm =
      request.algorithm == Algorithm::automatic ? Algorithm::ring : request.algorithm;
  report.gpus = request.gpus;
  if (const Check check = check_algorithm(*request.link, report.op, report.algorithm); !check) {
    throw InputError(check.reason());
  }
  std::vector<TimedSample> samples;
  for (const NcclTestRow& row : request.log.rows) {
    samples.push_back({row.size, row.mean_time()});
    report.lines.push_back(row.line);
  }
  const ExpectedModel prior = prior_for(catalog, *request.link);
  report.fit = calibrate(*request.link, prior, report.op, report.algorithm, report.gpus, samples);
  const std::string fitted = report.fit.regimes == 2
                                 ? "Latency, efficiency, ramp and small-message slowdown (two "
                                   "regimes: LL below, Simple above)"
                                 : "Latency and efficiency";
  const std::string kept =
      report.fit.regimes == 2 ? "" : "; ramp and small-message slowdown from: " + prior.source;
  report.fit.model.source =
      fmt::format("{} calibrated by icx calibrate from {} ({} {} rows over "
                  "{} GPUs, {}){}",
                  fitted, request.log_name, request.log.rows.size(), to_string(report.op),
                  report.gpus, to_string(report.algorithm), kept);
  report.fitted = algorithm_parameters(
      report.fit.model, {report.op, report.algorithm, report.gpus, Bytes::of(1), {}});
  report.quality = fit_quality(report.fit);
  report.misses = report.quality.acceptable() ? "" : misses_of(report);
  report.overlay = *request.link;
  report.overlay.expected = report.fit.model;
  if (report.algorithm == Algorithm::ring && report.overlay.expected->in_network_reduction) {
    // The log holds the fastest NCCL ran at each size; fitted as a ring, it shows that
    // in-network reduction did not run on this cluster, so the overlay does not keep it.
    report.overlay.expected->in_network_reduction.reset();
    report.overlay.expected->source +=
        "; in-network reduction (nvls) dropped: the log's runs are ring (an NVLS log is "
        "calibrated with --algo nvls)";
  }
  return report;
}

namespace {

Json fitted_json(const CalibrationReport& report) {
  const CalibrationResult& fit = report.fit;
  Json fitted = Json::object();
  fitted["efficiency"] = report.fitted.efficiency;
  fitted["efficiency_at_limit"] = fit.efficiency_at_limit;
  fitted["latency_seconds"] = json_number(fit.latency.value());
  if (report.fitted.steps) {
    fitted["step_latency_seconds"] = json_number(fit.model.step_latency.value());
  }
  fitted["ramp_seconds"] = json_number(fit.model.ramp.value());
  fitted["small_message_slowdown"] = fit.model.small_message_slowdown;
  return fitted;
}

Json rows_json(const CalibrationReport& report) {
  Json rows = Json::array();
  for (std::size_t i = 0; i < report.fit.samples.size(); ++i) {
    const SampleFit& s = report.fit.samples[i];
    rows.push_back({{"line", report.lines[i]},
                    {"size_bytes", json_number(s.measured.size.value())},
                    {"measured_seconds", json_number(s.measured.time.value())},
                    {"predicted_seconds", json_number(s.predicted.value())},
                    {"error", s.error}});
  }
  return rows;
}

} // namespace

Json catalog_overlay(const Link& link) {
  // The link in the catalog files' own shape (catalog_json.hpp), every field kept.
  Json doc = json_document(catalog_schema);
  doc[catalog_section<Link>] = Json::array({Json(link)});
  return doc;
}

void to_json(Json& json, const CalibrationReport& report) {
  json = json_document("icx.calibrate/1");
  json["log"] = report.log_name;
  json["wire"] = report.link->id;
  json["op"] = to_string(report.op);
  json["algo"] = to_string(report.algorithm);
  json["gpus"] = report.gpus;
  json["fitted"] = fitted_json(report);
  json["rows"] = rows_json(report);
  json["median_abs_error"] = report.fit.median_abs_error;
  json["regimes"] = report.fit.regimes;
  json["quality"] = {{"max_median_abs_error", fit_bounds::max_median_abs_error},
                     {"max_row_abs_error", fit_bounds::max_row_abs_error},
                     {"acceptable", report.quality.acceptable()},
                     {"misses", report.misses}};
  json["overlay"] = catalog_overlay(report.overlay);
}

} // namespace icx
