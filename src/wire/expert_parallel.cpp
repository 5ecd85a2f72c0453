#include "icx/wire/expert_parallel.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/comm_time.hpp"

namespace icx {

namespace {

/// Probability that k experts drawn without replacement from `pool` all miss a block of
/// `block` of them (block may be fractional when a GPU's share is not whole).
double miss_all(double pool, double block, int k) {
  double p = 1;
  for (int i = 0; i < k; ++i) {
    p *= std::max(0.0, (pool - block - i) / (pool - i));
  }
  return p;
}

/// C(n, r) as a double (small arguments: expert groups).
double choose(int n, int r) {
  if (r < 0 || r > n) {
    return 0;
  }
  double c = 1;
  for (int i = 1; i <= r; ++i) {
    c = c * (n - r + i) / i;
  }
  return c;
}

/// Probability that one of `units` equal contiguous blocks of the experts (a node or a GPU)
/// holds at least one of a token's k experts, when the token picks `per_token` of `groups`
/// equal contiguous expert groups uniformly and its k experts uniformly among theirs. A block
/// that is not a whole number of groups, or straddles two, is taken as the nearest whole
/// number of groups, or as lying inside one.
double unit_touched(int experts, int units, int k, int groups, int per_token) {
  const double unit = static_cast<double>(experts) / units;
  const double group = static_cast<double>(experts) / groups;
  const double pool = per_token * group;
  if (per_token >= groups) {
    return 1 - miss_all(experts, unit, k);
  }
  if (unit >= group) {
    // The unit holds q whole groups, j of which the token picked (hypergeometric).
    const int q = static_cast<int>(std::lround(unit / group));
    double p = 0;
    for (int j = 0; j <= std::min(q, per_token); ++j) {
      const double picked =
          choose(q, j) * choose(groups - q, per_token - j) / choose(groups, per_token);
      p += picked * (1 - miss_all(pool, j * group, k));
    }
    return p;
  }
  // The unit lies inside one group: touched only when the token picked that group.
  return static_cast<double>(per_token) / groups * (1 - miss_all(pool, unit, k));
}

/// The most nodes a token reaches: its k experts, its groups times the nodes a group spans.
int max_nodes(const Model& model, int nodes, int groups, int per_token) {
  const int experts_per_node = model.experts / nodes;
  const int group = model.experts / groups;
  const int nodes_per_group = std::max(1, (group + experts_per_node - 1) / experts_per_node);
  return std::min({nodes, model.experts_per_token, per_token * nodes_per_group});
}

/// The figures of the kernel that runs `mode`'s dispatch or combine on `link`: its published
/// expert-parallel figures, else its NCCL efficiency and step latency.
struct KernelFigures {
  double efficiency = 0;
  Seconds latency;
  bool nccl = false;
};

std::optional<KernelFigures> figures(const Link& link, EpMode mode, bool dispatch) {
  if (!link.expected) {
    return std::nullopt;
  }
  const ExpectedModel& model = *link.expected;
  if (const auto& ep = model.expert_parallel) {
    const bool normal = mode == EpMode::normal;
    const std::optional<EpKernelParameters>& kernel =
        dispatch ? (normal ? ep->normal_dispatch : ep->low_latency_dispatch)
                 : (normal ? ep->normal_combine : ep->low_latency_combine);
    if (kernel) {
      return KernelFigures{kernel->efficiency, kernel->latency, false};
    }
  }
  return KernelFigures{model.efficiency, model.step_latency, true};
}

/// Bytes per GPU of one DeepEP kernel, over the network and over NVLink (module comment).
struct Split {
  double network = 0;
  double scale_up = 0;
};

Split deepep_copies(const EpRequest& r, const EpDestinations& d) {
  const double g = r.fabric.gpus_per_node;
  const double nodes = r.gpus / g;
  if (r.mode == EpMode::normal) {
    return {d.nodes * (1 - 1 / nodes), d.gpus * (1 - 1 / g)};
  }
  const double k = r.model->experts_per_token;
  return {k * (1 - g / r.gpus), k * (g - 1) / r.gpus};
}

EpKernelCost deepep_kernel(const EpRequest& r, const EpDestinations& d, Bytes token,
                           bool dispatch) {
  const Split copies = deepep_copies(r, d);
  const double per_gpu = r.tokens_per_gpu * r.routing.skew;
  EpKernelCost cost;
  cost.network_copies = copies.network;
  cost.scale_up_copies = copies.scale_up;
  cost.network = token * (per_gpu * copies.network);
  cost.scale_up = token * (per_gpu * copies.scale_up);
  const Fabric& f = r.fabric;
  const double nic_share = static_cast<double>(f.nics_per_node) / f.gpus_per_node;
  const bool leaves = r.gpus > f.gpus_per_node;
  // Headline: the same bytes at the vendor figures, the slower link setting the pace.
  Seconds headline = cost.scale_up / f.scale_up->headline_bandwidth.high;
  if (leaves) {
    headline =
        std::max(headline, cost.network / (f.scale_out->headline_bandwidth.high * nic_share));
  }
  cost.headline = headline;
  const auto up = figures(*f.scale_up, r.mode, dispatch);
  const auto out = leaves ? figures(*f.scale_out, r.mode, dispatch) : std::nullopt;
  if (!up || (leaves && !out)) {
    return cost;
  }
  // The group's GPUs in one node reach one another over the links between them.
  const int in_node = std::min(r.gpus, f.gpus_per_node);
  Seconds expected =
      up->latency + cost.scale_up / (group_bandwidth(*f.scale_up, in_node) * up->efficiency);
  cost.nccl_figures = up->nccl;
  if (leaves) {
    const BytesPerSecond nic =
        f.scale_out->per_direction_bandwidth.high * (nic_share * out->efficiency);
    expected = std::max(expected, out->latency + cost.network / nic);
    cost.nccl_figures = cost.nccl_figures || out->nccl;
  }
  cost.expected = expected;
  return cost;
}

/// NCCL's all-to-all of the k copies, as the collective model prices it across nodes.
EpKernelCost nccl_kernel(const EpRequest& r, Bytes token) {
  const Fabric& f = r.fabric;
  const double n = r.gpus;
  const double g = f.gpus_per_node;
  const double k = r.model->experts_per_token;
  const Bytes buffer = token * (r.tokens_per_gpu * r.routing.skew * k);
  EpKernelCost cost;
  // The k copies spread evenly over the n ranks: those of other nodes cross the network.
  cost.network_copies = k * (n - std::min(n, g)) / n;
  cost.scale_up_copies = k * (std::min(n, g) - 1) / n;
  cost.network = buffer * ((n - std::min(n, g)) / n);
  cost.scale_up = buffer * ((std::min(n, g) - 1) / n);
  const CollectiveRequest one{Collective::all_to_all, Algorithm::automatic, r.gpus, buffer, {}};
  const CommTime time = comm_time(
      f, buffer * wire_factor(Collective::all_to_all, Algorithm::automatic, r.gpus), one, 1);
  cost.headline = time.headline;
  cost.expected = time.expected;
  cost.nccl_figures = true;
  return cost;
}

} // namespace

std::string ep_mode_text(EpMode mode) {
  switch (mode) {
  case EpMode::normal:
    return "DeepEP's high-throughput (normal) kernels";
  case EpMode::low_latency:
    return "DeepEP's low-latency kernels";
  case EpMode::nccl:
    return "NCCL's all-to-all";
  }
  return {};
}

std::string ep_routing_text(const EpRouting& routing) {
  std::string text;
  if (routing.max_nodes_per_token > 0) {
    text += fmt::format(", each token on at most {} nodes", routing.max_nodes_per_token);
  }
  if (routing.skew > 1) {
    text += fmt::format(", the busiest GPU at {:g}× the mean", routing.skew);
  }
  if (routing.redundant_experts > 0) {
    text += fmt::format(", {} redundant experts", routing.redundant_experts);
  }
  return text;
}

Bytes EpLayerCost::bytes(int layers) const {
  return (dispatch.bytes() + combine.bytes()) * static_cast<double>(layers);
}

Seconds EpLayerCost::headline(int layers) const {
  return (dispatch.headline + combine.headline) * static_cast<double>(layers);
}

std::optional<Seconds> EpLayerCost::expected(int layers) const {
  if (!dispatch.expected || !combine.expected) {
    return std::nullopt;
  }
  return (*dispatch.expected + *combine.expected) * static_cast<double>(layers);
}

bool divides_experts(const Model& model, int gpus, int redundant_experts) {
  return gpus >= 1 && (model.experts + redundant_experts) % gpus == 0;
}

Bytes ep_token_bytes(int hidden, const Dtype& dtype) {
  double bytes = hidden * dtype.bytes_per_element;
  if (dtype.bytes_per_element <= 1) {
    bytes += static_cast<double>(hidden) / fp8_elements_per_scale * fp8_scale_bytes;
  }
  return Bytes::of(bytes);
}

EpDestinations ep_destinations(const Model& model, int gpus, int gpus_per_node,
                               const EpRouting& routing) {
  EpDestinations d;
  const int nodes = std::max(1, gpus / std::max(1, gpus_per_node));
  if (routing.max_nodes_per_token > 0) {
    // DeepEP's node-limited routing: every node one group.
    d.groups = nodes;
    d.groups_per_token = std::min(nodes, routing.max_nodes_per_token);
    d.limit = "flag";
  } else if (model.expert_groups > 1 && model.expert_groups_per_token < model.expert_groups) {
    d.groups = model.expert_groups;
    d.groups_per_token = model.expert_groups_per_token;
    d.limit = "model";
  } else {
    d.limit = "none";
  }
  const int k = model.experts_per_token;
  d.nodes = nodes * unit_touched(model.experts, nodes, k, d.groups, d.groups_per_token);
  d.gpus = gpus * unit_touched(model.experts, gpus, k, d.groups, d.groups_per_token);
  d.max_nodes = d.limit == "flag" ? d.groups_per_token
                                  : max_nodes(model, nodes, d.groups, d.groups_per_token);
  return d;
}

Check check_ep(const EpRequest& r) {
  const Model& model = *r.model;
  if (!model.is_moe()) {
    return unexpected(
        fmt::format("{} is a dense model; expert parallelism needs routed experts", model.id));
  }
  const int slots = model.experts + r.routing.redundant_experts;
  if (r.gpus < min_collective_gpus) {
    return unexpected(
        fmt::format("an expert group needs at least {} GPUs, not {}", min_collective_gpus, r.gpus));
  }
  if (!divides_experts(model, r.gpus, r.routing.redundant_experts)) {
    return unexpected(
        fmt::format("{} GPUs do not divide the model's {} experts{}", r.gpus, slots,
                    r.routing.redundant_experts > 0 ? " (with the redundant ones)" : ""));
  }
  if (r.gpus > r.fabric.gpus_per_node && r.gpus % r.fabric.gpus_per_node != 0) {
    return unexpected(
        fmt::format("{} GPUs are not whole nodes of {}", r.gpus, r.fabric.gpus_per_node));
  }
  if (!(r.routing.skew >= 1)) {
    return unexpected("the skew is the busiest GPU's multiple of the mean, at least 1");
  }
  return {};
}

EpLayerCost ep_layer_cost(const EpRequest& request) {
  if (const Check check = check_ep(request); !check) {
    throw InputError(check.reason());
  }
  EpRequest r = request;
  r.fabric.gpus_per_node = std::min(r.fabric.gpus_per_node, r.gpus);
  EpLayerCost cost;
  cost.destinations = ep_destinations(*r.model, r.gpus, r.fabric.gpus_per_node, r.routing);
  cost.dispatch_token = ep_token_bytes(r.model->hidden, *r.dispatch_dtype);
  cost.combine_token = ep_token_bytes(r.model->hidden, *r.combine_dtype);
  if (r.mode == EpMode::nccl) {
    cost.dispatch = nccl_kernel(r, cost.dispatch_token);
    cost.combine = nccl_kernel(r, cost.combine_token);
  } else {
    cost.dispatch = deepep_kernel(r, cost.destinations, cost.dispatch_token, true);
    cost.combine = deepep_kernel(r, cost.destinations, cost.combine_token, false);
  }
  return cost;
}

} // namespace icx
