// The host link: the floor of loading a model's weights at cold start (storage -> host
// memory -> each GPU) and the decode-step cost of offloading what does not fit in HBM to
// host memory.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/expected.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/memory/hbm.hpp"

namespace icx {

/// What sets how a model's weights can be split over GPUs.
struct ShardShape {
  int layers = 0;
  /// Which tensor-parallel group sizes the model allows (icx/catalog/group_rules.hpp).
  AttentionShape attention;
};

/// Whether `gpus` GPUs can each hold a share of the weights, and if not why. The GPUs must
/// form t × p: a tensor-parallel group of t GPUs that check_tensor_group passes, and p
/// pipeline stages of at least one layer each (p <= layers).
Check check_shard(const ShardShape& shape, int gpus);

/// The model's shard shape, once `gpus` GPUs are known to each hold a share of its weights.
/// Throws GroupError with check_shard's reason when they cannot.
ShardShape checked_shard_shape(const Model& model, int gpus);

/// The largest GPU count not above `gpus` that check_shard passes.
int largest_usable_gpus(const ShardShape& shape, int gpus);

/// A link's headline bandwidth in one direction: the headline figure over the number of
/// directions it counts (a copy moves bytes one way).
Range<BytesPerSecond> one_way_headline(const Link& link);

enum class LoadStageId { storage_to_host, host_to_gpu };

constexpr std::array<EnumName<LoadStageId>, 2> enum_names(LoadStageId /*unused*/) {
  return {{{LoadStageId::storage_to_host, "storage-to-host"},
           {LoadStageId::host_to_gpu, "host-to-gpu"}}};
}

/// Whose shards a load stage moves through its narrowest point.
enum class StageShare {
  /// One GPU's shard, over that GPU's own host link.
  one_shard,
  /// The fullest node's shards, read from a per-node storage tier.
  node_shards,
  /// Every node's shards, read from one shared storage tier.
  all_shards
};

/// One hop of the load path, timed at its narrowest point.
struct LoadStage {
  LoadStageId id = LoadStageId::host_to_gpu;
  StageShare share = StageShare::one_shard;
  /// Bytes through the narrowest point: one node's reads from a per-node tier (all of the
  /// load from a shared tier), or one GPU's shard over its own link.
  Bytes bytes;
  /// Headline bandwidth (one way for a link); the floor uses the fast end of a range.
  Range<BytesPerSecond> bandwidth;
  Seconds seconds;
  /// The measured bandwidth where the catalog has one (a host link's host-to-device
  /// copy); a storage tier's datasheet figure stands for itself.
  std::optional<BytesPerSecond> expected_bandwidth;
  std::optional<Seconds> expected_seconds;
  /// GPUs whose expected copies share one switch uplink (1: each has its own).
  int sharing = 1;
};

struct ColdStartInput {
  Bytes weights;
  int gpus = 0;
  /// GPUs in one node (node_count, icx/catalog/group_rules.hpp).
  int gpus_per_node = 0;
  const Link* host_link = nullptr;
  /// Where the weights are read from; nullptr when they are already in host memory.
  const StorageTier* storage = nullptr;
  /// GPUs behind one PCIe switch uplink (HostSide::gpus_per_uplink): their expected copies
  /// share the uplink's measured rate.
  int gpus_per_uplink = 1;
};

struct ColdStart {
  Bytes weights;
  int gpus = 0;
  Bytes per_gpu;
  int nodes = 0;
  /// GPUs on the fullest node, whose shards all cross its storage read.
  int gpus_on_fullest_node = 0;
  /// In path order: storage to host (when a tier is given), then host to GPU.
  std::vector<LoadStage> stages;
  /// The slowest stage's headline time: stages overlap (pipelined), so the slowest bounds.
  Seconds floor;
  LoadStageId bottleneck = LoadStageId::host_to_gpu;
  /// The same with measured bandwidths; absent when the host link has no measurement.
  std::optional<Seconds> expected_floor;
  std::optional<LoadStageId> expected_bottleneck;
};

/// The hard lower bound on loading the weights: bytes / bandwidth per stage, the slowest
/// stage bounding the whole. Throws InputError on a GPU count below 1 or a missing link.
ColdStart cold_start(const ColdStartInput& input);

/// The tensor-parallel group `gpus` GPUs form (the layout offload assumes): the widest that
/// leaves at most one pipeline stage per layer, preferring one that splits the KV heads to
/// one that replicates them; pipeline stages for the rest.
int tensor_parallel_width(const ShardShape& shape, int gpus);

/// The part of a model that sets its KV cache.
struct KvShape {
  int layers = 0;
  int kv_heads = 0;
  int head_dim = 0;
  double bytes_per_element = 0;
  /// Values cached per token and layer by multi-head latent attention (kv_lora_rank +
  /// qk_rope_head_dim); 0: keys and values per KV head.
  int latent_dim = 0;
  /// Of `layers`, those caching at most `window` tokens (sliding-window attention).
  int sliding_layers = 0;
  std::int64_t window = 0;
  /// Bytes a sparse-attention indexer caches per token and layer beside the rest (its FP8 key
  /// and FP32 scales; DeepSeek-V3.2), whatever the cache's dtype; 0: none.
  double index_bytes = 0;
  /// Tokens a sparse-attention layer reads of the rest (the indexer's top-k); 0: all.
  std::int64_t topk = 0;
};

/// A model's KV shape with `bytes_per_element` per cached value.
KvShape kv_shape(const Model& model, double bytes_per_element);

/// KV cache of `batch` sequences of `context` tokens each, one copy.
Bytes kv_cache_bytes(const KvShape& shape, std::int64_t batch, std::int64_t context);

/// What one decode step reads of one sequence's KV cache of `context` tokens: all of it, or
/// with sparse attention the indexer's keys for every token and the rest for the top-k alone.
Bytes kv_read_bytes(const KvShape& shape, std::int64_t context);

/// How many copies of the KV cache `gpus` GPUs hold, split as tensor_parallel_width says.
/// Latent attention: every tensor-parallel rank holds the whole latent cache (it is not split
/// by head; vLLM and SGLang without data-parallel attention), so t copies. Otherwise KV heads
/// are split over the ranks, replicated only when the group is wider than the KV heads.
int kv_cache_copies(const ShardShape& shape, int gpus);

/// How an offloading engine schedules the copy of host-resident weights against compute.
enum class OffloadEngine {
  /// vLLM --cpu-offload-gb: each offloaded layer is copied on the compute stream right before
  /// its kernels (vllm/model_executor/models/utils.py, maybe_offload_to_cpu): no overlap.
  vllm,
  /// A prefetching offloader (vLLM's prefetch offloader, vllm-project/vllm PR 29941;
  /// DeepSpeed ZeRO-Inference's layer prefetch): copies on a side stream while the resident
  /// layers compute; the best case of that overlap.
  prefetch
};

constexpr std::array<EnumName<OffloadEngine>, 2> enum_names(OffloadEngine /*unused*/) {
  return {{{OffloadEngine::vllm, "vllm"}, {OffloadEngine::prefetch, "prefetch"}}};
}

/// What bounds the rate at which one GPU streams host memory.
enum class StreamLimit {
  /// The GPU's own host link.
  link,
  /// A switch uplink (or a CPU's NVLink-C2C) shared by the GPUs behind it.
  uplink,
  /// The node's host DRAM bandwidth shared by its GPUs.
  host_dram
};

constexpr std::array<EnumName<StreamLimit>, 3> enum_names(StreamLimit /*unused*/) {
  return {{{StreamLimit::link, "link"},
           {StreamLimit::uplink, "uplink"},
           {StreamLimit::host_dram, "host-dram"}}};
}

/// Who shares the path from host memory to the GPUs (a system's host side).
struct HostShare {
  /// GPUs behind one uplink of the host link's type.
  int gpus_per_uplink = 1;
  /// GPUs in one node, sharing its DRAM bandwidth.
  int gpus_per_node = 1;
  /// Host DRAM bandwidth of one node.
  BytesPerSecond dram_bandwidth;
};

/// The rate at which each GPU streams from host memory, and what bounds it.
struct StreamRate {
  BytesPerSecond rate;
  StreamLimit limit = StreamLimit::link;
  /// GPUs sharing the limit (1 for the link itself).
  int sharing = 1;
};

/// Each GPU's streaming rate when `gpus` GPUs stream at once over links of `link_rate`:
/// without a host share, the link; with one, the least of the link, the uplink's rate over
/// the GPUs behind it (at most `gpus`), and the node's DRAM bandwidth over the GPUs on it.
StreamRate stream_rate(BytesPerSecond link_rate, const std::optional<HostShare>& share, int gpus);

struct OffloadInput {
  Bytes weights;
  /// One copy of the KV cache.
  Bytes kv_cache;
  const Gpu* gpu = nullptr;
  int gpus = 0;
  /// Fraction of each GPU's HBM kept free, in [0, 1) (icx/memory/hbm.hpp).
  double hbm_reserve = default_memory_reserve;
  std::span<const Link* const> host_links;
  /// Copies of the KV cache the GPUs hold (kv_cache_copies).
  int kv_copies = 1;
  OffloadEngine engine = OffloadEngine::vllm;
  /// Absent: each GPU streams at its link's rate, sharing nothing.
  std::optional<HostShare> share = std::nullopt;
  /// Host memory the spill must fit in; absent: not checked.
  std::optional<Bytes> host_memory = std::nullopt;
  /// The fraction of HBM bandwidth reads reach; absent: the GPU's catalog figure.
  std::optional<double> hbm_fraction = std::nullopt;
};

/// One decode step with the spilled bytes streamed over one host link.
struct HostLinkStep {
  const Link* link = nullptr;
  /// One-way headline bandwidth (fast end of a range).
  BytesPerSecond bandwidth;
  /// How many times slower per byte the host tier is than HBM.
  double tier_ratio = 0;
  /// Each GPU's streaming rate at that bandwidth (stream_rate).
  StreamRate stream;
  Seconds step;
  /// step / step with everything in HBM.
  double slowdown = 0;
  std::optional<BytesPerSecond> expected_bandwidth;
  std::optional<StreamRate> expected_stream;
  std::optional<Seconds> expected_step;
  std::optional<double> expected_slowdown;
};

struct Offload {
  /// Usable HBM of all GPUs together.
  Bytes hbm;
  /// Every copy of the KV cache the GPUs hold.
  Bytes kv_held;
  /// Weights plus the KV cache held.
  Bytes needed;
  /// What does not fit in HBM and lives in host memory.
  Bytes spilled;
  /// What stays in HBM.
  Bytes resident;
  /// The fraction of HBM bandwidth the reads reach (achieved_hbm_fraction).
  double hbm_fraction = 1;
  /// The decode step if HBM held everything.
  Seconds step_all_hbm;
  /// The HBM part of a step: the resident bytes at the GPUs' HBM bandwidth.
  Seconds step_hbm_part;
  OffloadEngine engine = OffloadEngine::vllm;
  std::optional<Bytes> host_memory = std::nullopt;
  /// Whether the spill fits in host memory; absent when no host memory was given.
  std::optional<bool> fits_host_memory;
  std::vector<HostLinkStep> links;
};

/// One decode step: the HBM part and the streaming part (spilled bytes over all GPUs at
/// `per_gpu` each), added (vllm) or overlapped at best (prefetch).
Seconds offload_step(OffloadEngine engine, Seconds hbm_part, Bytes spilled, int gpus,
                     BytesPerSecond per_gpu);

/// The decode step (memory-bound: every byte of weights and KV read once) with the spilled
/// bytes streamed over each host link, against everything in HBM. Throws InputError on a
/// GPU count below 1, a reserve outside [0, 1), a missing GPU or link, or a host share
/// with fewer than one GPU per uplink or node.
Offload offload(const OffloadInput& input);

} // namespace icx
