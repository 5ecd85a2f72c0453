// icx offload's report: what of a model's weights and KV cache does not fit in HBM, and what
// streaming it over each host link every decode step costs against everything in HBM.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/host/host_link.hpp"
#include "icx/memory/hbm.hpp"

namespace icx {

/// The sequences whose KV cache the GPUs hold.
struct KvLoad {
  std::int64_t batch = 0;
  /// Tokens of context per sequence.
  std::int64_t context = 0;
};

struct OffloadRequest {
  const Model* model = nullptr;
  /// The weights' element type; the KV cache is held in it too.
  const Dtype* dtype = nullptr;
  /// The routed experts' element type; nullptr: `dtype`.
  const Dtype* expert_dtype = nullptr;
  const Gpu* gpu = nullptr;
  /// GPUs sharing weights and KV cache in equal parts.
  int gpus = 1;
  /// Fraction of each GPU's HBM kept free (icx/memory/hbm.hpp).
  double reserve = default_memory_reserve;
  /// Absent: no KV cache, the weights alone.
  std::optional<KvLoad> kv;
  /// Host links to price the spill on, in order; at least one.
  std::vector<const Link*> host_links;
  OffloadEngine engine = OffloadEngine::vllm;
  /// The system whose host side is shared (nullptr: none, each GPU streams alone).
  const System* system = nullptr;
  /// Host memory the spill must fit in; absent: not checked.
  std::optional<Bytes> host_memory;
  /// The fraction of HBM bandwidth a decode's reads reach, given (--hbm-fraction); absent: the
  /// tuning's, else the GPU's catalog figure.
  std::optional<double> hbm_fraction;
  /// The GPU's setup (--tuning, as gpu_tuning reads it); empty: its default setup.
  std::string tuning;
};

/// Why the GPUs hold as many copies of the KV cache as they do.
enum class KvCopyReason {
  /// KV heads split over the tensor-parallel ranks: one copy in all.
  heads_split,
  /// A tensor-parallel group wider than the KV heads replicates them.
  heads_replicated,
  /// Latent attention: every tensor-parallel rank holds the whole latent cache.
  latent_per_rank
};

struct OffloadReport {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  const Gpu* gpu = nullptr;
  int gpus = 0;
  double reserve = 0;
  const System* system = nullptr;
  std::optional<KvLoad> kv_load;
  /// Terms of the KV cache per token (kv_shape of the model in the weights' dtype).
  KvShape kv_shape;
  Bytes weights;
  /// One copy of the KV cache (zero without a KV load).
  Bytes kv_cache;
  /// The tensor-parallel group the GPUs form, the KV copies they hold, and why.
  int tp_width = 1;
  int kv_copies = 1;
  KvCopyReason kv_copy_reason = KvCopyReason::heads_split;
  /// The same in words: "a 16-GPU tensor-parallel group replicates the 8 KV heads".
  std::string kv_copies_why;
  /// Values cached per token, as a product of the model's terms: "2 × 80 layers × 8 KV heads
  /// × 128 head dim" or, with latent attention, "61 layers × (512 + 64) latent".
  std::string kv_per_token_terms;
  /// Where the HBM fraction comes from: given (--hbm-fraction), else the GPU's setup (its
  /// tuning, when it has one with an HBM figure), else the GPU's catalog figure.
  bool hbm_fraction_given = false;
  const GpuTuning* tuning = nullptr;
  /// HBM, spill and the decode step over each host link.
  Offload result;
};

/// The host share of a system with a host side: its GPUs per uplink and per node and its DRAM
/// bandwidth per node; nothing for a system without one.
std::optional<HostShare> host_share(const System& system);

/// The host memory `gpus` GPUs of `system` have: its DRAM per node × the nodes they fill
/// (node_count); nothing for a system without a host side.
std::optional<Bytes> host_memory(const System& system, int gpus);

/// The offload of the request. Throws GroupError when the weights cannot be split over the
/// GPUs (check_shard); InputError on a KV load for a model without KV heads and head
/// dimension, a reserve outside [0, 1), or a missing model, dtype, GPU or link.
OffloadReport offload_report(const OffloadRequest& request);

/// The report's figures in base units; the first host link's step also at the top level.
void to_json(nlohmann::ordered_json& json, const HostLinkStep& step);
void to_json(nlohmann::ordered_json& json, const OffloadReport& report);

} // namespace icx
