#include "icx/reports/offload.hpp"

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/json_values.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/serving.hpp"

namespace icx {

namespace {

/// One copy of the KV cache of the request's sequences; none without a KV load.
Bytes kv_cache_of(const OffloadRequest& request, const KvShape& shape) {
  if (!request.kv) {
    return Bytes::of(0);
  }
  if (shape.latent_dim < 1 && (shape.kv_heads < 1 || shape.head_dim < 1)) {
    throw InputError("the KV cache needs the model's KV heads and head dimension");
  }
  return kv_cache_bytes(shape, request.kv->batch, request.kv->context);
}

KvCopyReason kv_copy_reason(const Model& model, int kv_copies) {
  if (model.latent_attention) {
    return KvCopyReason::latent_per_rank;
  }
  return kv_copies > 1 ? KvCopyReason::heads_replicated : KvCopyReason::heads_split;
}

std::string kv_per_token_terms(const Model& model) {
  if (model.latent_attention) {
    return fmt::format("{} layers × ({} + {}) latent", model.layers,
                       model.latent_attention->kv_lora_rank,
                       model.latent_attention->qk_rope_head_dim);
  }
  return fmt::format("2 × {} layers × {} KV heads × {} head dim", model.layers, model.kv_heads,
                     model.head_dim);
}

std::string kv_copies_why(const OffloadReport& report) {
  switch (report.kv_copy_reason) {
  case KvCopyReason::latent_per_rank:
    return report.kv_copies == 1
               ? "one rank: the whole latent cache"
               : fmt::format("each of {} tensor-parallel ranks holds the whole latent cache, not "
                             "split by head",
                             report.tp_width);
  case KvCopyReason::heads_replicated:
    return fmt::format("a {}-GPU tensor-parallel group replicates the {} KV heads", report.tp_width,
                       report.model->kv_heads);
  case KvCopyReason::heads_split:
    break;
  }
  return "KV heads split over the tensor-parallel ranks";
}

} // namespace

std::optional<HostShare> host_share(const System& system) {
  if (!system.host) {
    return std::nullopt;
  }
  return HostShare{system.host->gpus_per_uplink, system.gpus_per_node, system.host->dram_bandwidth};
}

std::optional<Bytes> host_memory(const System& system, int gpus) {
  if (!system.host) {
    return std::nullopt;
  }
  return system.host->dram * static_cast<double>(node_count(gpus, system.gpus_per_node));
}

OffloadReport offload_report(const OffloadRequest& request) {
  if (request.model == nullptr || request.dtype == nullptr) {
    throw InputError("offloading needs a model and its dtype");
  }
  const ShardShape shard = checked_shard_shape(*request.model, request.gpus);
  OffloadReport report;
  report.model = request.model;
  report.dtype = request.dtype;
  report.gpu = request.gpu;
  report.gpus = request.gpus;
  report.reserve = request.reserve;
  report.kv_load = request.kv;
  report.kv_shape = kv_shape(*request.model, request.dtype->bytes_per_element);
  report.weights =
      model_weight_bytes(*request.model, *request.dtype,
                         request.expert_dtype != nullptr ? *request.expert_dtype : *request.dtype);
  report.kv_cache = kv_cache_of(request, report.kv_shape);
  report.tp_width = tensor_parallel_width(shard, request.gpus);
  report.kv_copies = kv_cache_copies(shard, request.gpus);
  report.kv_copy_reason = kv_copy_reason(*request.model, report.kv_copies);
  report.kv_copies_why = kv_copies_why(report);
  report.kv_per_token_terms = kv_per_token_terms(*request.model);
  report.system = request.system;
  // The step model's rule (achieved_hbm_fraction); the report names the setup when it applied.
  const GpuTuning* tuning = gpu_tuning(*request.gpu, request.tuning);
  report.hbm_fraction_given = request.hbm_fraction.has_value();
  report.tuning =
      !report.hbm_fraction_given && tuning != nullptr && tuning->hbm_fraction ? tuning : nullptr;
  report.result = offload({report.weights, report.kv_cache, request.gpu, request.gpus,
                           request.reserve, request.host_links, report.kv_copies, request.engine,
                           request.system != nullptr ? host_share(*request.system) : std::nullopt,
                           request.host_memory,
                           achieved_hbm_fraction(*request.gpu, request.hbm_fraction, tuning)});
  return report;
}

void to_json(nlohmann::ordered_json& json, const HostLinkStep& step) {
  json["id"] = step.link->id;
  json["name"] = step.link->name;
  json["bandwidth_bytes_per_s"] = json_number(step.bandwidth.value());
  json["tier_ratio"] = json_number(step.tier_ratio);
  json["step_seconds"] = json_number(step.step.value());
  json["slowdown"] = json_number(step.slowdown);
  json["expected_bandwidth_bytes_per_s"] = json_number(step.expected_bandwidth);
  json["expected_step_seconds"] = json_number(step.expected_step);
  json["expected_slowdown"] =
      step.expected_slowdown ? json_number(*step.expected_slowdown) : nullptr;
  json["stream_bandwidth_bytes_per_s"] = json_number(step.stream.rate.value());
  json["stream_limit"] = to_string(step.stream.limit);
  json["expected_stream_bandwidth_bytes_per_s"] =
      step.expected_stream ? json_number(step.expected_stream->rate.value()) : nullptr;
  json["expected_stream_limit"] =
      step.expected_stream ? nlohmann::ordered_json(to_string(step.expected_stream->limit))
                           : nullptr;
}

namespace {

void gpu_json(nlohmann::ordered_json& json, const OffloadReport& report) {
  nlohmann::ordered_json& gpu = json["gpu"];
  gpu["id"] = report.gpu->id;
  gpu["hbm_bytes"] = json_number(report.gpu->memory().value());
  gpu["hbm_bandwidth_bytes_per_s"] = json_number(report.gpu->hbm_bandwidth.value());
  json["system"] = report.system != nullptr ? nlohmann::ordered_json(report.system->id) : nullptr;
  json["gpus"] = report.gpus;
  json["hbm_reserve"] = json_number(report.reserve);
  if (report.kv_load) {
    json["batch"] = report.kv_load->batch;
    json["context"] = report.kv_load->context;
  }
}

} // namespace

void to_json(nlohmann::ordered_json& json, const OffloadReport& report) {
  const Offload& r = report.result;
  gpu_json(json, report);
  json["weights_bytes"] = json_number(report.weights.value());
  json["kv_cache_bytes"] = json_number(report.kv_cache.value());
  json["kv_cache_copies"] = report.kv_copies;
  json["kv_held_bytes"] = json_number(r.kv_held.value());
  json["hbm_bytes"] = json_number(r.hbm.value());
  json["needed_bytes"] = json_number(r.needed.value());
  json["resident_bytes"] = json_number(r.resident.value());
  json["spilled_bytes"] = json_number(r.spilled.value());
  json["host_memory_bytes"] = r.host_memory ? json_number(r.host_memory->value()) : nullptr;
  json["offload_engine"] = to_string(r.engine);
  json["hbm_fraction"] = json_number(r.hbm_fraction);
  json["tuning"] = report.tuning != nullptr ? nlohmann::ordered_json(report.tuning->id) : nullptr;
  json["step_seconds_all_hbm"] = json_number(r.step_all_hbm.value());
  const nlohmann::ordered_json first = r.links.front();
  json["host_link"] = first["id"];
  for (const char* key : {"step_seconds", "slowdown", "expected_step_seconds", "expected_slowdown",
                          "stream_limit", "expected_stream_limit"}) {
    json[key] = first[key];
  }
  json["host_links"] = r.links;
}

} // namespace icx
