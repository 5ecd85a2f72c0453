#include "icx/coldstart_report.hpp"

#include <fmt/format.h>

#include "icx/error.hpp"
#include "icx/json_values.hpp"

namespace icx {

ColdStartReport coldstart_report(const ColdStartRequest& request) {
  if (request.model == nullptr || request.dtype == nullptr) {
    throw InputError("a cold start needs a model and its dtype");
  }
  (void)checked_shard_shape(*request.model, request.gpus);
  ColdStartReport report;
  report.model = request.model;
  report.dtype = request.dtype;
  report.host_link = request.host_link;
  report.storage = request.storage;
  report.load = cold_start(
      {weight_bytes(request.model->total_params, request.dtype->bytes_per_element), request.gpus,
       request.gpus_per_node.value_or(request.gpus), request.host_link, request.storage});
  if (!report.load.expected_floor) {
    report.expected_unavailable = fmt::format(
        "the catalog has no measured host-to-device figure for {}", request.host_link->id);
  }
  report.budget = request.budget;
  if (request.budget) {
    report.within_budget = report.load.floor <= *request.budget;
  }
  return report;
}

void to_json(nlohmann::ordered_json& json, const LoadStage& stage) {
  json["id"] = to_string(stage.id);
  json["bandwidth_bytes_per_s"] = json_number(stage.bandwidth.high.value());
  if (stage.bandwidth.is_range()) {
    json["bandwidth_range_bytes_per_s"] = json_range(stage.bandwidth);
  }
  json["bytes"] = json_number(stage.bytes.value());
  json["seconds"] = json_number(stage.seconds.value());
  json["expected_bandwidth_bytes_per_s"] = json_number(stage.expected_bandwidth);
  json["expected_seconds"] = json_number(stage.expected_seconds);
}

void to_json(nlohmann::ordered_json& json, const ColdStartReport& report) {
  const ColdStart& load = report.load;
  json["gpus"] = load.gpus;
  json["gpus_on_fullest_node"] = load.gpus_on_fullest_node;
  json["nodes"] = load.nodes;
  json["host_link"] = report.host_link->id;
  json["storage"] =
      report.storage != nullptr ? nlohmann::ordered_json(report.storage->id) : nullptr;
  json["weights_bytes"] = json_number(load.weights.value());
  json["per_gpu_bytes"] = json_number(load.per_gpu.value());
  json["floor_seconds"] = json_number(load.floor.value());
  json["expected_floor_seconds"] = json_number(load.expected_floor);
  json["bottleneck"] = to_string(load.bottleneck);
  json["expected_bottleneck"] = load.expected_bottleneck
                                    ? nlohmann::ordered_json(to_string(*load.expected_bottleneck))
                                    : nullptr;
  json["stages"] = load.stages;
  if (report.within_budget) {
    json["budget_seconds"] = json_number(report.budget->value());
    json["within_budget"] = *report.within_budget;
  }
}

} // namespace icx
