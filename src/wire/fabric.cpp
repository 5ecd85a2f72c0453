// The expected model across nodes: NCCL's ring, tree and NVLS-tree between nodes (the
// formulas are at the top of icx/wire/fabric.hpp).
#include "icx/wire/fabric.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/group_rules.hpp"
#include "wire/collective_detail.hpp"

namespace icx {

namespace {

/// What one line across nodes needs: both links' models and the group's shape.
struct Span {
  const Fabric& fabric;
  const ExpectedModel& out;
  /// The scale-up link's model with its topology; absent with one GPU per node.
  std::optional<ExpectedModel> up;
  const LinkTopology* topology = nullptr;
  int gpus = 0;
  int g = 0;
  int nodes = 0;
  Bytes size;

  /// Time of `bytes` through the node's NICs together.
  [[nodiscard]] Seconds nics(double bytes) const {
    return Bytes::of(bytes) / (fabric.scale_out->per_direction_bandwidth.high *
                               (out.efficiency * fabric.nics_per_node));
  }
  /// Time of `bytes` through one GPU's scale-up links to the node's other `g` GPUs of the
  /// group at `efficiency` (none with one GPU per node: nothing moves inside a node).
  [[nodiscard]] Seconds gpu_link(double bytes, double efficiency) const {
    if (!up) {
      return Seconds{};
    }
    return Bytes::of(bytes) / (group_bandwidth(*fabric.scale_up, g) * efficiency);
  }
  /// Time of `bytes` through one GPU's scale-up link at its ring efficiency.
  [[nodiscard]] Seconds ring_link(double bytes) const {
    return up ? gpu_link(bytes, up->efficiency) : Seconds{};
  }
  /// ⌈log2 N⌉: the levels of a binary tree over the nodes.
  [[nodiscard]] double tree_levels() const { return std::ceil(std::log2(nodes)); }
  [[nodiscard]] Seconds intra_step() const { return up ? up->step_latency : Seconds{}; }
};

/// An LL and a Simple line with the scale-out link's protocol figures.
void add_protocol_lines(const Span& s, Kernel ll, Kernel simple, Seconds latency, Seconds tb,
                        std::vector<ExpectedLine>& lines) {
  lines.push_back({ll, latency, tb * (1.0 + s.out.small_message_slowdown)});
  lines.push_back({simple, latency + s.out.ramp, tb});
}

void add_ring(const Span& s, Collective op, std::vector<ExpectedLine>& lines) {
  const std::int64_t steps = ring_steps(op, s.gpus);
  const std::int64_t inter = op == Collective::all_reduce ? 2 * (s.nodes - 1) : s.nodes - 1;
  const Seconds latency = s.intra_step() * static_cast<double>(steps - inter) +
                          s.out.step_latency * static_cast<double>(inter);
  const double bytes = s.size.value() * wire_factor(op, Algorithm::ring, s.gpus);
  const Seconds tb = std::max(s.nics(bytes), s.ring_link(bytes));
  add_protocol_lines(s, Kernel::ring_ll, Kernel::ring_simple, latency, tb, lines);
}

/// Bytes a node's NICs carry each way per byte of S in the double binary tree: 2S, as an
/// inner node of one tree receives from two children. With two nodes each is the root of
/// one tree and a leaf of the other, S each way; NCCL's tuner counts that only for
/// NVLSTree (tuning.cc doubles its inter-node bandwidth up to two nodes), and published
/// two-node runs without NVLS stay at the ring's NIC bound (nccl-tests issue 100).
double tree_nic_factor(int nodes, bool nvls) {
  return nvls && nodes == 2 ? 1.0 : 2.0;
}

void add_tree(const Span& s, std::vector<ExpectedLine>& lines) {
  const Seconds latency =
      2.0 * (s.intra_step() * static_cast<double>(s.g - 1) + s.out.step_latency * s.tree_levels());
  const double size = s.size.value();
  const Seconds tb =
      std::max(s.nics(size * tree_nic_factor(s.nodes, false)), s.ring_link(2.0 * size));
  add_protocol_lines(s, Kernel::tree_ll, Kernel::tree_simple, latency, tb, lines);
}

void add_nvls_tree(const Span& s, std::vector<ExpectedLine>& lines) {
  const InNetworkReduction& nvls = *s.up->in_network_reduction;
  const Collective op = Collective::all_reduce;
  const double size = s.size.value();
  const double intra_bytes = size * wire_factor(op, Algorithm::nvls, s.g) *
                             busbw_factor(op, s.gpus) / busbw_factor(op, s.g);
  const Seconds tb = std::max(s.nics(size * tree_nic_factor(s.nodes, true)),
                              s.gpu_link(intra_bytes, nvls.efficiency));
  const Seconds latency = nvls.latency + 2.0 * s.out.step_latency * s.tree_levels() + s.out.ramp;
  lines.push_back({Kernel::nvls_tree_simple, latency, tb});
}

void add_all_to_all(const Span& s, std::vector<ExpectedLine>& lines) {
  const double n = s.gpus;
  const double size = s.size.value();
  const Seconds tb =
      std::max(s.nics(s.g * (n - s.g) / n * size), s.ring_link((s.g - 1) / n * size));
  const Seconds latency = s.intra_step() * static_cast<double>(s.g - 1) +
                          s.out.step_latency * static_cast<double>(s.gpus - s.g);
  add_protocol_lines(s, Kernel::ring_ll, Kernel::ring_simple, latency, tb, lines);
}

void add_point_to_point(const Span& s, std::vector<ExpectedLine>& lines) {
  // One rail: a single NIC, whatever the node has.
  const Seconds tb = Bytes::of(s.size.value()) /
                     (s.fabric.scale_out->per_direction_bandwidth.high * s.out.efficiency);
  add_protocol_lines(s, Kernel::ring_ll, Kernel::ring_simple, s.out.step_latency, tb, lines);
}

bool nvls_tree_runs(const Fabric& fabric, Collective op) {
  return op == Collective::all_reduce && fabric.gpus_per_node >= min_collective_gpus &&
         fabric.scale_up->expected && fabric.scale_up->expected->in_network_reduction &&
         check_algorithm(*fabric.scale_up, op, Algorithm::nvls).has_value();
}

void check_span(const Fabric& fabric, const CollectiveRequest& request) {
  detail::check_collective_request(*fabric.scale_out, request);
  if (const Check check = check_fabric(fabric, request.op, request.algorithm, request.gpus);
      !check) {
    throw InputError(check.reason());
  }
}

/// The span without the scale-up link's model.
Span span_of_models(const Fabric& fabric, const ExpectedModel& out,
                    const CollectiveRequest& request) {
  return {fabric,
          out,
          std::nullopt,
          nullptr,
          request.gpus,
          fabric.gpus_per_node,
          fabric_nodes(fabric, request.gpus),
          request.size};
}

Span span_of(const Fabric& fabric, const ExpectedModel& out, const CollectiveRequest& request) {
  Span s = span_of_models(fabric, out, request);
  if (s.g >= min_collective_gpus) {
    std::tie(s.up, s.topology) = detail::model_for(*fabric.scale_up, request, s.g);
  }
  return s;
}

std::vector<ExpectedLine> lines_across(const Span& s, const CollectiveRequest& request) {
  std::vector<ExpectedLine> lines;
  const Algorithm algorithm = request.algorithm;
  switch (request.op) {
  case Collective::all_to_all:
    add_all_to_all(s, lines);
    return lines;
  case Collective::point_to_point:
    add_point_to_point(s, lines);
    return lines;
  default:
    break;
  }
  const bool automatic = algorithm == Algorithm::automatic;
  if (automatic || algorithm == Algorithm::ring) {
    add_ring(s, request.op, lines);
  }
  if (request.op == Collective::all_reduce && (automatic || algorithm == Algorithm::tree)) {
    add_tree(s, lines);
  }
  if ((automatic && nccl_runs_nvls(request.setup.implementation) &&
       nvls_tree_runs(s.fabric, request.op)) ||
      algorithm == Algorithm::nvls_tree) {
    add_nvls_tree(s, lines);
  }
  return lines;
}

bool one_node(const Fabric& fabric, int gpus) {
  return gpus <= fabric.gpus_per_node;
}

} // namespace

int fabric_nodes(const Fabric& fabric, int gpus) {
  if (fabric.gpus_per_node < 1 || fabric.nics_per_node < 1) {
    throw InputError(fmt::format("a node needs at least one GPU and one NIC (given {} and {})",
                                 fabric.gpus_per_node, fabric.nics_per_node));
  }
  return node_count(gpus, fabric.gpus_per_node);
}

Check check_fabric_algorithm(const Fabric& fabric, Collective op, Algorithm algorithm, int gpus) {
  if (one_node(fabric, gpus)) {
    return check_algorithm(*fabric.scale_up, op, algorithm);
  }
  if (algorithm == Algorithm::nvls) {
    return unexpected(fmt::format("nvls reduces inside one node's switch, and {} GPUs span "
                                  "nodes of {}; across nodes use nvls-tree",
                                  gpus, fabric.gpus_per_node));
  }
  if (spans_nodes(algorithm) && op != Collective::all_reduce) {
    return unexpected(fmt::format("{} performs all-reduce only, not {}; use ring",
                                  to_string(algorithm), to_string(op)));
  }
  if (algorithm == Algorithm::nvls_tree && !nvls_tree_runs(fabric, op)) {
    if (fabric.gpus_per_node < min_collective_gpus) {
      return unexpected("nvls-tree reduces inside each node first, and each node holds one GPU "
                        "of the group; use tree or ring");
    }
    return unexpected(fmt::format("nvls-tree needs in-network reduction inside the node, and "
                                  "wire '{}' has none in the catalog; use tree or ring",
                                  fabric.scale_up->id));
  }
  return {};
}

Check check_fabric(const Fabric& fabric, Collective op, Algorithm algorithm, int gpus) {
  if (Check check = check_fabric_algorithm(fabric, op, algorithm, gpus); !check) {
    return check;
  }
  if (one_node(fabric, gpus)) {
    return check_expected_model(*fabric.scale_up, algorithm);
  }
  if (Check check = check_expected_model(*fabric.scale_out, Algorithm::ring); !check) {
    return check;
  }
  if (fabric.gpus_per_node >= min_collective_gpus) {
    return check_expected_model(*fabric.scale_up, Algorithm::ring);
  }
  return {};
}

std::vector<ExpectedLine> fabric_lines(const Fabric& fabric, const ExpectedModel& scale_out_model,
                                       const CollectiveRequest& request) {
  if (one_node(fabric, request.gpus)) {
    return expected_lines(*fabric.scale_up,
                          detail::model_for(*fabric.scale_up, request, request.gpus).first,
                          request);
  }
  check_span(fabric, request);
  return lines_across(span_of(fabric, scale_out_model, request), request);
}

CollectiveCost fabric_collective(const Fabric& fabric, const CollectiveRequest& request) {
  if (one_node(fabric, request.gpus)) {
    return expected_collective(*fabric.scale_up, request);
  }
  check_span(fabric, request);
  const Span s = span_of(fabric, *fabric.scale_out->expected, request);
  const ExpectedLine line = detail::fastest(lines_across(s, request));
  CollectiveCost cost = detail::collective_cost(request, line.time());
  cost.kernel = line.kernel;
  cost.topology = s.topology;
  return cost;
}

ExpectedTerms fabric_terms(const Fabric& fabric, const CollectiveRequest& request) {
  if (one_node(fabric, request.gpus)) {
    return expected_terms(*fabric.scale_up, request);
  }
  const ExpectedLine line =
      detail::fastest(fabric_lines(fabric, *fabric.scale_out->expected, request));
  return {line.latency, line.bandwidth};
}

Seconds fabric_time(const Fabric& fabric, const ExpectedModel& scale_out_model,
                    const CollectiveRequest& request) {
  return detail::fastest(fabric_lines(fabric, scale_out_model, request)).time();
}

namespace {

/// `model` with nothing lost: the full per-direction bandwidth (or more, where in-network
/// reduction exceeds it), no latency, no protocol slowdown.
ExpectedModel lossless(const ExpectedModel* model) {
  ExpectedModel ideal;
  ideal.efficiency = std::max(1.0, model != nullptr ? model->efficiency : 0.0);
  if (model != nullptr && model->in_network_reduction) {
    ideal.in_network_reduction =
        InNetworkReduction{std::max(1.0, model->in_network_reduction->efficiency), Seconds{}};
  }
  return ideal;
}

} // namespace

CollectiveCost fabric_headline(const Fabric& fabric, const CollectiveRequest& request) {
  if (one_node(fabric, request.gpus)) {
    return headline_collective(*fabric.scale_up, request);
  }
  detail::check_collective_request(*fabric.scale_out, request);
  if (const Check check =
          check_fabric_algorithm(fabric, request.op, request.algorithm, request.gpus);
      !check) {
    throw InputError(check.reason());
  }
  // The expected model's own algorithms over every NIC of the node, each link at its vendor
  // figure each way and nothing lost: never slower than the expected time.
  const ExpectedModel out =
      lossless(fabric.scale_out->expected ? &*fabric.scale_out->expected : nullptr);
  Span s = span_of_models(fabric, out, request);
  if (s.g >= min_collective_gpus) {
    s.up = lossless(fabric.scale_up->expected ? &*fabric.scale_up->expected : nullptr);
  }
  return detail::collective_cost(request, detail::fastest(lines_across(s, request)).bandwidth);
}

} // namespace icx
