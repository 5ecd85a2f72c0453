#include "icx/reports/calibration.hpp"

#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/catalog/json.hpp"

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

std::optional<int> log_gpus_per_node(const NcclTestLog& log, const std::string& log_name,
                                     std::optional<int> given) {
  const std::optional<int> per_host = ranks_per_host(log, log_name);
  if (!per_host) {
    return std::nullopt;
  }
  if (given && *given % *per_host != 0) {
    throw InputError(fmt::format("{} {} contradicts {}: its hosts run {} ranks each, "
                                 "and a node holds whole hosts",
                                 Knob::gpus_per_node, *given, log_name, *per_host));
  }
  if (*log.ranks == *per_host) {
    return std::nullopt; // one host
  }
  return per_host;
}

std::optional<Collective> collective_of_test(std::string_view test) {
  if (test.ends_with("_perf")) {
    test.remove_suffix(std::string_view("_perf").size());
  }
  return collective_from_name(test);
}

namespace {

/// "2 nodes of 8 GPUs on nvlink4, 8 gcp-tcpxo NICs each".
std::string fabric_text(const CalibrationReport& report) {
  const Fabric& fabric = *report.fabric;
  return fmt::format("{} nodes of {} GPUs on {}, {} {} NICs each", report.nodes,
                     fabric.gpus_per_node, fabric.scale_up->id, fabric.nics_per_node,
                     fabric.scale_out->id);
}

/// The fitted model's source: what was fitted, from which rows, and where the rest comes from.
std::string fit_source(const CalibrationReport& report, const CalibrationRequest& request,
                       const ExpectedModel& prior) {
  const bool two = report.fit.regimes == 2;
  const std::string fitted = two ? "Latency, efficiency, ramp and small-message slowdown (two "
                                   "regimes: LL below, Simple above)"
                                 : "Latency and efficiency";
  const std::string kept = two ? "" : "; ramp and small-message slowdown from: " + prior.source;
  const std::string over = report.fabric
                               ? fmt::format("{} GPUs across {}", report.gpus, fabric_text(report))
                               : fmt::format("{} GPUs", report.gpus);
  return fmt::format("{} calibrated by icx calibrate from {} ({} {} rows over {}, {}){}", fitted,
                     request.log_name, request.log.rows.size(), to_string(report.op), over,
                     to_string(report.algorithm), kept);
}

CalibrationResult fit_of(const CalibrationReport& report, const ExpectedModel& prior,
                         std::span<const TimedSample> samples) {
  if (report.fabric) {
    return calibrate_fabric(*report.fabric, prior, report.op, report.algorithm, report.gpus,
                            samples);
  }
  if (const Check check = check_algorithm(*report.link, report.op, report.algorithm); !check) {
    throw InputError(check.reason());
  }
  return calibrate(*report.link, prior, report.op, report.algorithm, report.gpus, samples);
}

/// The fitted parameters as the algorithm uses them.
AlgorithmParameters fitted_parameters(const CalibrationReport& report) {
  if (report.fabric) {
    const ExpectedModel& model = report.fit.model;
    return {report.fit.steps, model.step_latency, report.fit.latency, model.efficiency};
  }
  return algorithm_parameters(report.fit.model,
                              {report.op, report.algorithm, report.gpus, Bytes::of(1), {}});
}

Link overlay_of(const CalibrationReport& report) {
  Link overlay = *report.link;
  overlay.expected = report.fit.model;
  if (report.algorithm == Algorithm::ring && overlay.expected->in_network_reduction) {
    // The log holds the fastest NCCL ran at each size; fitted as a ring, it shows that
    // in-network reduction did not run on this cluster, so the overlay does not keep it.
    overlay.expected->in_network_reduction.reset();
    overlay.expected->source += fmt::format(
        "; in-network reduction (nvls) dropped: the log's runs are ring (an NVLS log is "
        "calibrated with {} nvls)",
        Knob::algo);
  }
  return overlay;
}

} // namespace

CalibrationReport calibration_report(const Catalog& catalog, const CalibrationRequest& request) {
  CalibrationReport report;
  report.link = request.fabric ? request.fabric->scale_out : request.link;
  report.log_name = request.log_name;
  report.op = measured_collective(request);
  report.fabric = request.fabric;
  report.nodes = request.fabric ? fabric_nodes(*request.fabric, request.gpus) : 1;
  // On one link a log is fitted as a ring unless nvls is named (calibrate); across nodes as
  // asked, automatic being the fastest of NCCL's algorithms.
  report.algorithm = request.algorithm == Algorithm::automatic && !request.fabric
                         ? Algorithm::ring
                         : request.algorithm;
  report.gpus = request.gpus;
  std::vector<TimedSample> samples;
  for (const NcclTestRow& row : request.log.rows) {
    samples.push_back({row.size, row.mean_time()});
    report.lines.push_back(row.line);
  }
  const ExpectedModel prior = prior_for(catalog, *report.link);
  report.fit = fit_of(report, prior, samples);
  report.fit.model.source = fit_source(report, request, prior);
  report.fitted = fitted_parameters(report);
  if (report.fabric) {
    report.median_abs_error_large =
        median_abs_error_from(report.fit, Bytes::of(large_message_bytes));
  }
  report.quality = fit_quality(report.fit);
  report.misses = report.quality.acceptable() ? "" : misses_of(report);
  report.overlay = overlay_of(report);
  return report;
}

std::string fit_subject(const CalibrationReport& report) {
  const Link& link = *report.link;
  if (!report.fabric) {
    return fmt::format("{} over {} GPUs on {} [{}], {}", to_string(report.op), report.gpus,
                       link.name, link.id, to_string(report.algorithm));
  }
  const Fabric& fabric = *report.fabric;
  return fmt::format("{} over {} GPUs, {}: the scale-out link {} [{}] fitted across {} nodes of "
                     "{} GPUs ({} inside) with {} NICs each",
                     to_string(report.op), report.gpus, to_string(report.algorithm), link.name,
                     link.id, report.nodes, fabric.gpus_per_node, fabric.scale_up->id,
                     fabric.nics_per_node);
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
  if (report.fabric) {
    json["fabric"] = {{"nodes", report.nodes},
                      {"gpus_per_node", report.fabric->gpus_per_node},
                      {"scale_up", report.fabric->scale_up->id},
                      {"scale_out", report.fabric->scale_out->id},
                      {"nics_per_node", report.fabric->nics_per_node}};
  }
  json["fitted"] = fitted_json(report);
  json["rows"] = rows_json(report);
  json["median_abs_error"] = report.fit.median_abs_error;
  if (report.fabric) {
    // large_message_bytes is 16 MiB.
    json["median_abs_error_from_16MiB"] =
        report.median_abs_error_large ? Json(*report.median_abs_error_large) : Json(nullptr);
  }
  json["regimes"] = report.fit.regimes;
  json["quality"] = {{"max_median_abs_error", fit_bounds::max_median_abs_error},
                     {"max_row_abs_error", fit_bounds::max_row_abs_error},
                     {"acceptable", report.quality.acceptable()},
                     {"misses", report.misses}};
  json["overlay"] = catalog_overlay(report.overlay);
}

} // namespace icx
