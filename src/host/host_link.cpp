#include "icx/host/host_link.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/memory/hbm.hpp"

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

namespace {

/// Tensor-parallel group sizes the model allows that divide `gpus` (1: no tensor
/// parallelism); the heads are known.
std::vector<int> tensor_group_sizes(const ShardShape& shape, int gpus) {
  std::vector<int> sizes = allowed_group_sizes(shape.attention);
  std::erase_if(sizes, [gpus](int size) { return size > gpus || gpus % size != 0; });
  return sizes;
}

bool usable(const ShardShape& shape, int gpus) {
  // Heads unknown: the whole count may be one tensor-parallel group.
  if (gpus < 1) {
    return false;
  }
  if (shape.attention.attention_heads < 1) {
    return true;
  }
  const std::vector<int> sizes = tensor_group_sizes(shape, gpus);
  return std::ranges::any_of(sizes, [&](int size) { return gpus / size <= shape.layers; });
}

} // namespace

Check check_shard(const ShardShape& shape, int gpus) {
  if (gpus < 1) {
    return unexpected(fmt::format("{} GPUs: at least one GPU is needed", gpus));
  }
  if (usable(shape, gpus)) {
    return {};
  }
  const int widest = tensor_group_sizes(shape, gpus).back();
  const std::vector<int> sizes = allowed_group_sizes(shape.attention);
  return unexpected(fmt::format(
      "{} GPUs cannot split {} with {} layers: its widest tensor-parallel group within {} GPUs "
      "is {} (whole attention heads; KV heads split or replicated), leaving {} pipeline stages "
      "for {} layers; use t × p GPUs with t one of {} and p at most {} (the largest such count "
      "up to {} is {})",
      gpus, model_words(shape.attention), shape.layers, gpus, widest, gpus / widest, shape.layers,
      fmt::join(sizes, ", "), shape.layers, gpus, largest_usable_gpus(shape, gpus)));
}

ShardShape checked_shard_shape(const Model& model, int gpus) {
  ShardShape shape{model.layers, attention_shape(model)};
  if (const Check check = check_shard(shape, gpus); !check) {
    throw GroupError(check.reason());
  }
  return shape;
}

int largest_usable_gpus(const ShardShape& shape, int gpus) {
  if (shape.attention.attention_heads < 1) {
    return std::max(gpus, 1);
  }
  // Every usable count is t × p with t an allowed group and p <= layers; the largest up to
  // `gpus` for a given t is t × min(layers, gpus / t).
  int largest = 1;
  for (const int size : allowed_group_sizes(shape.attention)) {
    if (size <= gpus) {
      largest = std::max(largest, size * std::min(shape.layers, gpus / size));
    }
  }
  return largest;
}

Range<BytesPerSecond> one_way_headline(const Link& link) {
  // A both-ways-summed figure counts two directions; a copy uses one of them.
  const double directions =
      link.headline_convention == Convention::both_directions_summed ? 2.0 : 1.0;
  return {link.headline_bandwidth.low / directions, link.headline_bandwidth.high / directions};
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
  result.nodes = node_count(input.gpus, input.gpus_per_node);
  result.gpus_on_fullest_node = std::min(input.gpus, input.gpus_per_node);

  if (const StorageTier* tier = input.storage) {
    LoadStage stage;
    stage.id = LoadStageId::storage_to_host;
    // A per-node tier reads its node's shards once; a shared tier reads every node's.
    const bool shared = tier->scope == StorageScope::shared;
    stage.share = shared ? StageShare::all_shards : StageShare::node_shards;
    stage.bytes =
        shared ? input.weights : result.per_gpu * static_cast<double>(result.gpus_on_fullest_node);
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
    // GPUs behind one switch uplink copy at once and share its rate (the uplink is as wide as
    // one GPU's link).
    const int sharing = std::clamp(input.gpus_per_uplink, 1, result.gpus_on_fullest_node);
    copy.sharing = sharing;
    copy.expected_bandwidth =
        *input.host_link->measured_host_to_device / static_cast<double>(sharing);
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

int tensor_parallel_width(const ShardShape& shape, int gpus) {
  if (shape.attention.attention_heads < 1) {
    return gpus;
  }
  // Widest first, preferring a group that splits the KV heads to one that replicates them.
  const std::vector<int> sizes = tensor_group_sizes(shape, gpus);
  const int kv_heads = shape.attention.kv_heads;
  for (auto size = sizes.rbegin(); size != sizes.rend(); ++size) {
    if (gpus / *size <= shape.layers &&
        (shape.attention.latent || kv_heads < 1 || kv_heads % *size == 0)) {
      return *size;
    }
  }
  return sizes.empty() ? 1 : sizes.back();
}

KvShape kv_shape(const Model& model, double bytes_per_element) {
  KvShape shape{model.layers,
                model.kv_heads,
                model.head_dim,
                bytes_per_element,
                0,
                model.sliding_layers,
                model.sliding_window,
                0,
                0};
  if (const auto& dsa = model.sparse_attention) {
    // One FP8 byte per value of the indexer's key and an FP32 scale per 128 of them (DeepSeek's
    // reference Indexer: k_cache float8_e4m3fn, k_scale_cache float32 per block of 128).
    constexpr double fp8_byte = 1;
    constexpr double scale_bytes = 4;
    constexpr int scale_block = 128;
    shape.index_bytes =
        dsa->index_head_dim * fp8_byte +
        scale_bytes * std::ceil(static_cast<double>(dsa->index_head_dim) / scale_block);
    shape.topk = dsa->topk;
  }
  if (model.latent_attention) {
    shape.latent_dim =
        model.latent_attention->kv_lora_rank + model.latent_attention->qk_rope_head_dim;
  }
  return shape;
}

namespace {

/// Bytes one sequence caches over every layer for `context` tokens, without the indexer's.
double attention_cache_bytes(const KvShape& shape, std::int64_t context) {
  // Per token of each sequence: latent attention caches one compressed latent and one shared
  // rotary key per layer, layers × (kv_lora_rank + qk_rope_head_dim) values (DeepSeek-V2
  // paper, section 2.1); otherwise 2 (K and V) × layers × KV heads × head dim.
  const double per_layer = shape.latent_dim > 0
                               ? static_cast<double>(shape.latent_dim)
                               : kv_tensors_per_layer * shape.kv_heads * shape.head_dim;
  // A sliding-window layer keeps only the last `window` tokens of each sequence.
  const auto full = static_cast<double>(context);
  const auto windowed = static_cast<double>(std::min(context, shape.window));
  const double tokens_by_layer =
      (shape.layers - shape.sliding_layers) * full + shape.sliding_layers * windowed;
  return per_layer * tokens_by_layer * shape.bytes_per_element;
}

double index_cache_bytes(const KvShape& shape, std::int64_t context) {
  return shape.index_bytes * shape.layers * static_cast<double>(context);
}

} // namespace

Bytes kv_cache_bytes(const KvShape& shape, std::int64_t batch, std::int64_t context) {
  return Bytes::of((attention_cache_bytes(shape, context) + index_cache_bytes(shape, context)) *
                   static_cast<double>(batch));
}

Bytes kv_read_bytes(const KvShape& shape, std::int64_t context) {
  const std::int64_t read = shape.topk > 0 ? std::min(context, shape.topk) : context;
  return Bytes::of(attention_cache_bytes(shape, read) + index_cache_bytes(shape, context));
}

int kv_cache_copies(const ShardShape& shape, int gpus) {
  const int width = tensor_parallel_width(shape, gpus);
  if (shape.attention.latent) {
    return width;
  }
  const int kv_heads = shape.attention.kv_heads;
  return kv_heads > 0 && width > kv_heads ? width / kv_heads : 1;
}

StreamRate stream_rate(BytesPerSecond link_rate, const std::optional<HostShare>& share, int gpus) {
  if (!share) {
    return {link_rate, StreamLimit::link, 1};
  }
  if (share->gpus_per_uplink < 1 || share->gpus_per_node < 1) {
    throw InputError("a host share needs at least one GPU per uplink and per node");
  }
  // Every GPU streams its share of the spill in every step, so the GPUs behind one uplink
  // (of the host link's type) copy at once and split its rate; all GPUs of a node split
  // its DRAM bandwidth.
  const int on_uplink = std::min(share->gpus_per_uplink, gpus);
  const int on_node = std::min(share->gpus_per_node, gpus);
  StreamRate best{link_rate / static_cast<double>(on_uplink),
                  on_uplink > 1 ? StreamLimit::uplink : StreamLimit::link, on_uplink};
  const BytesPerSecond dram = share->dram_bandwidth / static_cast<double>(on_node);
  if (dram < best.rate) {
    best = {dram, StreamLimit::host_dram, on_node};
  }
  return best;
}

Seconds offload_step(OffloadEngine engine, Seconds hbm_part, Bytes spilled, int gpus,
                     BytesPerSecond per_gpu) {
  // Each GPU streams its share of the spilled bytes over its own path every step.
  const Seconds streaming = spilled / (per_gpu * static_cast<double>(gpus));
  switch (engine) {
  case OffloadEngine::prefetch:
    // Copies on a side stream while the resident layers compute: the longer part bounds
    // the step (the best case; consecutive offloaded layers are not hidden,
    // vllm-project/vllm-ascend PR 11945).
    return std::max(hbm_part, streaming);
  case OffloadEngine::vllm:
    break;
  }
  // The copy runs on the compute stream before the layer's kernels: not overlapped.
  return hbm_part + streaming;
}

namespace {

/// The decode step of `result` over one host link.
HostLinkStep link_step(const Offload& result, const OffloadInput& input, const Link* link) {
  if (link == nullptr) {
    throw InputError("offloading needs a host link");
  }
  HostLinkStep step;
  step.link = link;
  step.bandwidth = one_way_headline(*link).high;
  step.tier_ratio = input.gpu->hbm_bandwidth / step.bandwidth;
  step.stream = stream_rate(step.bandwidth, input.share, input.gpus);
  step.step = offload_step(input.engine, result.step_hbm_part, result.spilled, input.gpus,
                           step.stream.rate);
  step.slowdown = step.step / result.step_all_hbm;
  if (link->measured_host_to_device) {
    step.expected_bandwidth = *link->measured_host_to_device;
    step.expected_stream = stream_rate(*step.expected_bandwidth, input.share, input.gpus);
    step.expected_step = offload_step(input.engine, result.step_hbm_part, result.spilled,
                                      input.gpus, step.expected_stream->rate);
    step.expected_slowdown = *step.expected_step / result.step_all_hbm;
  }
  return step;
}

} // namespace

Offload offload(const OffloadInput& input) {
  if (input.gpus < 1) {
    throw InputError("offloading needs at least one GPU");
  }
  if (input.gpu == nullptr) {
    throw InputError("offloading needs a GPU");
  }
  Offload result;
  result.hbm = usable_hbm(*input.gpu, input.gpus, input.hbm_reserve);
  if (input.kv_copies < 1) {
    throw InputError("offloading needs at least one copy of the KV cache");
  }
  result.kv_held = input.kv_cache * input.kv_copies;
  result.needed = input.weights + result.kv_held;
  result.spilled = std::max(result.needed - result.hbm, Bytes::of(0));
  result.resident = result.needed - result.spilled;
  // Decode is memory-bound: a step reads every byte of weights and KV once, spread evenly
  // over the GPUs, each at the fraction of its HBM bandwidth reads reach (the step model's
  // rule).
  const double fraction = achieved_hbm_fraction(*input.gpu, input.hbm_fraction);
  result.hbm_fraction = fraction;
  result.step_all_hbm = hbm_read_time(*input.gpu, input.gpus, result.needed, fraction);
  result.step_hbm_part = hbm_read_time(*input.gpu, input.gpus, result.resident, fraction);
  result.engine = input.engine;
  result.host_memory = input.host_memory;
  if (input.host_memory) {
    result.fits_host_memory = result.spilled <= *input.host_memory;
  }
  for (const Link* link : input.host_links) {
    result.links.push_back(link_step(result, input, link));
  }
  return result;
}

} // namespace icx
