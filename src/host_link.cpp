#include "icx/host_link.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "icx/error.hpp"

namespace icx {

namespace {
// A KV cache holds two tensors per layer: keys and values.
constexpr double kv_tensors_per_layer = 2.0;

/// The first stage with the longest time: stages overlap, so the slowest one bounds the load.
template <class Time> const LoadStage& slowest(const std::vector<LoadStage>& stages, Time time) {
  return *std::ranges::max_element(
      stages, [&](const LoadStage& a, const LoadStage& b) { return time(a) < time(b); });
}
} // namespace

Bytes weight_bytes(double parameters, double bytes_per_element) {
  // Every parameter is stored once, in the weights' element type.
  return Bytes::of(parameters * bytes_per_element);
}

namespace {

/// Tensor-parallel GPUs holding whole KV heads: the most that divide both counts.
int tensor_parallel_width(const ShardShape& shape, int gpus) {
  return std::gcd(gpus, shape.kv_heads);
}

bool usable(const ShardShape& shape, int gpus) {
  // Heads unknown: any split may be tensor-parallel.
  return gpus >= 1 &&
         (shape.kv_heads < 1 || gpus / tensor_parallel_width(shape, gpus) <= shape.layers);
}

} // namespace

std::optional<std::string> shard_problem(const ShardShape& shape, int gpus) {
  if (gpus < 1) {
    return fmt::format("{} GPUs: at least one GPU is needed", gpus);
  }
  if (usable(shape, gpus)) {
    return std::nullopt;
  }
  const int tensor_parallel = tensor_parallel_width(shape, gpus);
  return fmt::format("{} GPUs cannot split {} KV heads and {} layers: tensor parallelism over "
                     "whole KV heads spans at most gcd({}, {}) = {} of them, leaving {} pipeline "
                     "stages for {} layers; use t × p GPUs with t dividing {} and p at most {} "
                     "(the largest such count up to {} is {})",
                     gpus, shape.kv_heads, shape.layers, gpus, shape.kv_heads, tensor_parallel,
                     gpus / tensor_parallel, shape.layers, shape.kv_heads, shape.layers, gpus,
                     largest_usable_gpus(shape, gpus));
}

int largest_usable_gpus(const ShardShape& shape, int gpus) {
  for (int count = gpus; count > 1; --count) {
    if (usable(shape, count)) {
      return count;
    }
  }
  return 1;
}

Range<BytesPerSecond> one_way_headline(const Link& link) {
  // A both-ways-summed figure counts two directions; a copy uses one of them.
  const double directions =
      link.headline_convention == Convention::both_directions_summed ? 2.0 : 1.0;
  return {link.headline_bandwidth.low / directions, link.headline_bandwidth.high / directions};
}

std::string_view to_string(LoadStageId id) {
  return id == LoadStageId::storage_to_host ? "storage-to-host" : "host-to-gpu";
}

ColdStart cold_start(const ColdStartInput& input) {
  if (input.gpus < 1 || input.gpus_per_node < 1) {
    throw InputError("a cold start needs at least one GPU, and at least one GPU per node");
  }
  if (input.host_link == nullptr) {
    throw InputError("a cold start needs a host link");
  }
  ColdStart result;
  result.weights = input.weights;
  result.gpus = input.gpus;
  // Equal shards; an uneven split only fills some GPU fuller, so the floor stays a lower bound.
  result.per_gpu = input.weights / static_cast<double>(input.gpus);
  result.nodes = (input.gpus + input.gpus_per_node - 1) / input.gpus_per_node;
  result.gpus_on_fullest_node = std::min(input.gpus, input.gpus_per_node);

  if (const StorageTier* tier = input.storage) {
    LoadStage stage;
    stage.id = LoadStageId::storage_to_host;
    // A per-node tier reads its node's shards once; a shared tier reads every node's.
    stage.bytes = tier->scope == StorageScope::shared
                      ? input.weights
                      : result.per_gpu * static_cast<double>(result.gpus_on_fullest_node);
    stage.bandwidth = tier->read_bandwidth;
    stage.seconds = stage.bytes / stage.bandwidth.high;
    stage.expected_bandwidth = stage.bandwidth.high;
    stage.expected_seconds = stage.seconds;
    result.stages.push_back(stage);
  }

  LoadStage copy;
  copy.id = LoadStageId::host_to_gpu;
  // Each GPU has its own host link and moves only its shard, all GPUs at once.
  copy.bytes = result.per_gpu;
  copy.bandwidth = one_way_headline(*input.host_link);
  copy.seconds = copy.bytes / copy.bandwidth.high;
  if (input.host_link->measured_host_to_device) {
    copy.expected_bandwidth = *input.host_link->measured_host_to_device;
    copy.expected_seconds = copy.bytes / *copy.expected_bandwidth;
  }
  result.stages.push_back(copy);

  const LoadStage& bottleneck =
      slowest(result.stages, [](const LoadStage& s) { return s.seconds; });
  result.floor = bottleneck.seconds;
  result.bottleneck = bottleneck.id;
  if (std::ranges::all_of(result.stages,
                          [](const LoadStage& s) { return s.expected_seconds.has_value(); })) {
    const LoadStage& expected =
        slowest(result.stages, [](const LoadStage& s) { return *s.expected_seconds; });
    result.expected_floor = expected.expected_seconds;
    result.expected_bottleneck = expected.id;
  }
  return result;
}

Bytes kv_cache_bytes(const KvShape& shape, std::int64_t batch, std::int64_t context) {
  // 2 (K and V) × layers × KV heads × head dim × bytes per element, per token of each sequence.
  const double per_token = kv_tensors_per_layer * shape.layers * shape.kv_heads * shape.head_dim *
                           shape.bytes_per_element;
  return Bytes::of(per_token * static_cast<double>(batch) * static_cast<double>(context));
}

Offload offload(const OffloadInput& input) {
  if (input.gpus < 1) {
    throw InputError("offloading needs at least one GPU");
  }
  if (input.gpu == nullptr) {
    throw InputError("offloading needs a GPU");
  }
  if (!(input.hbm_reserve >= 0 && input.hbm_reserve < 1)) {
    throw InputError(
        fmt::format("HBM reserve {} is not a fraction from 0 to below 1", input.hbm_reserve));
  }
  const double gpus = static_cast<double>(input.gpus);
  Offload result;
  // Usable HBM: every GPU's capacity less the reserved fraction.
  result.hbm = input.gpu->hbm_capacity * (gpus * (1.0 - input.hbm_reserve));
  result.needed = input.weights + input.kv_cache;
  result.spilled = std::max(result.needed - result.hbm, Bytes::of(0));
  result.resident = result.needed - result.spilled;
  // Decode is memory-bound: a step reads every byte of weights and KV once, spread evenly
  // over the GPUs, each at its HBM bandwidth.
  const BytesPerSecond hbm_rate = input.gpu->hbm_bandwidth * gpus;
  result.step_all_hbm = result.needed / hbm_rate;
  for (const Link* link : input.host_links) {
    if (link == nullptr) {
      throw InputError("offloading needs a host link");
    }
    HostLinkStep step;
    step.link = link;
    step.bandwidth = one_way_headline(*link).high;
    step.tier_ratio = input.gpu->hbm_bandwidth / step.bandwidth;
    // Each GPU streams its share of the spilled bytes over its own link every step, after
    // (not overlapped with) its HBM reads.
    auto step_time = [&](BytesPerSecond host_rate) {
      return result.resident / hbm_rate + result.spilled / (host_rate * gpus);
    };
    step.step = step_time(step.bandwidth);
    step.slowdown = step.step / result.step_all_hbm;
    if (link->measured_host_to_device) {
      step.expected_bandwidth = *link->measured_host_to_device;
      step.expected_step = step_time(*step.expected_bandwidth);
      step.expected_slowdown = *step.expected_step / result.step_all_hbm;
    }
    result.links.push_back(step);
  }
  return result;
}

} // namespace icx
