#include "icx/place_report.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/strategies.hpp"
#include "icx/topology.hpp"
#include "icx/units_format.hpp"
#include "icx/verdict_text.hpp"

namespace icx {

namespace {

/// The layout the request gives; dp fills the rest when omitted.
Layout given_layout(const LayoutRequest& given, int gpus) {
  Layout layout{given.tp.value_or(1), given.pp.value_or(1), given.ep.value_or(1),
                given.dp.value_or(1)};
  const int sharded = layout.tp * layout.pp * layout.ep;
  if (!given.dp && gpus % sharded == 0) {
    layout.dp = gpus / sharded;
  }
  return layout;
}

/// How inference engines abbreviate each split.
constexpr std::array<EnumName<Strategy>, 4> short_names{{{Strategy::tensor, "TP"},
                                                         {Strategy::expert, "EP"},
                                                         {Strategy::pipeline, "PP"},
                                                         {Strategy::data, "DP"}}};

std::string_view short_name(Strategy s) {
  return name_in(short_names, s);
}

/// A split's verdict reason; a group pushed off the scale-up link says what that costs.
std::string strategy_reason(const Cluster& cluster, const StrategyCost& cost) {
  if (cost.degree <= 1) {
    return "not used (degree 1)";
  }
  std::string reason = verdict_reason(cost.strategy, cost.wire, cost.verdict);
  if (!cost.crosses_domain || cost.wire == cluster.scale_up) {
    return reason;
  }
  return fmt::format("{} crosses the node boundary onto {}: {} vs {} on {}; {}",
                     short_name(cost.strategy), cost.wire->id, format_seconds(cost.verdict.comm),
                     format_seconds(cost.seconds_on_scale_up), cluster.scale_up->id, reason);
}

/// The split whose verdict sets the layout's: the worst level, then the largest ratio.
const StrategyCost& worst_cost(const Placement& p) {
  const StrategyCost* worst_cost = &p.strategies.front();
  for (const StrategyCost& cost : p.strategies) {
    if (cost.verdict.level > worst_cost->verdict.level ||
        (cost.verdict.level == worst_cost->verdict.level &&
         cost.verdict.ratio > worst_cost->verdict.ratio)) {
      worst_cost = &cost;
    }
  }
  return *worst_cost;
}

std::string overall_reason(const Cluster& cluster, const Placement& p) {
  if (!p.fits) {
    return fmt::format("the weights need {} per GPU but {} is usable: add GPUs, shard further "
                       "(--tp/--ep/--pp) or use a smaller dtype",
                       format_bytes(p.per_gpu_weights), format_bytes(p.usable_per_gpu));
  }
  const StrategyCost& worst = worst_cost(p);
  return fmt::format("{}: {}", to_string(worst.strategy), strategy_reason(cluster, worst));
}

/// Why recommend_layout chose `layout`, in the placement rule's words.
std::vector<std::string> layout_reasons(const Cluster& c, const Workload& w, const Layout& layout) {
  std::vector<std::string> reasons;
  const bool moe = w.model->is_moe();
  const int inner = moe ? layout.ep : layout.tp;
  if (inner > 1) {
    reasons.push_back(fmt::format("{} {} inside the {} domain, {}", moe ? "EP" : "TP", inner,
                                  c.scale_up->id,
                                  layout.pp > 1 ? "as large as the domain and the model allow"
                                                : "the smallest group whose shard fits"));
  } else if (!allowed_on(moe ? Strategy::expert : Strategy::tensor, c.scale_up->tier)) {
    reasons.push_back(fmt::format("no {} parallel on {} (a {} link)", moe ? "expert" : "tensor",
                                  c.scale_up->id, to_string(c.scale_up->tier)));
  }
  if (layout.pp > 1) {
    reasons.push_back(
        fmt::format("PP {} because a smaller group cannot hold the weights", layout.pp));
  }
  if (layout.dp > 1) {
    reasons.push_back(fmt::format("{} replicas for the rest", layout.dp));
  }
  if (reasons.empty()) {
    reasons.emplace_back("one GPU holds the model");
  }
  return reasons;
}

Derivations derive(const Workload& w, const Placement& p) {
  const Layout& l = p.layout;
  Derivations d;
  d.push_back({"weights",
               fmt::format("{} params × {} B", format_count(w.model->total_params),
                           w.dtype->bytes_per_element),
               p.weights.value(), format_count(p.weights.value()) + " B"});
  d.push_back({"per GPU",
               fmt::format("{} B / (tp {} × ep {} × pp {})", format_count(p.weights.value()), l.tp,
                           l.ep, l.pp),
               p.per_gpu_weights.value(), format_count(p.per_gpu_weights.value()) + " B"});
  d.push_back({"compute per pass",
               fmt::format("2 × {} params × {} tokens / (tp {} × ep {}) / ({} × {})",
                           format_count(w.model->active_params), w.tokens, l.tp, l.ep,
                           format_flops_rate(w.rate.peak), w.rate.utilization),
               p.compute.value(), format_seconds(p.compute)});
  for (const StrategyCost& cost : p.strategies) {
    if (cost.wire != nullptr) {
      d.push_back({fmt::format("{} time", to_string(cost.strategy)),
                   fmt::format("{} B over {}", format_count(cost.bytes.value()), cost.wire->id),
                   cost.seconds.value(), format_seconds(cost.seconds)});
    }
  }
  return d;
}

Workload workload_of(const Catalog& catalog, const PlaceRequest& request) {
  Workload workload;
  workload.model = request.model;
  workload.dtype = request.dtype;
  workload.tokens = request.tokens;
  const Gpu& gpu = *request.cluster.gpu;
  workload.rate = compute_rate(gpu, *request.dtype, catalog.dtypes(),
                               request.utilization.value_or(gpu.achievable_mfu));
  workload.memory_reserve = request.memory_reserve;
  return workload;
}

} // namespace

LayoutError::LayoutError(std::string at_fault, const std::string& reason)
    : InputError(reason), degree(std::move(at_fault)) {}

ClusterError::ClusterError(ClusterIssue what_is_wrong, ClusterPart where, const Cluster& so_far,
                           const std::string& reason)
    : InputError(reason), issue(what_is_wrong), part(where), cluster(so_far) {}

Cluster resolve_cluster(const ClusterRequest& request, std::span<const Link> links) {
  const System* system = request.system;
  Cluster c;
  c.gpu = request.gpu;
  c.gpus_per_node = request.gpus_per_node.value_or(system != nullptr ? system->gpus_per_node
                                                                     : c.gpu->scale_up_domain);
  c.gpus = request.gpus.value_or(c.gpus_per_node);
  c.scale_up = request.scale_up;
  const int domain = system != nullptr ? system->scale_up_domain : c.gpu->scale_up_domain;
  c.domain = std::min(domain, c.gpus_per_node);
  if (c.gpus > c.gpus_per_node && c.gpus % c.gpus_per_node != 0) {
    throw ClusterError(
        ClusterIssue::ragged_nodes, ClusterPart::scale_out, c,
        fmt::format("{} GPUs are not a whole number of {}-GPU nodes", c.gpus, c.gpus_per_node));
  }
  c.scale_out = request.scale_out != nullptr ? request.scale_out : c.scale_up;
  if (request.scale_out == nullptr && c.gpus > c.domain) {
    throw ClusterError(ClusterIssue::needs_scale_out, ClusterPart::scale_out, c,
                       fmt::format("{} GPUs span more than one {}-GPU scale-up domain and no "
                                   "scale-out link joins them",
                                   c.gpus, c.domain));
  }
  const std::string domain_from = system != nullptr ? fmt::format("catalog system '{}'", system->id)
                                                    : fmt::format("catalog gpu '{}'", c.gpu->id);
  if (const auto problem = cluster_problem(c, domain, domain_from, links)) {
    throw ClusterError(ClusterIssue::contradiction, problem->part, c, problem->reason);
  }
  if (c.scale_out == c.scale_up && c.gpus > c.domain) {
    // Nodes joined by their own scale-up link lie in one domain (cluster_problem): NVL72 trays.
    c.domain = std::min(domain, c.gpus);
  }
  return c;
}

PlaceReport place_report(const Catalog& catalog, const PlaceRequest& request) {
  PlaceReport report;
  report.cluster = request.cluster;
  report.system = request.system;
  const Cluster& c = report.cluster;
  report.nodes = (c.gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  report.workload = workload_of(catalog, request);
  report.recommended = !request.layout.given();
  if (const std::optional<int> tp = request.layout.tp) {
    if (const Check check = check_tensor_group(attention_shape(*request.model), *tp); !check) {
      throw LayoutError(fmt::format("tp {}", *tp), check.reason());
    }
  }
  const Layout layout = report.recommended ? recommend_layout(c, report.workload)
                                           : given_layout(request.layout, c.gpus);
  try {
    report.placement = evaluate_layout(c, report.workload, layout);
  } catch (const InputError& error) {
    throw LayoutError("", error.what());
  }
  const Placement& p = report.placement;
  if (report.recommended) {
    report.layout_reasons = layout_reasons(c, report.workload, layout);
  }
  for (const StrategyCost& cost : p.strategies) {
    report.strategy_reasons.push_back(strategy_reason(c, cost));
  }
  report.verdict_reason = overall_reason(c, p);
  report.compute_assumption = describe_rate(report.workload.rate, layout.tp * layout.ep);
  report.derivations = derive(report.workload, p);
  return report;
}

namespace {

Json cluster_json(const PlaceReport& report) {
  const Cluster& c = report.cluster;
  Json cluster;
  cluster["system"] = report.system != nullptr ? Json(report.system->id) : Json();
  cluster["gpu"] = c.gpu->id;
  cluster["gpus"] = c.gpus;
  cluster["gpus_per_node"] = c.gpus_per_node;
  cluster["scale_up_domain"] = c.domain;
  cluster["scale_up"] = c.scale_up->id;
  cluster["scale_out"] = c.scale_out->id;
  return cluster;
}

Json strategy_json(const StrategyCost& cost, const std::string& reason) {
  Json s;
  s["strategy"] = to_string(cost.strategy);
  s["degree"] = cost.degree;
  s["wire"] = cost.wire != nullptr ? Json(cost.wire->id) : Json();
  s["bytes"] = json_number(cost.bytes.value());
  s["seconds"] = json_number(cost.seconds.value());
  s["expected_seconds"] =
      cost.expected_seconds ? json_number(cost.expected_seconds->value()) : Json();
  s["crosses_domain"] = cost.crosses_domain;
  Json verdict = verdict_json(cost.strategy, cost.wire, cost.verdict);
  verdict["reason"] = reason;
  s["verdict"] = std::move(verdict);
  return s;
}

} // namespace

void to_json(Json& json, const PlaceReport& report) {
  const Workload& w = report.workload;
  const Placement& p = report.placement;
  json = json_document("icx.place/1");
  json["cluster"] = cluster_json(report);
  json["model"] = {{"id", w.model->id},
                   {"dtype", w.dtype->id},
                   {"total_params", json_number(w.model->total_params)},
                   {"active_params", json_number(w.model->active_params)}};
  json["tokens"] = w.tokens;
  json["layout"] = {
      {"tp", p.layout.tp}, {"pp", p.layout.pp}, {"ep", p.layout.ep}, {"dp", p.layout.dp}};
  json["recommended"] = report.recommended;
  json["fits"] = p.fits;
  json["weights_bytes"] = json_number(p.weights.value());
  json["per_gpu_weight_bytes"] = json_number(p.per_gpu_weights.value());
  json["usable_per_gpu_bytes"] = json_number(p.usable_per_gpu.value());
  json["memory_reserve"] = json_number(w.memory_reserve);
  json["compute_seconds"] = json_number(p.compute.value());
  Json strategies = Json::array();
  for (std::size_t i = 0; i < p.strategies.size(); ++i) {
    strategies.push_back(strategy_json(p.strategies[i], report.strategy_reasons[i]));
  }
  json["strategies"] = std::move(strategies);
  json["verdict"] = {{"level", to_string(p.level)}, {"reason", report.verdict_reason}};
}

} // namespace icx
