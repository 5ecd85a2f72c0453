// icx tp's JSON document: the model, the traffic, and per wire its times, compute and verdict.
#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/reports/collective.hpp"
#include "icx/reports/tp.hpp"
#include "icx/words/verdict.hpp"

namespace icx {

namespace {

Json model_json(const TpRequest& request) {
  Json m;
  m["id"] = request.model_id;
  m["hidden"] = request.shape.hidden;
  m["layers"] = request.shape.layers;
  m["dtype"] = request.dtype != nullptr ? Json(request.dtype->id) : Json();
  m["bytes_per_element"] = json_number(request.dtype != nullptr ? request.dtype->bytes_per_element
                                                                : request.shape.bytes_per_element);
  m["act_dtype"] =
      request.serving.act_dtype != nullptr ? Json(request.serving.act_dtype->id) : Json();
  m["act_bytes_per_element"] = json_number(request.shape.bytes_per_element);
  if (const Dtype* kv = request.serving.kv_dtype; request.model != nullptr && kv != nullptr) {
    m["kv_dtype"] = kv->id;
    m["kv_bytes_per_token"] = json_number(kv_bytes_per_token(*request.model, *kv).value());
  }
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
  put_route(j, w.kernel, w.topology);
  j["compute"] = compute_json(w);
  if (w.judged) {
    Json figures = ranked_layout_json(*w.judged, phase);
    for (const char* key :
         {"memory", "batch", "step", "ttft_seconds", "tpot_seconds", "tokens_per_second_per_gpu"}) {
      if (figures.contains(key)) {
        j[key] = figures[key];
      }
    }
    j["rank"] = w.rank;
    j["layouts"] = w.layouts;
    j["verdict"] = figures["verdict"];
  } else {
    j["verdict"] = Json();
  }
  return j;
}

} // namespace

void to_json(Json& json, const TpReport& report) {
  const ServingRequest& serving = report.request.serving;
  json = json_document("icx.tp/2");
  json["phase"] = to_string(serving.phase);
  json["impl"] = to_string(serving.setup.implementation);
  json["objective"] = to_string(serving.objective);
  json["model"] = model_json(report.request);
  json["tokens"] = report.request.tokens();
  json["context"] = serving.phase == Phase::decode ? Json(serving.context) : Json();
  json["traffic"] = traffic_json(report);
  Json wires = Json::array();
  for (const TpWire& w : report.wires) {
    wires.push_back(wire_json(w, serving.phase));
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
