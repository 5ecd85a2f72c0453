#include "icx/reports/ep.hpp"
#include "icx/base/knob.hpp"

#include <fmt/format.h>

#include "icx/serving/serving.hpp"

namespace icx {

namespace {

constexpr double high_throughput_tokens = 4096;
constexpr double low_latency_tokens = 128;

/// "1 node", "4 nodes".
std::string node_count(int nodes) {
  return fmt::format("{} node{}", nodes, nodes == 1 ? "" : "s");
}

std::string kernel_figures(const EpReport& r) {
  const Fabric& f = r.request.fabric;
  const bool leaves = r.request.gpus > f.gpus_per_node;
  const Link& link = leaves ? *f.scale_out : *f.scale_up;
  if (r.request.mode == EpMode::nccl) {
    return fmt::format("NCCL's all-to-all under the expected model, each token sent once per "
                       "chosen expert ({})",
                       Knob::mode);
  }
  if (!r.layer.dispatch.expected) {
    return fmt::format("{} has no expected model: headline only ({})", link.id, Knob::mode);
  }
  if (r.layer.dispatch.nccl_figures || r.layer.combine.nccl_figures) {
    return fmt::format("no published expert-parallel figures on {}: its NCCL efficiency and step "
                       "latency stand in for DeepEP's ({} nccl prices NCCL's all-to-all)",
                       link.id, Knob::mode);
  }
  return fmt::format("DeepEP's kernels at the catalog's figures for {}{}, fitted to published "
                     "DeepEP runs ('icx links {}')",
                     link.id, leaves ? fmt::format(" and {}", f.scale_up->id) : std::string(),
                     link.id);
}

std::vector<std::string> assumptions_of(const EpReport& r) {
  const EpRequest& q = r.request;
  const EpDestinations& d = r.layer.destinations;
  std::vector<std::string> lines;
  lines.push_back(
      fmt::format("each GPU dispatches its own {} tokens (data-parallel attention) ({})",
                  q.tokens_per_gpu, Knob::tokens_per_gpu));
  std::string routing = "tokens route uniformly among the experts they may use";
  const bool nodes = q.gpus > q.fabric.gpus_per_node;
  if (d.limit == "model") {
    routing += fmt::format(": {} of the model's {} expert groups{}", d.groups_per_token, d.groups,
                           nodes ? ", so at most " + node_count(d.max_nodes) : "");
  } else if (d.limit == "flag" && nodes) {
    routing += ": those on at most " + node_count(d.max_nodes);
  }
  lines.push_back(fmt::format("{} ({})", routing, Knob::max_nodes_per_token));
  lines.push_back(
      fmt::format("the busiest GPU carries {}× the mean traffic ({})", q.routing.skew, Knob::skew));
  lines.push_back(fmt::format("dispatch in {}{}, combine in {} ({}, {})", q.dispatch_dtype->id,
                              q.dispatch_dtype->bytes_per_element <= 1
                                  ? fmt::format(" with one {}-byte scale per {} values",
                                                fp8_scale_bytes, fp8_elements_per_scale)
                                  : "",
                              q.combine_dtype->id, Knob::dispatch_dtype, Knob::combine_dtype));
  lines.push_back(fmt::format("{} redundant experts ({}): they add weights, not traffic",
                              q.routing.redundant_experts, Knob::redundant_experts));
  lines.push_back(kernel_figures(r));
  return lines;
}

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
  report.assumptions = assumptions_of(report);
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
