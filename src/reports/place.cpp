#include "icx/reports/place.hpp"
#include "icx/base/knob.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/wire/strategies.hpp"
#include "icx/words/ranking.hpp"
#include "icx/words/verdict.hpp"

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

/// A split's verdict reason; a group pushed off the scale-up link says what that costs.
std::string strategy_reason(const Cluster& cluster, const StrategyCost& cost, Phase phase) {
  if (cost.degree <= 1) {
    return "not used (degree 1)";
  }
  std::string reason = verdict_reason(cost.strategy, cost.wire, cost.verdict, pass_name(phase));
  if (!cost.crosses_domain || cost.wire == cluster.scale_up) {
    return reason;
  }
  const std::string_view boundary = cost.wire == cluster.between_domains
                                        ? "leaves its NVLink domain"
                                        : "crosses the node boundary";
  const std::string inside =
      cost.seconds_on_scale_up
          ? fmt::format("{} on {}", format_seconds(*cost.seconds_on_scale_up), cluster.scale_up->id)
          : fmt::format("{} joins at most {} GPUs", cluster.scale_up->id,
                        cluster.scale_up->max_domain_gpus.value_or(cluster.domain));
  return fmt::format("{} {} onto {}: {} vs {}; {}", name_in(short_names, cost.strategy), boundary,
                     cost.wire->id, format_seconds(cost.verdict.comm), inside, reason);
}

/// "the dtype's name (--flag)" lines: what the step model took that icx cannot know.
std::vector<std::string> assumptions_of(const PlaceReport& r) {
  const Workload& w = r.workload;
  const Gpu& gpu = *r.cluster.gpu;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("activations cross the wire in {}, the KV cache holds {} "
                              "({}, {})",
                              w.act_dtype->id, w.kv_dtype->id, Knob::act_dtype, Knob::kv_dtype));
  lines.push_back(w.overlap > 0 ? fmt::format("the engine hides {:g} % of the tensor and expert "
                                              "collectives behind compute ({})",
                                              w.overlap * 100, Knob::overlap)
                                : fmt::format("tensor and expert collectives run between the "
                                              "layers' GEMMs, none hidden ({})",
                                              Knob::overlap));
  lines.push_back(fmt::format(
      "HBM reaches {:g} % of {}{} ({})", w.hbm_fraction * 100, format_rate(gpu.hbm_bandwidth),
      gpu.achievable_hbm_fraction ? fmt::format(" (catalog gpu '{}')", gpu.id)
                                  : std::string(": no measurement in the catalog"),
      Knob::hbm_fraction));
  if (r.load) {
    lines.push_back(fmt::format(
        "a steady load of {:g} requests/s (Poisson) of {} prompt + {} output tokens, prefilled "
        "in chunks of {} tokens inside the decode steps; decode at their mean context ({}, {}, {}, "
        "{})",
        r.load->rate, r.load->input, r.load->output, r.load->prefill_chunk, Knob::rate, Knob::input,
        Knob::output, Knob::prefill_chunk));
  }
  lines.push_back(w.batch ? fmt::format("{} sequences in flight across the cluster ({})", *w.batch,
                                        r.load ? fmt::format("Little's law at {}, unless {} says",
                                                             Knob::rate, Knob::batch)
                                               : fmt::format("{}", Knob::batch))
                          : fmt::format("each layout at the largest batch its memory holds, at "
                                        "most {} sequences per replica ({}, {})",
                                        w.max_batch, Knob::batch, Knob::max_batch));
  if (w.model->is_moe()) {
    lines.push_back(fmt::format("tokens route uniformly to {} of {} experts{}; an expert group "
                                "runs attention data-parallel, each rank for its own sequences "
                                "({}, {}, {})",
                                w.model->experts_per_token, w.model->experts,
                                ep_routing_text(w.ep_routing), Knob::skew, Knob::redundant_experts,
                                Knob::max_nodes_per_token));
    lines.push_back(fmt::format("expert-parallel dispatch and combine by {}; dispatch in {}, "
                                "combine in {} ({}, {}, {})",
                                ep_mode_text(w.ep_kernels()), w.dispatch_dtype->id, w.act_dtype->id,
                                Knob::ep_mode, Knob::dispatch_dtype, Knob::act_dtype));
  }
  lines.emplace_back("a pipeline keeps one micro-batch per stage in flight; one request "
                     "passes the stages one after another");
  lines.push_back(fmt::format("all-reduces run by {} ({})",
                              implementation_text(w.setup.implementation), Knob::impl));
  const Link* scale_out = r.cluster.scale_out == r.cluster.scale_up ? nullptr : r.cluster.scale_out;
  for (const Link* link : {r.cluster.scale_up, r.cluster.between_domains, scale_out}) {
    if (link != nullptr && !link->topologies.empty()) {
      lines.push_back(fmt::format("{} topology: {} ({})", link->id,
                                  topology_text(*link, w.setup.topology), Knob::pcie_topology));
    }
  }
  return lines;
}

Derivations derive(const PlaceReport& r) {
  const Workload& w = r.workload;
  const Placement& p = r.placement();
  const Layout& l = p.layout;
  const StepTime& s = p.step;
  Derivations d;
  d.push_back({"weights",
               fmt::format("{} params × {} B", format_count(w.model->total_params),
                           w.dtype->bytes_per_element),
               p.weights.value(), format_count(p.weights.value()) + " B"});
  d.push_back({"weights per GPU",
               fmt::format("shared part / (tp {} × pp {}) + experts / (tp {} × ep {} × pp {})",
                           l.tp, l.pp, l.tp, l.ep, l.pp),
               p.memory.weights_per_gpu.value(),
               format_count(p.memory.weights_per_gpu.value()) + " B"});
  d.push_back({"KV cache per GPU",
               fmt::format("{} B per token × sequences × length, per stage and KV split",
                           format_count(kv_bytes_per_token(*w.model, *w.kv_dtype).value())),
               p.memory.kv_per_gpu.value(), format_count(p.memory.kv_per_gpu.value()) + " B"});
  d.push_back({"compute per stage",
               fmt::format("{} FLOP / ({} × {})", format_count(s.work.flops.value()),
                           format_flops_rate(w.rate.peak), w.rate.utilization),
               s.work.compute.value(), format_seconds(s.work.compute)});
  d.push_back({"memory per stage",
               fmt::format("{} B / ({} × {})", format_count(s.work.read.value()),
                           format_rate(r.cluster.gpu->hbm_bandwidth), w.hbm_fraction),
               s.work.memory.value(), format_seconds(s.work.memory)});
  d.push_back({"stage",
               fmt::format("max({}, {}) + {} exposed", format_seconds(s.work.compute),
                           format_seconds(s.work.memory), format_seconds(s.exposed_comm)),
               s.stage.value(), format_seconds(s.stage)});
  d.push_back({w.phase == Phase::prefill ? "TTFT" : "TPOT",
               fmt::format("pp {} × {} + {} of sends", l.pp, format_seconds(s.stage),
                           format_seconds(s.pipeline)),
               s.latency.value(), format_seconds(s.latency)});
  return d;
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
  // Absent from both: one NIC per GPU, as rail-optimised nodes have.
  c.nics_per_node =
      request.nics_per_node.value_or(system != nullptr ? system->nics_per_node : c.gpus_per_node);
  c.scale_up = request.scale_up;
  if (system != nullptr && !system->between_domains_link.empty()) {
    // A node of several scale-up domains (bridged pairs) joins them over its own PCIe.
    const auto between = std::ranges::find_if(
        links, [&](const Link& link) { return link_is(link, system->between_domains_link); });
    c.between_domains = between != links.end() ? &*between : nullptr;
  }
  const int domain = system != nullptr ? system->scale_up_domain : c.gpu->scale_up_domain;
  c.domain = std::min(domain, c.gpus_per_node);
  if (const Check whole = check_whole_nodes(c.gpus, c.gpus_per_node); !whole) {
    throw ClusterError(ClusterIssue::ragged_nodes, ClusterPart::scale_out, c, whole.reason());
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

namespace {

/// The request's load on the cluster's GPU with its chunk, and the serving request it makes: a
/// decode step at the load's mean context.
struct LoadSetup {
  Load load;
  LoadWorkloads workloads;
  ServingRequest serving;
};

std::optional<LoadSetup> load_setup(const Catalog& catalog, const PlaceRequest& request) {
  if (!request.load) {
    return std::nullopt;
  }
  const Gpu& gpu = *request.cluster.gpu;
  LoadSetup setup;
  setup.load = *request.load;
  setup.load.prefill_chunk = request.prefill_chunk.value_or(default_prefill_chunk(gpu));
  setup.workloads =
      load_workloads(catalog, *request.model, *request.dtype, gpu, request.serving, setup.load);
  setup.serving = request.serving;
  setup.serving.phase = Phase::decode;
  setup.serving.context = setup.workloads.decode.context;
  return setup;
}

} // namespace

PlaceReport place_figures(const Catalog& catalog, const PlaceRequest& request) {
  PlaceReport report;
  report.cluster = request.cluster;
  report.system = request.system;
  const Cluster& c = report.cluster;
  report.nodes = (c.gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  const std::optional<LoadSetup> load = load_setup(catalog, request);
  report.workload = workload_for(catalog, *request.model, *request.dtype, *c.gpu,
                                 load ? load->serving : request.serving);
  report.objective = request.serving.objective;
  report.recommended = !request.layout.given();
  if (const std::optional<int> tp = request.layout.tp) {
    if (const Check check = check_tensor_group(attention_shape(*request.model), *tp); !check) {
      throw LayoutError(fmt::format("tp {}", *tp), check.reason());
    }
  }
  if (!report.recommended) {
    try {
      evaluate_layout(c, report.workload, given_layout(request.layout, c.gpus));
    } catch (const InputError& error) {
      throw LayoutError("", error.what());
    }
  }
  report.ranked = rank_layouts(c, report.workload, report.objective);
  if (load && !request.serving.batch) {
    // Little's law for the layout judged (given, else the best at one request), then the
    // ranking again at that many requests in flight.
    const Layout judged = report.recommended ? report.ranked.front().placement.layout
                                             : given_layout(request.layout, c.gpus);
    report.workload.batch = serve_at_load(c, load->workloads, judged, load->load).batch;
    report.ranked = rank_layouts(c, report.workload, report.objective);
  }
  report.chosen =
      report.recommended ? 0 : rank_of(report.ranked, given_layout(request.layout, c.gpus));
  if (load) {
    report.load = load->load;
    report.loaded = serve_at_load(c, load->workloads, report.placement().layout, load->load,
                                  report.workload.batch);
  }
  return report;
}

PlaceReport place_report(const Catalog& catalog, const PlaceRequest& request) {
  PlaceReport report = place_figures(catalog, request);
  const Cluster& c = report.cluster;
  write_reasons(report.ranked, report.workload.phase, report.objective);
  const Placement& p = report.placement();
  for (const StrategyCost& cost : p.strategies) {
    report.strategy_reasons.push_back(strategy_reason(c, cost, report.workload.phase));
  }
  report.compute_assumption = describe_rate(report.workload.rate, p.layout.tp * p.layout.ep);
  report.assumptions = assumptions_of(report);
  report.derivations = derive(report);
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
  cluster["nics_per_node"] = c.nics_per_node;
  cluster["scale_up"] = c.scale_up->id;
  cluster["scale_out"] = c.scale_out->id;
  cluster["between_domains"] = c.between_domains != nullptr ? Json(c.between_domains->id) : Json();
  return cluster;
}

Json strategy_json(const StrategyCost& cost, const std::string& reason, Phase phase) {
  Json s;
  s["strategy"] = to_string(cost.strategy);
  s["degree"] = cost.degree;
  s["wire"] = cost.wire != nullptr ? Json(cost.wire->id) : Json();
  s["bytes"] = json_number(cost.bytes.value());
  s["seconds"] = json_number(cost.seconds.value());
  s["expected_seconds"] =
      cost.expected_seconds ? json_number(cost.expected_seconds->value()) : Json();
  s["crosses_domain"] = cost.crosses_domain;
  Json verdict = verdict_json(cost.strategy, cost.wire, cost.verdict, pass_name(phase));
  verdict["reason"] = reason;
  s["verdict"] = std::move(verdict);
  return s;
}

Json model_json(const Workload& w) {
  return {{"id", w.model->id},
          {"dtype", w.dtype->id},
          {"act_dtype", w.act_dtype->id},
          {"kv_dtype", w.kv_dtype->id},
          {"total_params", json_number(w.model->total_params)},
          {"active_params", json_number(w.model->active_params)},
          {"kv_bytes_per_token", json_number(kv_bytes_per_token(*w.model, *w.kv_dtype).value())}};
}

} // namespace

void to_json(Json& json, const PlaceReport& report) {
  const Workload& w = report.workload;
  const RankedLayout& chosen = report.chosen_layout();
  const Placement& p = chosen.placement;
  json = json_document("icx.place/2");
  json["cluster"] = cluster_json(report);
  json["model"] = model_json(w);
  json["objective"] = to_string(report.objective);
  json["phase"] = to_string(w.phase);
  json["tokens"] = w.phase == Phase::prefill ? Json(w.tokens) : Json();
  json["context"] = w.phase == Phase::decode ? Json(w.context) : Json();
  json["layout"] = layout_json(p.layout);
  json["recommended"] = report.recommended;
  json["rank"] = report.chosen + 1;
  json["fits"] = p.fits();
  json["weights_bytes"] = json_number(p.weights.value());
  json["per_gpu_weight_bytes"] = json_number(p.memory.weights_per_gpu.value());
  json["usable_per_gpu_bytes"] = json_number(p.memory.usable_per_gpu.value());
  json["memory_reserve"] = json_number(w.memory_reserve);
  Json strategies = Json::array();
  for (std::size_t i = 0; i < p.strategies.size(); ++i) {
    strategies.push_back(strategy_json(p.strategies[i], report.strategy_reasons[i], w.phase));
  }
  json["strategies"] = std::move(strategies);
  const Json figures = ranked_layout_json(chosen, w.phase);
  for (const char* key : {"memory", "batch", "step", "tokens_per_second_per_gpu"}) {
    json[key] = figures[key];
  }
  const char* latency = w.phase == Phase::prefill ? "ttft_seconds" : "tpot_seconds";
  json[latency] = figures[latency];
  json["verdict"] = figures["verdict"];
  json["assumptions"] = report.assumptions;
  Json layouts = Json::array();
  for (const RankedLayout& r : report.ranked) {
    layouts.push_back(ranked_layout_json(r, w.phase));
  }
  json["layouts"] = std::move(layouts);
  json["load"] = report.loaded ? loaded_json(*report.loaded, *report.load) : Json();
}

} // namespace icx
