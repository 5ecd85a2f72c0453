#include "icx/reports/collective.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/reports/calibration.hpp"
#include "wire/collective_detail.hpp"

namespace icx {

namespace {

bool spans(const Fabric& fabric, int gpus) {
  return gpus > fabric.gpus_per_node;
}

void check(const Fabric& fabric, const CollectiveReportRequest& request) {
  if (request.sizes.empty()) {
    throw InputError("a collective report needs at least one message size");
  }
  if (spans(fabric, request.gpus)) {
    (void)fabric_nodes(fabric, request.gpus);
    if (const Check check =
            check_fabric_algorithm(fabric, request.op, request.algorithm, request.gpus);
        !check) {
      throw InputError(check.reason());
    }
    return;
  }
  const Link& link = *fabric.scale_up;
  if (const Check check = check_algorithm(link, request.op, request.algorithm); !check) {
    throw InputError(check.reason());
  }
  if (request.algorithm == Algorithm::nvls) {
    if (const Check check = check_expected_model(link, request.algorithm); !check) {
      // No parameters: nothing says the link reduces in the network.
      throw InputError(check.reason());
    }
  }
}

CollectiveRow row_at(const Fabric& fabric, const CollectiveRequest& request, bool expected) {
  CollectiveRow row{request.size, fabric_headline(fabric, request), std::nullopt, std::nullopt,
                    std::nullopt};
  if (expected) {
    row.expected = fabric_collective(fabric, request);
    const ExpectedTerms terms = fabric_terms(fabric, request);
    row.terms = ExpectedTimeTerms{terms.latency, terms.bandwidth};
  }
  return row;
}

/// NCCL's lines for the request's algorithm, as latency + S / rate.
ExpectedFormula formula_of(const Fabric& fabric, CollectiveRequest request) {
  const bool across = spans(fabric, request.gpus);
  if (!across) {
    // Inside a node an engine may run its own kernels; the formula shows NCCL's lines. Across
    // nodes NCCL runs anyway, and the fabric's lines follow the implementation's NCCL setup.
    request.algorithm = nccl_algorithm(request);
    request.setup.implementation = Implementation::nccl;
  }
  ExpectedFormula formula;
  ExpectedModel model;
  const int group = std::min(request.gpus, fabric.gpus_per_node);
  if (group >= min_collective_gpus) {
    std::tie(model, formula.topology) = detail::model_for(*fabric.scale_up, request, group);
  }
  if (across) {
    model = *fabric.scale_out->expected;
  }
  for (const ExpectedLine& line : fabric_lines(fabric, model, request)) {
    formula.lines.push_back({line.kernel, line.latency, request.size / line.bandwidth});
  }
  // The full-rate line (the smallest bandwidth term per byte); its terms are linear in S.
  request.size = Bytes::of(1);
  const std::vector<ExpectedLine> unit = fabric_lines(fabric, model, request);
  const ExpectedLine full = *std::ranges::min_element(unit, {}, &ExpectedLine::bandwidth);
  formula.crossover = Bytes::of(full.latency / full.bandwidth);
  return formula;
}

std::vector<std::string> assumptions_of(const CollectiveReport& report) {
  std::vector<std::string> assumptions;
  if (report.expected && report.algorithm == Algorithm::nvls &&
      report.op != Collective::all_reduce) {
    assumptions.push_back(fmt::format(
        "the in-network {} takes the catalog's in-network reduction efficiency and latency, "
        "which published all-reduce runs fixed (in_network_reduction of wire '{}')",
        to_string(report.op), report.link->id));
  }
  if (report.fabric) {
    const Fabric& f = *report.fabric;
    assumptions.push_back(fmt::format(
        "{} nodes of {} GPUs, each with {} NIC{} of wire '{}' that NCCL spreads its channels "
        "over ({})",
        report.nodes, f.gpus_per_node, f.nics_per_node, f.nics_per_node == 1 ? "" : "s",
        f.scale_out->id, Knob::nics_per_node));
    if (report.setup.implementation != Implementation::nccl) {
      assumptions.emplace_back("between nodes NCCL runs the all-reduce: the engines' own "
                               "kernels work inside one node");
    }
  }
  return assumptions;
}

/// The headline formula, headline_factor × S / headline_bandwidth: on one link its traffic at
/// its vendor figure; across nodes the fabric's headline at the node's NICs together (one
/// NIC for a send), its factor read off one size (the headline has no latency, so the time
/// is S times a constant).
void set_headline_formula(const Fabric& fabric, const CollectiveReportRequest& request,
                          CollectiveReport& report) {
  report.headline_convention = report.link->headline_convention;
  if (!report.fabric) {
    report.headline_factor = headline_traffic_factor(request.op, request.gpus);
    report.headline_bandwidth = headline_bandwidth_for(*fabric.scale_up, request.op);
    if (request.op == Collective::point_to_point) {
      report.headline_convention = Convention::each_way;
    }
    return;
  }
  const int nics = request.op == Collective::point_to_point ? 1 : fabric.nics_per_node;
  report.headline_bandwidth = fabric.scale_out->per_direction_bandwidth.high * nics;
  report.headline_convention = Convention::each_way;
  const Bytes size = request.sizes.front();
  const CollectiveRequest one{request.op, request.algorithm, request.gpus, size, request.setup};
  report.headline_factor =
      fabric_headline(fabric, one).time.value() * report.headline_bandwidth.value() / size.value();
}

Check expected_check(const Fabric& fabric, const CollectiveReportRequest& request) {
  if (spans(fabric, request.gpus)) {
    return check_fabric(fabric, request.op, request.algorithm, request.gpus);
  }
  return check_expected_model(*fabric.scale_up, request.algorithm);
}

} // namespace

CollectiveReport collective_report(const Link& link, const CollectiveReportRequest& request) {
  return collective_report(Fabric{&link, request.gpus, nullptr, 1}, request);
}

CollectiveReport collective_report(const Fabric& fabric, const CollectiveReportRequest& request) {
  check(fabric, request);
  CollectiveReport report;
  report.op = request.op;
  report.algorithm = request.algorithm;
  report.setup = request.setup;
  report.gpus = request.gpus;
  report.link = fabric.scale_up;
  if (spans(fabric, request.gpus)) {
    report.fabric = fabric;
    report.nodes = fabric_nodes(fabric, request.gpus);
    report.link = fabric.scale_out;
  }
  report.sweep = request.sizes.size() > 1;
  set_headline_formula(fabric, request, report);
  report.busbw_factor = busbw_factor(request.op, request.gpus);
  report.expected_model = expected_check(fabric, request);
  CollectiveRequest one{request.op, request.algorithm, request.gpus, request.sizes.front(),
                        request.setup};
  if (report.expected_model) {
    report.expected = formula_of(fabric, one);
  }
  for (const Bytes size : request.sizes) {
    one.size = size;
    report.rows.push_back(row_at(fabric, one, report.expected.has_value()));
  }
  report.assumptions = assumptions_of(report);
  return report;
}

void attach_measured(CollectiveReport& report, const NcclTestLog& log, const std::string& origin) {
  if (!log.test.empty()) {
    const std::optional<Collective> op = collective_of_test(log.test);
    if (op != report.op) {
      throw InputError(fmt::format("{}: is a {} run; it measures {}, not {}", origin, log.test,
                                   op ? to_string(*op) : "an operation icx does not model",
                                   to_string(report.op)));
    }
  }
  if (log.ranks && *log.ranks != report.gpus) {
    throw InputError(fmt::format("{}: lists {} ranks, and the command prices {} GPUs; give {} {}",
                                 origin, *log.ranks, report.gpus, Knob::gpus, *log.ranks));
  }
  report.measured_from = origin;
  report.measured_points.clear();
  for (const NcclTestRow& row : log.rows) {
    const Seconds time = row.mean_time();
    // nccl-tests: algbw = S / time, busbw = algbw × the operation's factor.
    const BytesPerSecond algbw = row.size / time;
    report.measured_points.emplace_back(
        row.size, CollectiveCost{time, algbw, algbw * report.busbw_factor, std::nullopt, nullptr});
  }
  for (CollectiveRow& row : report.rows) {
    const auto match = std::ranges::find_if(
        report.measured_points, [&](const auto& point) { return point.first == row.size; });
    row.measured =
        match != report.measured_points.end() ? std::optional(match->second) : std::nullopt;
  }
}

namespace {

Json cost_json(const CollectiveCost& cost) {
  Json json = Json::object();
  json["seconds"] = json_number(cost.time.value());
  json["algbw_bytes_per_s"] = json_number(cost.algbw.value());
  json["busbw_bytes_per_s"] = json_number(cost.busbw.value());
  put_route(json, cost.kernel, cost.topology);
  return json;
}

Json expected_json(const CollectiveRow& row) {
  return row.expected ? cost_json(*row.expected) : Json(nullptr);
}

Json row_json(const CollectiveRow& row) {
  Json json = Json::object();
  json["size_bytes"] = json_number(row.size.value());
  json["headline"] = cost_json(row.headline);
  json["expected"] = expected_json(row);
  return json;
}

Json measured_json(const CollectiveRow& row) {
  return row.measured ? cost_json(*row.measured) : Json(nullptr);
}

} // namespace

void put_route(Json& json, std::optional<Kernel> kernel, const LinkTopology* topology) {
  if (kernel) {
    json["algo"] = kernel_algorithm(*kernel);
    const std::optional<Protocol> protocol = kernel_protocol(*kernel);
    json["protocol"] = protocol ? Json(to_string(*protocol)) : Json(nullptr);
  }
  if (topology != nullptr) {
    json["topology"] = topology->id;
  }
}

Json collective_row_json(const CollectiveReport& report, const CollectiveRow& row) {
  Json json = row_json(row);
  if (!report.measured_from.empty()) {
    json["measured"] = measured_json(row);
  }
  return json;
}

Json collective_frame(const CollectiveReport& report) {
  Json json = json_document("icx.collective/1");
  json["op"] = to_string(report.op);
  json["gpus"] = report.gpus;
  if (!report.sweep) {
    json["size_bytes"] = json_number(report.rows.front().size.value());
  }
  json["wire"] = report.link->id;
  if (report.fabric) {
    const Fabric& f = *report.fabric;
    json["fabric"] = {{"nodes", report.nodes},
                      {"gpus_per_node", f.gpus_per_node},
                      {"scale_up", f.gpus_per_node > 1 ? Json(f.scale_up->id) : Json(nullptr)},
                      {"scale_out", f.scale_out->id},
                      {"nics_per_node", f.nics_per_node}};
  }
  // One size: the algorithm that ran; a sweep: the one asked for (each row names its own).
  const std::optional<CollectiveCost>& single = report.rows.front().expected;
  json["algo"] =
      !report.sweep && single ? kernel_algorithm(*single->kernel) : to_string(report.algorithm);
  json["algo_requested"] = to_string(report.algorithm);
  json["impl"] = to_string(report.setup.implementation);
  if (report.expected && report.expected->topology) {
    json["topology"] = report.expected->topology->id;
  }
  if (!report.sweep) {
    json["headline"] = cost_json(report.rows.front().headline);
    json["expected"] = expected_json(report.rows.front());
  }
  if (!report.measured_from.empty()) {
    json["measured_from"] = report.measured_from;
  }
  json["rows"] = Json::array();
  json["crossover_bytes"] =
      report.expected ? json_number(report.expected->crossover.value()) : Json(nullptr);
  if (!report.expected_model) {
    json["expected_unavailable"] = report.expected_model.reason();
  }
  if (!report.assumptions.empty()) {
    json["assumptions"] = report.assumptions;
  }
  return json;
}

void to_json(Json& json, const CollectiveReport& report) {
  json = collective_frame(report);
  Json& rows = json["rows"];
  for (const CollectiveRow& row : report.rows) {
    rows.push_back(collective_row_json(report, row));
  }
}

} // namespace icx
