#include "icx/wire/collectives.hpp"

#include "wire/collective_detail.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text.hpp"

namespace icx {

namespace {

/// Lower case without separators: "All_Reduce" and "all-reduce" both give "allreduce".
std::string squeeze(std::string_view name) {
  std::string folded = fold_case(name);
  std::erase_if(folded, [](char c) { return c == '-' || c == '_' || c == ' '; });
  return folded;
}

} // namespace

namespace detail {

void check_collective_request(const Link& link, const CollectiveRequest& request) {
  if (request.gpus < min_collective_gpus || request.gpus > limits::max_domain) {
    throw InputError(fmt::format("a collective needs from {} to {} GPUs, got {}",
                                 min_collective_gpus, limits::max_domain, request.gpus));
  }
  if (const Check wire = check_collective_wire(link); !wire) {
    throw GroupError(wire.reason());
  }
  if (const Check check = check_domain_size(link, request.gpus); !check) {
    throw GroupError(check.reason());
  }
  if (!(request.size.value() > 0) || !std::isfinite(request.size.value())) {
    throw InputError(fmt::format("message size must be a positive number of bytes, got {}",
                                 request.size.value()));
  }
}

CollectiveCost collective_cost(const CollectiveRequest& request, Seconds time) {
  const BytesPerSecond algbw = request.size / time;
  return {time, algbw, algbw * busbw_factor(request.op, request.gpus), std::nullopt, nullptr};
}

} // namespace detail

std::optional<Collective> collective_from_name(std::string_view name) {
  return parse_enum<Collective>(name, squeeze);
}

std::optional<Algorithm> algorithm_from_name(std::string_view name) {
  return parse_enum<Algorithm>(name, squeeze);
}

std::optional<Implementation> implementation_from_name(std::string_view name) {
  return parse_enum<Implementation>(name, squeeze);
}

double busbw_factor(Collective op, int gpus) {
  const double n = gpus;
  switch (op) {
  case Collective::all_reduce:
    return 2.0 * (n - 1) / n;
  case Collective::all_gather:
  case Collective::reduce_scatter:
  case Collective::all_to_all:
    return (n - 1) / n;
  case Collective::point_to_point:
    return 1.0;
  }
  return 1.0;
}

double wire_factor(Collective op, Algorithm algorithm, int gpus) {
  if (algorithm == Algorithm::nvls) {
    if (const auto traffic = in_network_traffic(op, gpus)) {
      // Each direction of a GPU's link has its own bandwidth: the busier one sets the time.
      return std::max(traffic->sent, traffic->received);
    }
  }
  // Ring collectives move exactly the bytes nccl-tests' bus-bandwidth factor counts.
  return busbw_factor(op, gpus);
}

std::optional<DirectionalTraffic> in_network_traffic(Collective op, int gpus) {
  const double share = 1.0 / gpus; // one GPU's slice of S
  switch (op) {
  case Collective::all_reduce:
    return DirectionalTraffic{1.0, 1.0};
  case Collective::reduce_scatter:
    return DirectionalTraffic{1.0, share};
  case Collective::all_gather:
    return DirectionalTraffic{share, 1.0};
  case Collective::all_to_all:
  case Collective::point_to_point:
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<Collective> in_network_collectives() {
  std::vector<Collective> ops;
  for (const Collective op : all_collectives) {
    if (in_network_traffic(op, min_collective_gpus)) {
      ops.push_back(op);
    }
  }
  return ops;
}

std::string in_network_collectives_text() {
  std::vector<std::string_view> served;
  for (const Collective op : in_network_collectives()) {
    served.push_back(to_string(op));
  }
  return and_list(served);
}

double headline_traffic_factor(Collective op, int gpus) {
  // The bytes each GPU must send, exactly as nccl-tests' bus bandwidth counts them: the
  // textbook's ~2·S of an all-reduce is 2(n-1)/n · S. Fewer cannot carry the result, so the
  // headline stays a lower bound on time for every group size.
  return busbw_factor(op, gpus);
}

std::int64_t ring_steps(Collective op, int gpus) {
  // 64-bit: 2(n-1) stays exact for every int n.
  const std::int64_t others = std::int64_t{gpus} - 1;
  switch (op) {
  case Collective::all_reduce:
    return 2 * others;
  case Collective::all_gather:
  case Collective::reduce_scatter:
  case Collective::all_to_all:
    return others;
  case Collective::point_to_point:
    return 1;
  }
  return 1;
}

BytesPerSecond group_bandwidth(const Link& link, int gpus) {
  const BytesPerSecond all = link.per_direction_bandwidth.high;
  if (!link.full_mesh || !link.links_per_gpu || gpus < 2) {
    return all;
  }
  // One link to each peer: the group's other GPUs are n − 1 of them.
  const int reached = std::min(gpus - 1, *link.links_per_gpu);
  return all * (static_cast<double>(reached) / static_cast<double>(*link.links_per_gpu));
}

BytesPerSecond headline_bandwidth_for(const Link& link, Collective op) {
  // A send goes one way: it gets the one-way figure, whatever the vendor sums.
  return op == Collective::point_to_point ? link.per_direction_bandwidth.high
                                          : link.headline_bandwidth.high;
}

CollectiveCost headline_collective(const Link& link, const CollectiveRequest& request) {
  detail::check_collective_request(link, request);
  return detail::collective_cost(request, request.size *
                                              headline_traffic_factor(request.op, request.gpus) /
                                              headline_bandwidth_for(link, request.op));
}

Check check_algorithm(const Link& link, Collective op, Algorithm algorithm) {
  if (spans_nodes(algorithm)) {
    return unexpected(fmt::format("{} runs between nodes, and wire '{}' alone is one group "
                                  "(the nodes come from {} and {}, or {})",
                                  to_string(algorithm), link.id, Knob::gpus_per_node,
                                  Knob::scale_out, Knob::system));
  }
  if (algorithm != Algorithm::nvls) {
    // A ring runs every operation; automatic falls back to it.
    return {};
  }
  if (!in_network_traffic(op, min_collective_gpus)) {
    std::vector<std::string_view> served;
    for (const Collective each : in_network_collectives()) {
      served.push_back(to_string(each));
    }
    return unexpected(
        fmt::format("in-network reduction performs {}, not {}", and_list(served), to_string(op)));
  }
  if (link.tier != Tier::scale_up) {
    return unexpected(
        fmt::format("wire '{}' is a {} link; in-network reduction runs inside a scale-up "
                    "switch (NVSwitch)",
                    link.id, to_string(link.tier)));
  }
  return {};
}

} // namespace icx
