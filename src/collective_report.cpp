#include "icx/collective_report.hpp"

#include <fmt/format.h>

#include "icx/error.hpp"

namespace icx {

namespace {

void check(const Link& link, const CollectiveReportRequest& request) {
  if (const Check check = check_algorithm(link, request.op, request.algorithm); !check) {
    throw InputError(check.reason());
  }
  if (request.algorithm == Algorithm::nvls) {
    if (const Check check = check_expected_model(link, request.algorithm); !check) {
      // No parameters: nothing says the link reduces in the network.
      throw InputError(check.reason());
    }
  }
  if (request.sizes.empty()) {
    throw InputError("a collective report needs at least one message size");
  }
}

CollectiveRow row_at(const Link& link, const CollectiveRequest& request, bool expected) {
  CollectiveRow row{request.size, headline_collective(link, request), std::nullopt, std::nullopt};
  if (expected) {
    row.expected = expected_collective(link, request);
    const ExpectedTerms terms = expected_terms(link, request);
    row.terms = ExpectedTimeTerms{terms.latency, terms.bandwidth};
  }
  return row;
}

/// NCCL's lines for the request's algorithm, as latency + S / rate.
ExpectedFormula formula_of(const Link& link, CollectiveRequest request) {
  request.algorithm = nccl_algorithm(request);
  request.setup.implementation = Implementation::nccl;
  ExpectedFormula formula;
  formula.topology = link_topology(link, request.setup.topology, request.gpus);
  const ExpectedModel model = with_topology(*link.expected, formula.topology);
  for (const ExpectedLine& line : expected_lines(link, model, request)) {
    formula.lines.push_back({line.kernel, line.latency, request.size / line.bandwidth});
  }
  formula.crossover = *crossover_size(link, request);
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
  return assumptions;
}

} // namespace

CollectiveReport collective_report(const Link& link, const CollectiveReportRequest& request) {
  check(link, request);
  CollectiveReport report;
  report.op = request.op;
  report.algorithm = request.algorithm;
  report.setup = request.setup;
  report.gpus = request.gpus;
  report.link = &link;
  report.sweep = request.sizes.size() > 1;
  report.headline_factor = headline_traffic_factor(request.op);
  report.headline_bandwidth = link.headline_bandwidth.high;
  report.headline_convention = link.headline_convention;
  report.busbw_factor = busbw_factor(request.op, request.gpus);
  report.expected_model = check_expected_model(link, request.algorithm);
  CollectiveRequest one{request.op, request.algorithm, request.gpus, request.sizes.front(),
                        request.setup};
  if (report.expected_model) {
    report.expected = formula_of(link, one);
  }
  for (const Bytes size : request.sizes) {
    one.size = size;
    report.rows.push_back(row_at(link, one, report.expected.has_value()));
  }
  report.assumptions = assumptions_of(report);
  return report;
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

void to_json(Json& json, const CollectiveReport& report) {
  json = json_document("icx.collective/1");
  json["op"] = to_string(report.op);
  json["gpus"] = report.gpus;
  if (!report.sweep) {
    json["size_bytes"] = json_number(report.rows.front().size.value());
  }
  json["wire"] = report.link->id;
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
  Json rows = Json::array();
  for (const CollectiveRow& row : report.rows) {
    rows.push_back(row_json(row));
  }
  json["rows"] = std::move(rows);
  json["crossover_bytes"] =
      report.expected ? json_number(report.expected->crossover.value()) : Json(nullptr);
  if (!report.expected_model) {
    json["expected_unavailable"] = report.expected_model.reason();
  }
  if (!report.assumptions.empty()) {
    json["assumptions"] = report.assumptions;
  }
}

} // namespace icx
