#include "icx/reports/place.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/catalog/group_rules.hpp"
#include "icx/serving/engine.hpp"
#include "icx/wire/strategies.hpp"
#include "icx/words/launch.hpp"
#include "icx/words/place.hpp"
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
  const int stage = layout.tp * layout.ep;
  if (given.moe_tp && (layout.tp % *given.moe_tp != 0)) {
    throw LayoutError(fmt::format("moe-tp {}", *given.moe_tp),
                      fmt::format("each expert is split over a divisor of --tp ({}), e.g. 1 "
                                  "(whole experts spread over all {} GPUs of the stage)",
                                  layout.tp, stage));
  }
  if (given.moe_tp && given.moe_ep && *given.moe_tp * *given.moe_ep != stage) {
    throw LayoutError(fmt::format("moe-tp {}", *given.moe_tp),
                      fmt::format("with --moe-ep {}, the experts' split times their spread "
                                  "must be the stage's {} GPUs (tp × ep); give one of the two",
                                  *given.moe_ep, stage));
  }
  const std::optional<int> moe_ep =
      given.moe_tp ? std::optional(stage / *given.moe_tp) : given.moe_ep;
  if (moe_ep && *moe_ep != layout.ep) {
    if (*moe_ep < layout.ep || stage % *moe_ep != 0 || *moe_ep % layout.ep != 0) {
      throw LayoutError(fmt::format("moe-ep {}", *moe_ep),
                        fmt::format("the experts spread over a multiple of --ep ({}) "
                                    "that divides tp × ep ({}), e.g. {}",
                                    layout.ep, stage, stage));
    }
    layout.moe_tp = stage / *moe_ep;
  }
  return layout;
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
  const Engine& engine = engine_of(catalog, request.serving.engine);
  setup.load = *request.load;
  setup.load.prefill_chunk =
      prefill_chunk_or_default(request.serving.prefill_chunk, engine, gpu, *request.model);
  check_prefix_cache(engine, setup.load.prefix_hit,
                     request.traffic ? request.traffic->warm_prompts : 0);
  setup.load.prefix_block = prefix_block(engine);
  setup.load.kv_admission = engine.kv_admission;
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
    const Layout given = given_layout(request.layout, c.gpus);
    try {
      evaluate_layout(c, report.workload, given);
    } catch (const InputError& error) {
      throw LayoutError("", error.what());
    }
  }
  const bool closed_loop = request.traffic && request.traffic->arrivals == Arrivals::closed;
  if (closed_loop && !request.serving.batch) {
    // A closed loop keeps its clients in flight, or as many as memory holds (the rest wait).
    report.workload.batch = request.traffic->concurrency;
  }
  report.ranked = rank_layouts(c, report.workload, report.objective);
  if (closed_loop && !request.serving.batch && !report.ranked.front().placement.fits()) {
    report.workload.batch.reset();
    report.ranked = rank_layouts(c, report.workload, report.objective);
  }
  if (load && !closed_loop && !request.serving.batch) {
    // Little's law for the layout judged (given, else the best at one request), then the
    // ranking again at that many requests in flight.
    const Layout judged = report.recommended ? report.ranked.front().placement.layout
                                             : given_layout(request.layout, c.gpus);
    report.workload.batch = serve_at_load(c, load->workloads, judged, load->load).batch;
    report.ranked = rank_layouts(c, report.workload, report.objective);
  }
  report.chosen =
      report.recommended ? 0 : rank_of(report.ranked, given_layout(request.layout, c.gpus));
  if (load && request.traffic) {
    report.simulated =
        simulate_load(c, load->workloads, report.placement().layout, load->load,
                      engine_of(catalog, request.serving.engine).policy, *request.traffic);
  }
  if (load && !closed_loop) {
    // An open loop by the closed form too: the answer of --fast, and a cross-check.
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
  report.compute_assumption = describe_pricing(report.workload, p.layout.tp * p.layout.ep);
  report.assumptions = place_assumptions(report.workload, report.cluster, report.load);
  if (report.simulated) {
    report.assumptions.push_back(simulation_assumption(*report.simulated));
  }
  report.derivations = place_derivations(report.workload, report.cluster, report.placement());
  if (request.emit) {
    const Engine& engine = engine_of(catalog, request.serving.engine);
    LaunchRequest launch{
        &engine,
        request.model,
        request.dtype,
        &report.workload,
        p.layout,
        &report.cluster,
        prefill_chunk_or_default(request.serving.prefill_chunk, engine, *c.gpu, *request.model)};
    report.launch = launch_command(launch);
    write_launch_words(*report.launch);
  }
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
  const GpuTuning* tuning = report.workload.gpu_tuning;
  cluster["tuning"] = tuning != nullptr ? Json(tuning->id) : Json();
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
  Json model = {{"id", w.model->id}, {"dtype", w.dtype->id}};
  if (w.experts_dtype().id != w.dtype->id) {
    model["expert_dtype"] = w.experts_dtype().id;
  }
  model["act_dtype"] = w.act_dtype->id;
  model["kv_dtype"] = w.kv_dtype->id;
  model["total_params"] = json_number(w.model->total_params);
  model["active_params"] = json_number(w.model->active_params);
  model["kv_bytes_per_token"] = json_number(kv_bytes_per_token(*w.model, *w.kv_dtype).value());
  return model;
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
  json["memory_reserve"] = w.memory_reserve ? json_number(*w.memory_reserve) : Json();
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
  json["simulation"] = report.simulated ? simulated_json(*report.simulated) : Json();
  if (report.launch) {
    json["launch"] = *report.launch;
  }
}

} // namespace icx
