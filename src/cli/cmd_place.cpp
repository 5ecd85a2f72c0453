// icx place: a layout of a model on a cluster (recommended, or the one given), with each
// split's traffic, wire, time and verdict.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/placement.hpp"
#include "icx/topology.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"
#include "verdict_format.hpp"

namespace icx::cli {

namespace {

struct PlaceOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  std::string system;
  std::optional<int> gpus;
  std::optional<int> gpus_per_node;
  std::string scale_up;
  std::string scale_out;
  std::int64_t tokens = 4096;
  std::optional<int> tp, pp, ep, dp;
  double reserve = default_memory_reserve;
};

struct ResolvedCluster {
  Cluster cluster;
  std::string system_id;
};

/// Rejects a cluster whose parts contradict each other (cluster_problem), naming the flag
/// that chose the part. `domain` is the GPUs the catalog puts in one scale-up domain.
void check_hardware(const Catalog& catalog, const PlaceOptions& o, const System* system, int domain,
                    const Cluster& c) {
  const std::string domain_from = system ? fmt::format("catalog system '{}'", system->id)
                                         : fmt::format("catalog gpu '{}'", c.gpu->id);
  const auto problem = cluster_problem(c, domain, domain_from, catalog.links());
  if (!problem) {
    return;
  }
  const std::string flag =
      problem->part == ClusterPart::scale_out
          ? (!o.scale_out.empty() ? "--scale-out " + o.scale_out : "--system " + o.system)
      : !o.scale_up.empty()    ? "--scale-up " + o.scale_up
      : !o.compute.gpu.empty() ? "--gpu " + o.compute.gpu
                               : "--system " + o.system;
  throw UsageError(fmt::format("{}: {}", flag, problem->reason));
}

ResolvedCluster resolve_cluster(const Catalog& catalog, const PlaceOptions& o) {
  ResolvedCluster r;
  Cluster& c = r.cluster;
  const System* system = nullptr;
  if (!o.system.empty()) {
    system = &for_flag("--system", [&]() -> const System& { return catalog.system(o.system); });
    r.system_id = system->id;
  }
  const std::string gpu_id = !o.compute.gpu.empty() ? o.compute.gpu
                             : system               ? system->gpu
                                                    : std::string();
  if (gpu_id.empty()) {
    throw UsageError("no cluster given: use --system ID (see 'icx systems'), or --gpu ID with "
                     "--gpus N (and --gpus-per-node, --scale-up, --scale-out as needed)");
  }
  c.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(gpu_id); });
  c.gpus_per_node =
      o.gpus_per_node.value_or(system ? system->gpus_per_node : c.gpu->scale_up_domain);
  c.gpus = o.gpus.value_or(c.gpus_per_node);
  const std::string up = !o.scale_up.empty() ? o.scale_up
                         : system            ? system->scale_up_link
                                             : c.gpu->scale_up_link;
  c.scale_up = &for_flag("--scale-up", [&]() -> const Link& { return catalog.link(up); });
  const int domain = system ? system->scale_up_domain : c.gpu->scale_up_domain;
  c.domain = std::min(domain, c.gpus_per_node);
  if (c.gpus > c.gpus_per_node && c.gpus % c.gpus_per_node != 0) {
    throw UsageError(fmt::format("--gpus {} is not a whole number of {}-GPU nodes; use a "
                                 "multiple of {} or set --gpus-per-node",
                                 c.gpus, c.gpus_per_node, c.gpus_per_node));
  }
  const std::string out = !o.scale_out.empty() ? o.scale_out
                          : system             ? system->scale_out_link
                                               : std::string();
  if (!out.empty()) {
    c.scale_out = &for_flag("--scale-out", [&]() -> const Link& { return catalog.link(out); });
  } else if (c.gpus > c.domain) {
    throw UsageError(fmt::format("{} GPUs span more than one {}-GPU scale-up domain: give "
                                 "--scale-out LINK (e.g. ib-ndr) or --system ID",
                                 c.gpus, c.domain));
  } else {
    c.scale_out = c.scale_up;
  }
  check_hardware(catalog, o, system, domain, c);
  if (c.scale_out == c.scale_up && c.gpus > c.domain) {
    // Nodes joined by their own scale-up link lie in one domain (check_hardware): NVL72 trays.
    c.domain = std::min(domain, c.gpus);
  }
  return r;
}

/// The layout the flags give; dp fills the rest when omitted.
std::optional<Layout> given_layout(const PlaceOptions& o, int gpus) {
  if (!o.tp && !o.pp && !o.ep && !o.dp) {
    return std::nullopt;
  }
  Layout layout{o.tp.value_or(1), o.pp.value_or(1), o.ep.value_or(1), o.dp.value_or(1)};
  const int sharded = layout.tp * layout.pp * layout.ep;
  if (!o.dp && gpus % sharded == 0) {
    layout.dp = gpus / sharded;
  }
  return layout;
}

std::string_view short_name(Strategy s) {
  switch (s) {
  case Strategy::tensor:
    return "TP";
  case Strategy::expert:
    return "EP";
  case Strategy::pipeline:
    return "PP";
  case Strategy::data:
    return "DP";
  }
  return "";
}

std::string strategy_reason(const Cluster& cluster, const StrategyCost& cost) {
  if (cost.degree <= 1) {
    return "not used (degree 1)";
  }
  const std::string reason = verdict_reason(cost.strategy, cost.wire, cost.verdict);
  if (!cost.crosses_domain || cost.wire == cluster.scale_up) {
    return reason;
  }
  return fmt::format("{} crosses the node boundary onto {}: {} vs {} on {}; {}",
                     short_name(cost.strategy), cost.wire->id, format_seconds(cost.verdict.comm),
                     format_seconds(cost.seconds_on_scale_up), cluster.scale_up->id, reason);
}

std::string overall_reason(const Cluster& cluster, const Placement& p) {
  if (!p.fits) {
    return fmt::format("the weights need {} per GPU but {} is usable: add GPUs, shard further "
                       "(--tp/--ep/--pp) or use a smaller dtype",
                       format_bytes(p.per_gpu_weights), format_bytes(p.usable_per_gpu));
  }
  const StrategyCost* worst_cost = nullptr;
  for (const StrategyCost& cost : p.strategies) {
    if (worst_cost == nullptr || cost.verdict.level > worst_cost->verdict.level ||
        (cost.verdict.level == worst_cost->verdict.level &&
         cost.verdict.ratio > worst_cost->verdict.ratio)) {
      worst_cost = &cost;
    }
  }
  return fmt::format("{}: {}", to_string(worst_cost->strategy),
                     strategy_reason(cluster, *worst_cost));
}

/// Why the recommended layout is what it is, in the placement rule's words.
std::string rationale(const Cluster& c, const Workload& w, const Layout& layout) {
  std::vector<std::string> parts;
  const bool moe = w.model->is_moe();
  const int inner = moe ? layout.ep : layout.tp;
  if (inner > 1) {
    parts.push_back(fmt::format("{} {} inside the {} domain, {}", moe ? "EP" : "TP", inner,
                                c.scale_up->id,
                                layout.pp > 1 ? "as large as the domain and the model allow"
                                              : "the smallest group whose shard fits"));
  } else if (!allowed_on(moe ? Strategy::expert : Strategy::tensor, c.scale_up->tier)) {
    parts.push_back(fmt::format("no {} parallel on {} (a {} link)", moe ? "expert" : "tensor",
                                c.scale_up->id, to_string(c.scale_up->tier)));
  }
  if (layout.pp > 1) {
    parts.push_back(
        fmt::format("PP {} because a smaller group cannot hold the weights", layout.pp));
  }
  if (layout.dp > 1) {
    parts.push_back(fmt::format("{} replicas for the rest", layout.dp));
  }
  return parts.empty() ? "one GPU holds the model" : fmt::format("{}", fmt::join(parts, "; "));
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
    if (cost.wire == nullptr) {
      continue;
    }
    d.push_back({fmt::format("{} time", to_string(cost.strategy)),
                 fmt::format("{} B over {}", format_count(cost.bytes.value()), cost.wire->id),
                 cost.seconds.value(), format_seconds(cost.seconds)});
  }
  return d;
}

void print_table(const Style& style, const ResolvedCluster& rc, const Workload& w,
                 const Placement& p, bool recommended) {
  const Cluster& c = rc.cluster;
  const int nodes = (c.gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  print_out("Placement of {} ({}, {} of weights) on {} × {}\n", w.model->id, w.dtype->id,
            format_bytes(p.weights), c.gpus, c.gpu->id);
  print_out("cluster  {} node{} × {} GPUs{}; {} inside each {}-GPU domain{}\n", nodes,
            nodes == 1 ? "" : "s", std::min(c.gpus, c.gpus_per_node),
            rc.system_id.empty() ? "" : fmt::format(" ({})", rc.system_id), c.scale_up->id,
            c.domain, c.gpus > c.domain ? fmt::format(", {} between", c.scale_out->id) : "");
  print_out("prefill  {} tokens: {} of compute per pass on {}\n", w.tokens,
            format_seconds(p.compute), describe_rate(w.rate, p.layout.tp * p.layout.ep));
  print_out("layout   tp {} × ep {} × pp {} × dp {} ({})\n", p.layout.tp, p.layout.ep, p.layout.pp,
            p.layout.dp,
            recommended ? "recommended: " + rationale(c, w, p.layout) : std::string("as given"));
  print_out("memory   {} of weights per GPU, {} usable ({} less a {:g} % reserve for "
            "activations and KV cache, --reserve): {}\n\n",
            format_bytes(p.per_gpu_weights), format_bytes(p.usable_per_gpu),
            format_bytes(c.gpu->hbm_capacity), w.memory_reserve * 100,
            p.fits ? "fits" : "does not fit");

  TextTable table({{"strategy", Align::left},
                   {"degree", Align::right},
                   {"wire", Align::left},
                   {"traffic per pass", Align::right},
                   {"headline", Align::right},
                   {"expected", Align::right},
                   {"verdict", Align::left}});
  std::vector<std::string> reasons;
  for (const StrategyCost& cost : p.strategies) {
    table.add_row({std::string(to_string(cost.strategy)), std::to_string(cost.degree),
                   cost.wire ? cost.wire->id : "-", format_bytes(cost.bytes),
                   cost.wire ? format_seconds(cost.seconds) : "-",
                   cost.expected_seconds ? format_seconds(*cost.expected_seconds) : "-",
                   paint(style, cost.verdict.level)});
    reasons.push_back(fmt::format("  {}: {}", to_string(cost.strategy), strategy_reason(c, cost)));
  }
  print_out("{}\n{}\n\noverall: {} — {}\n", table.render(), fmt::join(reasons, "\n"),
            paint(style, p.level), overall_reason(c, p));
}

Json to_json(const ResolvedCluster& rc, const Workload& w, const Placement& p, bool recommended) {
  const Cluster& c = rc.cluster;
  Json doc = json_document("icx.place/1");
  Json& cluster = doc["cluster"];
  cluster["system"] = rc.system_id.empty() ? Json() : Json(rc.system_id);
  cluster["gpu"] = c.gpu->id;
  cluster["gpus"] = c.gpus;
  cluster["gpus_per_node"] = c.gpus_per_node;
  cluster["scale_up_domain"] = c.domain;
  cluster["scale_up"] = c.scale_up->id;
  cluster["scale_out"] = c.scale_out->id;
  Json& model = doc["model"];
  model["id"] = w.model->id;
  model["dtype"] = w.dtype->id;
  model["total_params"] = json_number(w.model->total_params);
  model["active_params"] = json_number(w.model->active_params);
  doc["tokens"] = w.tokens;
  doc["layout"] = {
      {"tp", p.layout.tp}, {"pp", p.layout.pp}, {"ep", p.layout.ep}, {"dp", p.layout.dp}};
  doc["recommended"] = recommended;
  doc["fits"] = p.fits;
  doc["weights_bytes"] = json_number(p.weights.value());
  doc["per_gpu_weight_bytes"] = json_number(p.per_gpu_weights.value());
  doc["usable_per_gpu_bytes"] = json_number(p.usable_per_gpu.value());
  doc["memory_reserve"] = json_number(w.memory_reserve);
  doc["compute_seconds"] = json_number(p.compute.value());
  Json strategies = Json::array();
  for (const StrategyCost& cost : p.strategies) {
    Json s;
    s["strategy"] = to_string(cost.strategy);
    s["degree"] = cost.degree;
    s["wire"] = cost.wire ? Json(cost.wire->id) : Json();
    s["bytes"] = json_number(cost.bytes.value());
    s["seconds"] = json_number(cost.seconds.value());
    s["expected_seconds"] =
        cost.expected_seconds ? json_number(cost.expected_seconds->value()) : Json();
    s["crosses_domain"] = cost.crosses_domain;
    Json verdict = verdict_json(cost.strategy, cost.wire, cost.verdict);
    verdict["reason"] = strategy_reason(c, cost);
    s["verdict"] = std::move(verdict);
    strategies.push_back(std::move(s));
  }
  doc["strategies"] = std::move(strategies);
  doc["verdict"] = {{"level", to_string(p.level)}, {"reason", overall_reason(c, p)}};
  return doc;
}

int run_place(const PlaceOptions& o) {
  const Catalog catalog = load_catalog(o.common);
  const ResolvedModel model = resolve_model(catalog, o.model);
  if (model.model.total_params <= 0) {
    throw UsageError("placement needs the model's parameter count: pass --params N");
  }
  const ResolvedCluster rc = resolve_cluster(catalog, o);
  Workload workload;
  workload.model = &model.model;
  workload.dtype = &model.dtype;
  workload.tokens = o.tokens;
  workload.rate = resolve_rate(catalog, *rc.cluster.gpu, model.dtype, o.compute);
  workload.memory_reserve = o.reserve;
  if (o.tp) {
    if (const auto problem = tensor_group_problem(attention_shape(model.model), *o.tp)) {
      throw UsageError(fmt::format("--tp {}: {}", *o.tp, *problem));
    }
  }
  const std::optional<Layout> given = given_layout(o, rc.cluster.gpus);
  const Layout layout = given.value_or(recommend_layout(rc.cluster, workload));
  Placement placement;
  try {
    placement = evaluate_layout(rc.cluster, workload, layout);
  } catch (const InputError& error) {
    throw UsageError(fmt::format("--tp/--pp/--ep/--dp: {}", error.what()));
  }
  const Style style = style_of(o.common);
  emit(style, to_json(rc, workload, placement, !given), "strategies",
       style.explain ? derive(workload, placement) : Derivations{},
       [&] { print_table(style, rc, workload, placement, !given); });
  return 0;
}

} // namespace

Command setup_place(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  CLI::App* sub = app.add_subcommand(
      "place", "Recommend (or judge) a layout of a model on a cluster: which split goes on "
               "which wire");
  add_model_options(*sub, o->model);
  sub->add_option("-s,--system", o->system, "Catalog system: a node or rack (see 'icx systems')")
      ->type_name("ID");
  sub->add_option("-g,--gpus", o->gpus, "GPUs in the cluster; default: one node")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  sub->add_option("--gpus-per-node", o->gpus_per_node,
                  "GPUs per node; default: the system's, else the GPU's scale-up domain")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  sub->add_option("--scale-up", o->scale_up, "Link inside a node; default: the GPU's")
      ->type_name("LINK");
  sub->add_option("--scale-out", o->scale_out, "Link between nodes; default: the system's")
      ->type_name("LINK");
  add_compute_options(*sub, o->compute);
  sub->add_option("-t,--tokens", o->tokens, "Tokens in the prefill batch judged")
      ->type_name("N")
      ->default_str("4096")
      ->transform(whole_number(1, limits::max_tokens));
  for (auto [flag, field, what] :
       {std::tuple{"--tp", &o->tp, "Tensor-parallel degree"},
        std::tuple{"--pp", &o->pp, "Pipeline stages"},
        std::tuple{"--ep", &o->ep, "Expert-parallel degree (MoE)"},
        std::tuple{"--dp", &o->dp, "Replicas; default: what the other degrees leave"}}) {
    sub->add_option(flag, *field, std::string(what) + " of an explicit layout to judge")
        ->type_name("N")
        ->transform(whole_number(1, limits::max_domain));
  }
  sub->add_option("--reserve", o->reserve,
                  "Fraction of GPU memory kept for activations and KV cache when checking fit")
      ->type_name("FRACTION")
      ->default_str(fmt::format("{:g}", default_memory_reserve))
      ->transform(unit_fraction());
  add_explain_option(*sub, o->common);
  add_common_options(*sub, o->common);
  sub->footer("Examples:\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16 --tp 16 --dp 1\n"
              "  icx place --model deepseek-v3 --system gb200-nvl72 --json\n"
              "  icx place --model 405b --gpu h100 --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr");
  return {sub, [o] { return run_place(*o); }};
}

} // namespace icx::cli
