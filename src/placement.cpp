#include "icx/placement.hpp"

#include <numeric>

#include <fmt/format.h>

#include "icx/comm_time.hpp"
#include "icx/error.hpp"
#include "icx/hbm.hpp"
#include "icx/host_link.hpp"
#include "icx/topology.hpp"

namespace icx {

namespace {

ActivationShape shape_of(const Workload& w) {
  return {w.model->hidden, w.model->layers, w.dtype->bytes_per_element};
}

Bytes usable_memory(const Cluster& cluster, const Workload& workload) {
  return usable_hbm(*cluster.gpu, 1, workload.memory_reserve);
}

/// Whether every group of `size` consecutive ranks (groups start at multiples of `size`)
/// lies inside one scale-up domain of `domain` consecutive ranks.
bool inside_domain(const Cluster& cluster, int size) {
  for (int first = 0; first + size <= cluster.gpus; first += size) {
    if (first / cluster.domain != (first + size - 1) / cluster.domain) {
      return false;
    }
  }
  return size <= cluster.gpus;
}

/// Cost of a collective group: on the scale-up link inside a domain, else on the scale-out
/// link (the slowest hop sets the pace). `one` is one of its `count` collectives per pass.
StrategyCost group_cost(const Cluster& cluster, Strategy strategy, int degree, int span,
                        Bytes bytes, Seconds compute, const CollectiveRequest& one, int count) {
  StrategyCost cost;
  cost.strategy = strategy;
  cost.degree = degree;
  cost.bytes = bytes;
  if (degree <= 1) {
    cost.verdict = judge(strategy, nullptr, Seconds::of(0), compute);
    return cost;
  }
  cost.crosses_domain = !inside_domain(cluster, span);
  cost.wire = cost.crosses_domain ? cluster.scale_out : cluster.scale_up;
  const CommTime time = comm_time(*cost.wire, bytes, one, count);
  cost.seconds = time.headline;
  cost.expected_seconds = time.expected;
  cost.seconds_on_scale_up = comm_time(*cluster.scale_up, bytes, one, count).judged();
  cost.verdict = judge(strategy, cost.wire, time.judged(), compute);
  cost.verdict.expected_model = time.expected.has_value();
  return cost;
}

/// Pipeline boundaries that fall on a domain edge cross the scale-out link; the others stay
/// on the scale-up link. Each boundary is one point-to-point send of the activations.
StrategyCost pipeline_cost(const Cluster& cluster, const Workload& workload, int stages,
                           int stage_size, Seconds compute) {
  StrategyCost cost;
  cost.strategy = Strategy::pipeline;
  cost.degree = stages;
  cost.bytes = pipeline_parallel_bytes(shape_of(workload), workload.tokens, stages);
  if (stages <= 1) {
    cost.verdict = judge(Strategy::pipeline, nullptr, Seconds::of(0), compute);
    return cost;
  }
  const Bytes per_boundary = cost.bytes / (stages - 1);
  const CollectiveRequest send{Collective::point_to_point, Algorithm::ring, min_collective_gpus,
                               per_boundary};
  Seconds headline;
  Seconds judged;
  bool all_expected = true;
  for (int boundary = 1; boundary < stages; ++boundary) {
    // The boundary joins the stage's last rank and the next stage's first rank.
    const int last = boundary * stage_size - 1;
    const bool crosses = last / cluster.domain != (last + 1) / cluster.domain;
    cost.crosses_domain = cost.crosses_domain || crosses;
    const CommTime time =
        comm_time(crosses ? *cluster.scale_out : *cluster.scale_up, per_boundary, send, 1);
    headline += time.headline;
    judged += time.judged();
    all_expected = all_expected && time.expected.has_value();
  }
  cost.wire = cost.crosses_domain ? cluster.scale_out : cluster.scale_up;
  cost.seconds = headline;
  if (all_expected) {
    cost.expected_seconds = judged;
  }
  cost.seconds_on_scale_up = comm_time(*cluster.scale_up, per_boundary, send, 1).judged() *
                             static_cast<double>(stages - 1);
  cost.verdict = judge(Strategy::pipeline, cost.wire, judged, compute);
  cost.verdict.expected_model = all_expected;
  return cost;
}

bool shard_fits(const Cluster& cluster, const Workload& workload, int shards) {
  return weight_bytes(workload.model->total_params, workload.dtype->bytes_per_element) / shards <=
         usable_memory(cluster, workload);
}

} // namespace

std::optional<ClusterProblem> cluster_problem(const Cluster& cluster, int catalog_domain,
                                              std::string_view domain_from,
                                              std::span<const Link> links) {
  const Gpu& gpu = *cluster.gpu;
  if (const Check up = check_group_link(&gpu, cluster.domain, *cluster.scale_up); !up) {
    return ClusterProblem{ClusterPart::scale_up, up.reason()};
  }
  const Link& out = *cluster.scale_out;
  Check check = check_gpu_link(gpu, out);
  if (check) {
    check = check_scale_out(out, cluster.gpus, catalog_domain, domain_from, links);
  }
  if (check && out.tier != Tier::scale_out) {
    check = check_domain_size(out, cluster.gpus);
  }
  if (!check) {
    return ClusterProblem{ClusterPart::scale_out, check.reason()};
  }
  return std::nullopt;
}

Layout recommend_layout(const Cluster& cluster, const Workload& workload) {
  const Model& model = *workload.model;
  const int domain = std::min(cluster.domain, cluster.gpus);
  const Strategy inner = model.is_moe() ? Strategy::expert : Strategy::tensor;
  const bool inner_allowed = allowed_on(inner, cluster.scale_up->tier);
  // A tensor group must split the attention heads (tensor_group_allowed), an expert group
  // divide the experts.
  const int divisible = model.is_moe() ? model.experts : model.attention_heads;
  const int limit = inner_allowed ? std::gcd(domain, divisible) : 1;
  const AttentionShape attention = attention_shape(model);

  Layout layout;
  int group = 1;
  for (int g = 1; g <= limit; ++g) {
    if (limit % g == 0 && cluster.gpus % g == 0 &&
        (model.is_moe() || tensor_group_allowed(attention, g))) {
      group = g;
      if (shard_fits(cluster, workload, g)) {
        break;
      }
    }
  }
  int stages = 1;
  if (!shard_fits(cluster, workload, group)) {
    for (int s = 2; group * s <= cluster.gpus; ++s) {
      if (cluster.gpus % (group * s) == 0 && model.layers >= s) {
        stages = s;
        if (shard_fits(cluster, workload, group * s)) {
          break;
        }
      }
    }
  }
  (model.is_moe() ? layout.ep : layout.tp) = group;
  layout.pp = stages;
  layout.dp = cluster.gpus / (group * stages);
  return layout;
}

Placement evaluate_layout(const Cluster& cluster, const Workload& workload, const Layout& layout) {
  if (layout.tp < 1 || layout.pp < 1 || layout.ep < 1 || layout.dp < 1 ||
      layout.product() != cluster.gpus) {
    throw InputError(fmt::format("layout tp {} × pp {} × ep {} × dp {} = {} GPUs, but the "
                                 "cluster has {}; the product must equal the GPU count",
                                 layout.tp, layout.pp, layout.ep, layout.dp, layout.product(),
                                 cluster.gpus));
  }
  const Model& model = *workload.model;
  if (layout.ep > 1 && !model.is_moe()) {
    throw InputError(fmt::format("expert parallel (ep {}) needs an MoE model; {} is dense",
                                 layout.ep, model.id));
  }
  if (const Check check = check_tensor_group(attention_shape(model), layout.tp); !check) {
    throw GroupError(fmt::format("tp {}: {}", layout.tp, check.reason()));
  }
  if (layout.pp > model.layers) {
    throw InputError(fmt::format("pp {} exceeds the model's {} layers", layout.pp, model.layers));
  }
  Placement placement;
  placement.layout = layout;
  placement.weights = weight_bytes(model.total_params, workload.dtype->bytes_per_element);
  placement.per_gpu_weights = placement.weights / (layout.tp * layout.ep * layout.pp);
  placement.usable_per_gpu = usable_memory(cluster, workload);
  placement.fits = placement.per_gpu_weights <= placement.usable_per_gpu;
  // The stages of one pass run one after another, so only the tensor and expert groups
  // share a pass's compute.
  placement.compute = compute_time(prefill_flops(model.active_params, workload.tokens),
                                   layout.tp * layout.ep, workload.rate);

  const ActivationShape shape = shape_of(workload);
  const TensorParallelTraffic tp = tensor_parallel_traffic(shape, workload.tokens);
  // One all-reduce reduces the activations, B·H·b bytes (the nccl-tests message size).
  const Bytes activation =
      Bytes::of(static_cast<double>(workload.tokens) * shape.hidden * shape.bytes_per_element);
  placement.strategies.push_back(group_cost(
      cluster, Strategy::tensor, layout.tp, layout.tp, layout.tp > 1 ? tp.per_pass : Bytes::of(0),
      placement.compute, {Collective::all_reduce, Algorithm::ring, layout.tp, activation},
      tp.allreduces_per_layer * shape.layers));
  const Bytes ep_bytes = model.is_moe() ? expert_parallel_bytes(shape, workload.tokens,
                                                                model.experts_per_token, layout.ep)
                                        : Bytes::of(0);
  // One all-to-all routes every token to its top-k experts: B·k·H·b bytes.
  const Bytes routed = activation * model.experts_per_token;
  placement.strategies.push_back(
      group_cost(cluster, Strategy::expert, layout.ep, layout.tp * layout.ep, ep_bytes,
                 placement.compute, {Collective::all_to_all, Algorithm::ring, layout.ep, routed},
                 all_to_alls_per_moe_layer * shape.layers));
  placement.strategies.push_back(
      pipeline_cost(cluster, workload, layout.pp, layout.tp * layout.ep, placement.compute));
  StrategyCost replicas;
  replicas.strategy = Strategy::data;
  replicas.degree = layout.dp;
  replicas.verdict = judge(Strategy::data, nullptr, Seconds::of(0), placement.compute);
  placement.strategies.push_back(replicas);

  placement.level = placement.fits ? Level::ok : Level::avoid;
  for (const StrategyCost& cost : placement.strategies) {
    placement.level = worst(placement.level, cost.verdict.level);
  }
  return placement;
}

} // namespace icx
