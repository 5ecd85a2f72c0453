#include "icx/reports/ep.hpp"

#include <fmt/format.h>

#include "icx/serving/serving.hpp"
#include "icx/words/ep.hpp"

namespace icx {

namespace {

constexpr double high_throughput_tokens = 4096;
constexpr double low_latency_tokens = 128;

Json kernel_json(const EpKernelCost& k, Bytes token) {
  return {{"bytes_per_token", json_number(token.value())},
          {"bytes_per_gpu", json_number(k.bytes().value())},
          {"network_bytes_per_gpu", json_number(k.network.value())},
          {"scale_up_bytes_per_gpu", json_number(k.scale_up.value())},
          {"headline_seconds", json_number(k.headline.value())},
          {"expected_seconds", json_number(k.expected)}};
}

} // namespace

double default_tokens_per_gpu(EpMode mode) {
  return mode == EpMode::low_latency ? low_latency_tokens : high_throughput_tokens;
}

EpReport expert_parallel_report(const EpRequest& request) {
  EpReport report;
  report.request = request;
  report.layer = ep_layer_cost(request);
  report.moe_layers = param_split(*request.model).moe_layers;
  report.experts_per_gpu =
      (request.model->experts + request.routing.redundant_experts) / request.gpus;
  report.assumptions = ep_assumptions(report.request, report.layer);
  return report;
}

void to_json(Json& json, const EpReport& r) {
  const EpRequest& q = r.request;
  const Fabric& f = q.fabric;
  const int per_node = std::min(f.gpus_per_node, q.gpus);
  const bool leaves = q.gpus > per_node;
  json = json_document("icx.ep/1");
  json["model"] = q.model->id;
  json["mode"] = to_string(q.mode);
  json["gpus"] = q.gpus;
  json["nodes"] = q.gpus / per_node;
  json["fabric"] = {{"scale_up", f.scale_up->id},
                    {"gpus_per_node", per_node},
                    {"scale_out", leaves ? Json(f.scale_out->id) : Json()},
                    {"nics_per_node", leaves ? Json(f.nics_per_node) : Json()}};
  json["tokens_per_gpu"] = json_number(q.tokens_per_gpu);
  json["moe_layers"] = r.moe_layers;
  json["experts_per_gpu"] = r.experts_per_gpu;
  const EpDestinations& d = r.layer.destinations;
  json["routing"] = {{"experts", q.model->experts},
                     {"experts_per_token", q.model->experts_per_token},
                     {"limit", d.limit},
                     {"groups", d.groups},
                     {"groups_per_token", d.groups_per_token},
                     {"max_nodes_per_token", d.max_nodes},
                     {"expected_nodes_per_token", json_number(d.nodes)},
                     {"expected_gpus_per_token", json_number(d.gpus)},
                     {"skew", json_number(q.routing.skew)},
                     {"redundant_experts", q.routing.redundant_experts}};
  json["dispatch_dtype"] = q.dispatch_dtype->id;
  json["combine_dtype"] = q.combine_dtype->id;
  const EpLayerCost& l = r.layer;
  json["per_layer"] = {{"dispatch_bytes_per_gpu", json_number(l.dispatch.bytes().value())},
                       {"combine_bytes_per_gpu", json_number(l.combine.bytes().value())},
                       {"dispatch_seconds", json_number(l.dispatch.expected)},
                       {"combine_seconds", json_number(l.combine.expected)}};
  json["headline"] = {{"dispatch_seconds", json_number(l.dispatch.headline.value())},
                      {"combine_seconds", json_number(l.combine.headline.value())},
                      {"per_pass_seconds", json_number(r.layer.headline(r.moe_layers).value())}};
  json["per_pass"] = {{"bytes_per_gpu", json_number(r.layer.bytes(r.moe_layers).value())},
                      {"seconds", json_number(r.layer.expected(r.moe_layers))}};
  json["kernels"] = Json::array({Json{{"kernel", "dispatch"}}, Json{{"kernel", "combine"}}});
  json["kernels"][0].update(kernel_json(l.dispatch, l.dispatch_token));
  json["kernels"][1].update(kernel_json(l.combine, l.combine_token));
  json["assumptions"] = r.assumptions;
}

} // namespace icx
