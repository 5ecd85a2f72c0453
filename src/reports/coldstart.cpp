#include "icx/reports/coldstart.hpp"

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/json_values.hpp"
#include "icx/serving/serving.hpp"

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
  const ColdStartInput path{
      model_weight_bytes(*request.model, *request.dtype,
                         request.expert_dtype != nullptr ? *request.expert_dtype : *request.dtype),
      request.gpus,
      request.gpus_per_node.value_or(request.gpus),
      request.host_link,
      request.storage,
      request.gpus_per_uplink};
  report.load = cold_start(path);
  if (!report.load.expected_floor) {
    report.expected_unavailable = fmt::format(
        "the catalog has no measured host-to-device figure for {}", request.host_link->id);
  }
  for (const Loader& loader : request.loaders) {
    report.loads.push_back(expected_load(path, loader));
    if (&loader == request.loader) {
      report.load_time = report.loads.back();
    }
  }
  if (request.loader != nullptr && !report.load_time) {
    report.load_time = expected_load(path, *request.loader);
  }
  report.budget = request.budget;
  if (request.budget) {
    report.budget_basis = report.load_time ? BudgetBasis::expected_load : BudgetBasis::floor;
    const Seconds gated = report.load_time ? report.load_time->total : report.load.floor;
    report.within_budget = gated <= *request.budget;
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

void to_json(nlohmann::ordered_json& json, const ExpectedLoad& load) {
  json["id"] = load.loader->id;
  json["path"] = load.warm ? "warm" : "cold";
  json["ranks_per_node"] = load.ranks;
  json["node_bytes"] = json_number(load.node_bytes.value());
  json["read_bytes_per_s"] = json_number(load.read_rate.value());
  json["read_limit"] = to_string(load.read_limit);
  json["read_seconds"] = json_number(load.read.value());
  json["copy_bytes_per_s"] = json_number(load.copy_rate.value());
  json["copy_seconds"] = json_number(load.copy.value());
  json["overhead_seconds"] = json_number(load.loader->overhead.value());
  json["load_seconds"] = json_number(load.total.value());
  json["limit"] = to_string(load.limit);
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
  json["loader"] =
      report.load_time ? nlohmann::ordered_json(report.load_time->loader->id) : nullptr;
  json["load_seconds"] = report.load_time ? json_number(report.load_time->total.value()) : nullptr;
  json["loaders"] = report.loads;
  if (report.within_budget) {
    json["budget_seconds"] = json_number(report.budget->value());
    json["budget_gates_on"] = to_string(report.budget_basis);
    json["within_budget"] = *report.within_budget;
  }
}

} // namespace icx
