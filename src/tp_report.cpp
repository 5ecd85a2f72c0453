#include "icx/tp_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/collectives.hpp"
#include "icx/comm_time.hpp"
#include "icx/error.hpp"
#include "icx/host_link.hpp"
#include "icx/units_format.hpp"
#include "icx/verdict_text.hpp"

namespace icx {

std::string_view pass_name(Phase phase) {
  return phase == Phase::prefill ? "prefill pass" : "decode step";
}

TpRequest tp_request_for(const Model& model, const Dtype& dtype) {
  TpRequest request;
  request.model_id = model.id;
  request.shape = {model.hidden, model.layers, dtype.bytes_per_element};
  request.attention = attention_shape(model);
  request.total_params = model.total_params;
  request.active_params = model.active_params;
  request.dtype = &dtype;
  return request;
}

bool TpReport::judged() const {
  return std::ranges::any_of(wires, [](const TpWire& wire) { return wire.verdict.has_value(); });
}

WireChoice wires_for_group(const Gpu* gpu, std::optional<int> gpus,
                           std::span<const Link* const> links) {
  WireChoice choice;
  for (const Link* link : links) {
    if (const Check check = check_group_link(gpu, gpus, *link); !check) {
      choice.skipped.push_back({link, check.reason()});
    } else {
      choice.usable.push_back(link);
    }
  }
  return choice;
}

namespace {

/// Prefill is compute-bound (2 FLOPs per active parameter per token); a decode step is
/// memory-bound (every weight byte read once from HBM).
Seconds compute_time_of(const TpRequest& request, const TpWire& wire) {
  if (request.phase == Phase::prefill) {
    return compute_time(prefill_flops(request.active_params, request.tokens), wire.gpus,
                        *wire.rate);
  }
  return decode_step_time(weight_bytes(request.total_params, request.shape.bytes_per_element),
                          wire.gpus, wire.gpu->hbm_bandwidth);
}

/// Appends `item` unless it is already there (legends name each GPU or rate once).
void add_once(std::vector<std::string>& items, std::string item) {
  if (std::ranges::find(items, item) == items.end()) {
    items.push_back(std::move(item));
  }
}

/// The facts the legend quotes: wires without an expected model, GPUs assumed, rates.
TpLegend legend_facts(const TpReport& report) {
  TpLegend legend;
  for (const TpWire& w : report.wires) {
    if (!w.expected) {
      legend.no_expected_model.push_back(w.link->id);
    }
    if (!w.gpu_native) {
      add_once(legend.assumed_gpus, w.gpu->id);
    }
    if (w.rate && report.request.phase == Phase::prefill) {
      add_once(legend.assumed_rates,
               fmt::format("{} {} ({}) × {}", w.gpu->id, format_flops_rate(w.rate->peak),
                           w.rate->peak_dtype, w.rate->utilization));
    }
  }
  return legend;
}

/// Which GPU computes: the one asked for, else each wire's own (or an assumed one).
std::string gpu_rule(const TpReport& report) {
  if (report.request.gpu != nullptr) {
    return fmt::format("{}, as --gpu says", report.request.gpu->id);
  }
  const std::vector<std::string>& assumed = report.legend.assumed_gpus;
  return fmt::format("the one whose scale-up link is the wire{}",
                     assumed.empty()
                         ? std::string()
                         : fmt::format(", else {} (change with --gpu)", fmt::join(assumed, ", ")));
}

std::string compute_line(const TpReport& report) {
  const TpRequest& request = report.request;
  if (request.phase == Phase::prefill) {
    return fmt::format("compute = 2 × {} params × {} tokens / GPUs at the GPU's dense peak × its "
                       "utilisation (catalog; --mfu); the GPU is {}\n  assumed: {}",
                       format_params(request.active_params), request.tokens, gpu_rule(report),
                       fmt::join(report.legend.assumed_rates, "; "));
  }
  return fmt::format("compute = {} of weights / GPUs / HBM bandwidth (a decode step reads every "
                     "weight once; KV-cache reads not counted); the GPU is {}",
                     format_bytes(report.weights), gpu_rule(report));
}

std::vector<std::string> legend_lines(const TpReport& report) {
  const TpRequest& request = report.request;
  const std::vector<std::string>& none = report.legend.no_expected_model;
  std::vector<std::string> lines{
      fmt::format("headline = traffic per {} / headline bandwidth (vendor bandwidth, no latency: "
                  "the textbook arithmetic, both directions as the vendor counts them); a range "
                  "gives fast–slow ends.",
                  pass_name(request.phase)),
      fmt::format(
          "expected = {} ring all-reduces of {} each over the GPUs, per-direction "
          "bandwidth × measured efficiency plus per-step latency (see 'icx "
          "collective'){}.",
          report.traffic.allreduces_per_layer * request.shape.layers, format_bytes(report.message),
          none.empty() ? "" : fmt::format("; no expected model for {}", fmt::join(none, ", "))),
      "crossover = all-reduce size at which latency and bandwidth terms are equal: smaller "
      "messages are latency-bound."};
  if (!report.judged()) {
    lines.emplace_back("verdicts need the model's parameter count: pass --params N.");
    return lines;
  }
  lines.push_back(compute_line(report));
  lines.push_back(fmt::format("verdict: {}", verdict_thresholds()));
  return lines;
}

/// The headline all-reduce: 2 · B tokens · H hidden · b bytes per GPU.
std::string per_allreduce_formula(const TpRequest& request) {
  return fmt::format("2 × {} tokens × {} hidden × {} B", request.tokens, request.shape.hidden,
                     request.shape.bytes_per_element);
}

std::vector<TpTrafficTerm> traffic_terms(const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  return {
      {"per all-reduce", traffic.per_allreduce, per_allreduce_formula(report.request)},
      {"per layer", traffic.per_layer, fmt::format("{} all-reduces", traffic.allreduces_per_layer)},
      {fmt::format("per {}", pass_name(report.request.phase)), traffic.per_pass,
       fmt::format("{} layers", report.request.shape.layers)}};
}

/// The traffic terms: per all-reduce, per layer, per pass.
void derive_traffic(const TpReport& report, Derivations& d) {
  const TpRequest& request = report.request;
  const TensorParallelTraffic& traffic = report.traffic;
  d.push_back({"per all-reduce", per_allreduce_formula(request), traffic.per_allreduce.value(),
               format_count(traffic.per_allreduce.value()) + " B"});
  d.push_back({"per layer",
               fmt::format("{} all-reduces × {} B", traffic.allreduces_per_layer,
                           format_count(traffic.per_allreduce.value())),
               traffic.per_layer.value(), format_count(traffic.per_layer.value()) + " B"});
  d.push_back({fmt::format("per {}", pass_name(request.phase)),
               fmt::format("{} layers × {} B", request.shape.layers,
                           format_count(traffic.per_layer.value())),
               traffic.per_pass.value(), format_count(traffic.per_pass.value()) + " B"});
}

/// The compute a wire's verdict weighs and the ratio it judges.
void derive_verdict(const TpReport& report, const TpWire& w, Derivations& d) {
  const TpRequest& request = report.request;
  const std::string compute =
      request.phase == Phase::prefill
          ? fmt::format("2 × {} params × {} tokens / {} GPUs / ({} × {})",
                        format_count(request.active_params), request.tokens, w.gpus,
                        format_flops_rate(w.rate->peak), w.rate->utilization)
          : fmt::format("{} params × {} B / {} GPUs / {}", format_count(request.total_params),
                        request.shape.bytes_per_element, w.gpus, format_rate(w.gpu->hbm_bandwidth));
  d.push_back({fmt::format("compute for {}", w.link->id), compute, w.verdict->compute.value(),
               format_seconds(w.verdict->compute)});
  d.push_back(
      {fmt::format("ratio on {}", w.link->id),
       fmt::format("{} / {}", format_seconds(w.verdict->comm), format_seconds(w.verdict->compute)),
       w.verdict->ratio, format_ratio(w.verdict->ratio)});
}

Derivations derive(const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  Derivations d;
  derive_traffic(report, d);
  for (const TpWire& w : report.wires) {
    d.push_back({fmt::format("headline on {}", w.link->id),
                 fmt::format("{} B / {}", format_count(traffic.per_pass.value()),
                             format_rate(w.link->headline_bandwidth.high)),
                 w.headline.low.value(), format_seconds(w.headline.low)});
    if (w.expected) {
      d.push_back({fmt::format("expected on {}", w.link->id),
                   fmt::format("{} all-reduces × ring all-reduce of {} B over {} GPUs",
                               traffic.allreduces_per_layer * report.request.shape.layers,
                               format_count(report.message.value()), w.gpus),
                   w.expected->value(), format_seconds(*w.expected)});
    }
    if (w.verdict) {
      derive_verdict(report, w, d);
    }
  }
  return d;
}

/// The group on one wire: its GPU and size. Throws GroupError when it cannot exist there.
TpWire group_on(const Catalog& catalog, const TpRequest& request, const WireTime& time) {
  TpWire wire;
  wire.link = time.link;
  wire.headline = time.seconds;
  wire.gpu = request.gpu;
  if (wire.gpu == nullptr) {
    wire.gpu = &gpu_for_link(catalog, *time.link, wire.gpu_native);
  }
  wire.gpus = request.gpus.value_or(wire.gpu->scale_up_domain);
  Check check = check_tensor_allreduce(request.attention, wire.gpus);
  if (check) {
    check = check_group_link(request.gpu, wire.gpus, *time.link);
  }
  if (!check) {
    throw GroupError(request.gpus ? check.reason()
                                  : fmt::format("{} (the group is the {}-GPU scale-up domain of "
                                                "catalog gpu '{}', scale_up_domain)",
                                                check.reason(), wire.gpus, wire.gpu->id));
  }
  return wire;
}

/// The expected time, crossover and (with a parameter count) the verdict of `wire`.
void judge_wire(const Catalog& catalog, const TpReport& report, const WireTime& time,
                TpWire& wire) {
  const TpRequest& request = report.request;
  const CollectiveRequest one{Collective::all_reduce, Algorithm::ring, wire.gpus, report.message};
  const CommTime comm = comm_time(*time.link, report.traffic.per_pass, one,
                                  report.traffic.allreduces_per_layer * request.shape.layers);
  if (const Check check = check_expected_model(*time.link, one.algorithm); !check) {
    wire.expected = unexpected(check.reason());
  } else {
    if (comm.expected) {
      wire.expected = *comm.expected;
    }
    wire.crossover = crossover_size(*time.link, one);
  }
  if (request.active_params > 0 && request.dtype != nullptr) {
    wire.rate = compute_rate(*wire.gpu, *request.dtype, catalog.dtypes(),
                             request.utilization.value_or(wire.gpu->achievable_mfu));
    wire.verdict =
        judge(Strategy::tensor, time.link, comm.judged(), compute_time_of(request, wire));
    wire.verdict->expected_model = comm.expected.has_value();
    wire.reason =
        verdict_reason(Strategy::tensor, time.link, *wire.verdict, pass_name(request.phase));
  }
}

} // namespace

TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                std::span<const Link* const> links) {
  TpReport report;
  report.request = request;
  report.weights = weight_bytes(request.total_params, request.shape.bytes_per_element);
  report.traffic = tensor_parallel_traffic(request.shape, request.tokens);
  report.message = Bytes::of(static_cast<double>(request.tokens) * request.shape.hidden *
                             request.shape.bytes_per_element);
  for (const WireTime& time : headline_times(report.traffic.per_pass, links)) {
    TpWire wire = group_on(catalog, request, time);
    judge_wire(catalog, report, time, wire);
    report.wires.push_back(std::move(wire));
  }
  report.traffic_terms = traffic_terms(report);
  report.legend = legend_facts(report);
  report.legend.lines = legend_lines(report);
  report.derivations = derive(report);
  return report;
}

TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                const WireChoice& wires) {
  TpReport report = tensor_parallel_report(catalog, request, wires.usable);
  report.skipped = wires.skipped;
  return report;
}

namespace {

Json model_json(const TpRequest& request) {
  Json m;
  m["id"] = request.model_id;
  m["hidden"] = request.shape.hidden;
  m["layers"] = request.shape.layers;
  m["dtype"] = request.dtype != nullptr ? Json(request.dtype->id) : Json();
  m["bytes_per_element"] = json_number(request.shape.bytes_per_element);
  m["total_params"] = json_number(request.total_params);
  m["active_params"] = json_number(request.active_params);
  m["overridden"] = request.overridden;
  return m;
}

Json traffic_json(const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  Json t;
  t["per_allreduce_bytes"] = json_number(traffic.per_allreduce.value());
  t["allreduce_message_bytes"] = json_number(report.message.value());
  t["allreduces_per_layer"] = traffic.allreduces_per_layer;
  t["per_layer_bytes"] = json_number(traffic.per_layer.value());
  t["total_bytes"] = json_number(traffic.per_pass.value());
  return t;
}

Json compute_json(const TpWire& w) {
  Json compute = Json::object();
  compute["gpu"] = w.gpu->id;
  compute["gpus"] = w.gpus;
  if (w.rate) {
    compute["peak_dtype"] = w.rate->peak_dtype;
    compute["peak_flop_per_s"] = json_number(w.rate->peak.value());
    compute["utilization"] = json_number(w.rate->utilization);
  }
  return compute;
}

Json wire_json(const TpWire& w, Phase phase) {
  const Link& link = *w.link;
  Json j;
  j["id"] = link.id;
  j["name"] = link.name;
  j["tier"] = to_string(link.tier);
  j["bandwidth_bytes_per_s"] = json_number(link.headline_bandwidth.high.value());
  j["bandwidth_convention"] = to_string(link.headline_convention);
  j["seconds"] = json_number(w.headline.low.value());
  if (link.headline_bandwidth.is_range()) {
    j["bandwidth_range_bytes_per_s"] = json_range(link.headline_bandwidth);
    j["seconds_range"] = json_range(w.headline);
  }
  j["expected_seconds"] = w.expected ? json_number(w.expected->value()) : Json();
  if (!w.expected) {
    j["expected_unavailable"] = w.expected.reason();
  }
  j["crossover_bytes"] = w.crossover ? json_number(w.crossover->value()) : Json();
  j["compute"] = compute_json(w);
  j["verdict"] =
      w.verdict ? verdict_json(Strategy::tensor, &link, *w.verdict, pass_name(phase)) : Json();
  return j;
}

} // namespace

void to_json(Json& json, const TpReport& report) {
  json = json_document("icx.tp/1");
  json["phase"] = to_string(report.request.phase);
  json["model"] = model_json(report.request);
  json["tokens"] = report.request.tokens;
  json["traffic"] = traffic_json(report);
  Json wires = Json::array();
  for (const TpWire& w : report.wires) {
    wires.push_back(wire_json(w, report.request.phase));
  }
  json["wires"] = std::move(wires);
  if (!report.skipped.empty()) {
    Json skipped = Json::array();
    for (const SkippedWire& wire : report.skipped) {
      skipped.push_back({{"id", wire.link->id}, {"reason", wire.reason}});
    }
    json["skipped_wires"] = std::move(skipped);
  }
}

} // namespace icx
