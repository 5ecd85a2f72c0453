#include "icx/catalog/json.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/json_detail.hpp"
#include "icx/base/limits.hpp"

namespace icx {

namespace detail {

// A catalog file gives figures with at most 15 significant digits; scaling a figure to base
// units and back may move it by an ulp, which 15 digits round away (2.74 µs writes as 2.74,
// not 2.7400000000000002).
constexpr int catalog_digits = 15;

Json in_unit(double value, double unit) {
  const std::string text = fmt::format("{:.{}g}", value / unit, catalog_digits);
  double rounded = 0;
  std::from_chars(text.data(), text.data() + text.size(), rounded);
  return json_number(rounded);
}

Json entry_head(const Entry& entry) {
  Json head = Json::object();
  head["id"] = entry.id;
  head["name"] = entry.name;
  head["aliases"] = entry.aliases;
  return head;
}

/// One figure, or [low, high] when the source gives a range.
template <class Q> Json in_unit(const Range<Q>& range, double unit) {
  if (range.low.value() == range.high.value()) {
    return in_unit(range.low.value(), unit);
  }
  return Json::array({in_unit(range.low.value(), unit), in_unit(range.high.value(), unit)});
}

} // namespace detail

using detail::entry_head;
using detail::in_unit;
using detail::write_curves;

namespace {

/// The kernels of `kernels` that are given, by key, then their source.
template <class Kernels, class Kernel, std::size_t N>
Json kernels_json(const Kernels& kernels, const std::array<KernelSlot<Kernels, Kernel>, N>& slots) {
  Json json = Json::object();
  for (const KernelSlot<Kernels, Kernel>& slot : slots) {
    if (const std::optional<Kernel>& kernel = kernels.*slot.member) {
      json[slot.key] = *kernel;
    }
  }
  json["source"] = kernels.source;
  return json;
}

} // namespace

void to_json(Json& json, const InNetworkReduction& reduction) {
  json = Json::object();
  json["efficiency"] = json_number(reduction.efficiency);
  json["latency_us"] = in_unit(reduction.latency.value(), micro);
}

void to_json(Json& json, const EngineKernelParameters& kernel) {
  json = Json::object();
  json["latency_us"] = in_unit(kernel.latency.value(), micro);
  json["efficiency"] = json_number(kernel.efficiency);
}

void to_json(Json& json, const EngineAllReduce& engine) {
  json = kernels_json(engine, engine_all_reduce_kernels);
  const std::string source = json["source"];
  json.erase("source");
  json["vllm_custom_below_KiB"] = json_number(engine.vllm_custom_below.value() / kibi);
  json["vllm_multimem_below_KiB"] = json_number(engine.vllm_multimem_below.value() / kibi);
  json["source"] = source;
}

void to_json(Json& json, const EpKernelParameters& kernel) {
  json = Json::object();
  json["efficiency"] = json_number(kernel.efficiency);
  json["latency_us"] = in_unit(kernel.latency.value(), micro);
}

void to_json(Json& json, const ExpertParallelKernels& kernels) {
  json = kernels_json(kernels, expert_parallel_kernels);
}

void to_json(Json& json, const LinkTopology& topology) {
  json = Json::object();
  json["description"] = topology.description;
  json["efficiency"] = json_number(topology.efficiency);
  json["step_latency_us"] = in_unit(topology.step_latency.value(), micro);
  if (topology.default_up_to_gpus) {
    json["default_up_to_gpus"] = *topology.default_up_to_gpus;
  }
  if (!topology.topo_paths.empty()) {
    json["topo_paths"] = topology.topo_paths;
  }
  json["source"] = topology.source;
}

void to_json(Json& json, const ExpectedModel& model) {
  json = Json::object();
  json["efficiency"] = json_number(model.efficiency);
  json["step_latency_us"] = in_unit(model.step_latency.value(), micro);
  json["ramp_us"] = in_unit(model.ramp.value(), micro);
  json["small_message_slowdown"] = json_number(model.small_message_slowdown);
  if (model.in_network_reduction) {
    json["in_network_reduction"] = *model.in_network_reduction;
  }
  if (model.engine_all_reduce) {
    json["engine_all_reduce"] = *model.engine_all_reduce;
  }
  if (model.expert_parallel) {
    json["expert_parallel"] = *model.expert_parallel;
  }
  json["source"] = model.source;
}

void to_json(Json& json, const Link& link) {
  json = entry_head(link);
  json["connects"] = link.connects;
  if (!link.gpu_to_gpu) {
    json["gpu_to_gpu"] = false;
  }
  json["tier"] = link.tier;
  json["headline_GBps"] = in_unit(link.headline_bandwidth, giga);
  json["headline_convention"] = link.headline_convention;
  json["per_direction_GBps"] = in_unit(link.per_direction_bandwidth, giga);
  if (link.max_domain_gpus) {
    json["max_domain_gpus"] = *link.max_domain_gpus;
  }
  if (link.links_per_gpu) {
    json["links_per_gpu"] = *link.links_per_gpu;
  }
  if (link.full_mesh) {
    json["full_mesh"] = true;
  }
  if (link.gpu_fabric) {
    json["gpu_fabric"] = to_string(*link.gpu_fabric);
  }
  json["latency_us"] = in_unit(link.latency, micro);
  if (link.measured_host_to_device) {
    json["host_to_device_GBps"] = in_unit(link.measured_host_to_device->value(), giga);
  }
  json["source"] = link.source;
  if (link.expected) {
    json["expected"] = *link.expected;
  }
  if (!link.topologies.empty()) {
    Json topologies = Json::object();
    for (const LinkTopology& topology : link.topologies) {
      topologies[topology.id] = topology;
    }
    json["topologies"] = topologies;
  }
}

namespace {

/// A GPU's named setup as the catalog file writes it.
Json tuning_json(const GpuTuning& tuning) {
  Json json = Json::object();
  json["name"] = tuning.name;
  if (tuning.mfu) {
    json["mfu"] = json_number(*tuning.mfu);
  }
  if (tuning.moe_mfu) {
    json["moe_mfu"] = json_number(*tuning.moe_mfu);
  }
  if (tuning.attention_mfu) {
    json["attention_mfu"] = json_number(*tuning.attention_mfu);
  }
  if (tuning.hbm_fraction) {
    json["hbm_fraction"] = json_number(*tuning.hbm_fraction);
  }
  if (tuning.cache_read_scale) {
    json["cache_read_scale"] = json_number(*tuning.cache_read_scale);
  }
  if (tuning.ring_step.value() > 0) {
    json["ring_step_us"] = in_unit(tuning.ring_step.value(), micro);
  }
  if (tuning.is_default) {
    json["default"] = true;
  }
  json["source"] = tuning.source;
  return json;
}

} // namespace

void to_json(Json& json, const Gpu& gpu) {
  json = entry_head(gpu);
  json["hbm_GB"] = in_unit(gpu.hbm_capacity.value(), giga);
  if (gpu.device_memory) {
    json["memory_MiB"] = in_unit(gpu.device_memory->value(), mebi);
  }
  json["hbm_bandwidth_GBps"] = in_unit(gpu.hbm_bandwidth.value(), giga);
  Json peaks = Json::object();
  for (const auto& [dtype, peak] : gpu.dense_peak) {
    peaks[dtype] = in_unit(peak.value(), tera);
  }
  json["dense_tflops"] = std::move(peaks);
  json["scale_up_link"] = gpu.scale_up_link;
  json["scale_up_domain"] = gpu.scale_up_domain;
  json["achievable_mfu"] = json_number(gpu.achievable_mfu);
  if (gpu.achievable_hbm_fraction) {
    json["achievable_hbm_fraction"] = json_number(*gpu.achievable_hbm_fraction);
  }
  // A borrower's curves are its lender's: written once, there.
  if (!gpu.curves_from.empty()) {
    json["curves_from"] = gpu.curves_from;
  } else {
    write_curves(json, gpu.curves, nullptr);
    for (const auto& [engine, curves] : gpu.engine_curves) {
      Json own = Json::object();
      write_curves(own, curves, &gpu.curves);
      if (!own.empty()) { // an engine whose every curve is the default's reads back as none
        json["engine_curves"][engine] = std::move(own);
      }
    }
  }
  for (const GpuTuning& tuning : gpu.tunings) {
    json["tunings"][tuning.id] = tuning_json(tuning);
  }
  if (gpu.reference) {
    json["reference"] = true;
  }
  json["source"] = gpu.source;
}

void to_json(Json& json, const Model& model) {
  json = entry_head(model);
  json["hidden"] = model.hidden;
  json["layers"] = model.layers;
  json["total_params"] = json_number(model.total_params);
  if (model.active_params != model.total_params) {
    json["active_params"] = json_number(model.active_params);
  }
  json["default_dtype"] = model.default_dtype;
  json["attention_heads"] = model.attention_heads;
  json["kv_heads"] = model.kv_heads;
  json["head_dim"] = model.head_dim;
  json["intermediate_size"] = model.intermediate_size;
  json["vocab_size"] = model.vocab_size;
  if (model.max_context > 0) {
    json["max_context"] = model.max_context;
  }
  if (model.sliding_layers > 0) {
    json["sliding_layers"] = model.sliding_layers;
    json["sliding_window"] = model.sliding_window;
  }
  // A count the catalog leaves out when it is 0.
  const auto positive = [&json](const char* key, int value) {
    if (value > 0) {
      json[key] = value;
    }
  };
  if (model.is_moe()) {
    json["experts"] = model.experts;
    json["experts_per_token"] = model.experts_per_token;
    positive("first_dense_layers", model.first_dense_layers);
    positive("moe_intermediate_size", model.moe_intermediate_size);
    positive("shared_experts", model.shared_experts);
    if (model.expert_groups > 0) {
      json["expert_groups"] = model.expert_groups;
      json["expert_groups_per_token"] = model.expert_groups_per_token;
    }
    if (!model.expert_dtype.empty()) {
      json["expert_dtype"] = model.expert_dtype;
    }
  }
  if (model.latent_attention) {
    positive("q_lora_rank", model.latent_attention->q_lora_rank);
    json["kv_lora_rank"] = model.latent_attention->kv_lora_rank;
    json["qk_rope_head_dim"] = model.latent_attention->qk_rope_head_dim;
    if (model.latent_attention->qk_nope_head_dim > 0) {
      json["qk_nope_head_dim"] = model.latent_attention->qk_nope_head_dim;
      json["v_head_dim"] = model.latent_attention->v_head_dim;
    }
  }
  if (const auto& dsa = model.sparse_attention) {
    json.update({{"index_topk", dsa->topk},
                 {"index_heads", dsa->index_heads},
                 {"index_head_dim", dsa->index_head_dim}});
  }
  if (!model.checkpoints.empty()) {
    json["checkpoints"] = model.checkpoints;
    json["checkpoints_source"] = model.checkpoints_source;
  }
  json["source"] = model.source;
}

void to_json(Json& json, const Dtype& dtype) {
  json = entry_head(dtype);
  json["bytes_per_element"] = json_number(dtype.bytes_per_element);
  if (!dtype.compute_as.empty()) {
    json["compute_as"] = dtype.compute_as;
  }
  if (!dtype.weight_only_as.empty()) {
    json["weight_only_as"] = dtype.weight_only_as;
  }
  if (!dtype.kernels_as.empty()) {
    json["kernels_as"] = dtype.kernels_as;
  }
  json["source"] = dtype.source;
}

void to_json(Json& json, const System& system) {
  json = entry_head(system);
  json["gpu"] = system.gpu;
  json["gpus_per_node"] = system.gpus_per_node;
  json["scale_up_link"] = system.scale_up_link;
  json["scale_up_domain"] = system.scale_up_domain;
  json["scale_out_link"] = system.scale_out_link;
  if (!system.between_domains_link.empty()) {
    json["between_domains_link"] = system.between_domains_link;
  }
  json["nics_per_node"] = system.nics_per_node;
  json["rail_optimized"] = system.rail_optimized;
  if (system.host) {
    json["host"] = *system.host;
  }
  if (system.price) {
    const Price& price = *system.price;
    json["price"] = {{"usd_per_hour", json_number(price.usd_per_hour)},
                     {"date", price.date},
                     {"source", price.source}};
  }
  json["source"] = system.source;
}

void to_json(Json& json, const StorageTier& tier) {
  json = entry_head(tier);
  json["scope"] = tier.scope;
  if (tier.cached) {
    json["cached"] = true;
  }
  json["read_GBps"] = in_unit(tier.read_bandwidth, giga);
  json["source"] = tier.source;
}

void to_json(Json& json, const HostSide& host) {
  json["link"] = host.link;
  json["gpus_per_uplink"] = host.gpus_per_uplink;
  json["dram_GB"] = json_number(host.dram.value() / giga);
  json["dram_GBps"] = json_number(host.dram_bandwidth.value() / giga);
  if (host.nvme_drives > 0) {
    json["nvme_drives"] = host.nvme_drives;
    json["nvme"] = host.nvme_tier;
  }
  json["source"] = host.source;
}

void to_json(Json& json, const Loader& loader) {
  json = entry_head(loader);
  json["buffer"] = loader.buffer;
  for (const auto& [key, rates] : {std::pair{"warm", &loader.warm}, {"cold", &loader.cold}}) {
    json[key] = {{"rank_GBps", json_number(rates->rank.value() / giga)},
                 {"node_GBps", json_number(rates->node.value() / giga)}};
  }
  json["overhead_s"] = json_number(loader.overhead.value());
  json["source"] = loader.source;
}

} // namespace icx
