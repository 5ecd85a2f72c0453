// The hardware and model catalog: links (icx/catalog/link.hpp), GPUs, models, dtypes,
// systems, storage, loaders and serving engines, each with its source.
// The shipped catalog is embedded in the binary; user files overlay it (same id replaces,
// new id adds).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/curves.hpp"
#include "icx/catalog/dtype.hpp"
#include "icx/catalog/engine.hpp"
#include "icx/catalog/link.hpp"

namespace icx {

/// How well the serving software is tuned on a GPU (--tuning): an assumption a user states, as
/// the published runs of one GPU differ by their setup more than by anything icx prices.
/// Figures left out are the GPU's own catalog figures.
struct GpuTuning {
  std::string id;
  /// What the setup is, in a phrase ("the image's defaults").
  std::string name;
  /// Fraction of dense peak a prefill reaches; absent: the GPU's achievable_mfu.
  std::optional<double> mfu;
  /// The same for an MoE model's routed experts, and for every GEMM of a model with latent
  /// attention (DeepSeek-class: its latent attention and block-scaled FP8 projections run on the
  /// setup's MoE path too); absent: `mfu`.
  std::optional<double> moe_mfu;
  /// Fraction of the BF16 dense peak a prefill's grouped-query attention reaches where no
  /// measured curve prices it (the setup's own attention kernel, which may run far below its
  /// GEMMs); absent: `mfu`. A latent-attention model's runs at `moe_mfu`.
  std::optional<double> attention_mfu;
  /// Fraction of the datasheet HBM bandwidth a decode reaches; absent: the GPU's figure.
  std::optional<double> hbm_fraction;
  /// Share of its measured attention curve's cache-read rate a decode keeps in this setup's
  /// serving (published serving runs against the kernel tables' isolated times); absent: 1.
  std::optional<double> cache_read_scale;
  /// Time an all-reduce's ring spends beyond the link's measured latency, per ring step: the
  /// setup's synchronisation and launches, which grow with the tensor group.
  Seconds ring_step;
  /// The tuning assumed when --tuning names none (one per GPU).
  bool is_default = false;
  std::string source;
  bool operator==(const GpuTuning&) const = default;
};

struct Gpu : Entry {
  /// The datasheet's memory.
  Bytes hbm_capacity;
  /// The memory the driver reports (nvidia-smi's total, torch's total_memory), which engines
  /// size their caches by; absent: none published, the datasheet figure is used.
  std::optional<Bytes> device_memory;
  /// device_memory where published, else hbm_capacity.
  [[nodiscard]] Bytes memory() const { return device_memory.value_or(hbm_capacity); }
  BytesPerSecond hbm_bandwidth;
  /// Dense (no sparsity) peak compute, by dtype id.
  std::map<std::string, FlopsPerSecond, std::less<>> dense_peak;
  /// Id of the link that joins this GPU to its peers inside the scale-up domain; the only
  /// scale-up-tier link the GPU has (host and scale-out links suit any GPU).
  std::string scale_up_link;
  /// GPUs in one scale-up (NVLink) domain.
  int scale_up_domain = 0;
  /// Fraction of dense peak a prefill is assumed to reach (model FLOPs utilisation).
  double achievable_mfu = 0;
  /// Fraction of the datasheet HBM bandwidth a memory-bound kernel reaches (published
  /// streaming benchmarks); absent: none published, the datasheet figure is used as is.
  std::optional<double> achievable_hbm_fraction;
  /// The curves of the default engine's kernels (vLLM's); none: priced at achievable_mfu.
  KernelCurves curves;
  /// Other engines' curves by engine id, each dtype's and the attention the engine's own or
  /// else `curves`'s (completed after every overlay).
  std::map<std::string, KernelCurves, std::less<>> engine_curves;
  /// Another GPU whose measured curves (every engine's) this one is priced by, each a
  /// fraction of this GPU's own peak and HBM bandwidth: a GPU of the same die whose own
  /// kernel tables are not fitted, an assumption its source names. Empty: its own curves.
  std::string curves_from;
  /// The curves `engine`'s kernels run by: its own, else the default engine's.
  [[nodiscard]] const KernelCurves& curves_for(const Engine* engine) const;
  /// Named setups of the serving software on this GPU (--tuning); empty: the catalog figures
  /// and curves alone describe it.
  std::vector<GpuTuning> tunings;
  /// The GPU assumed when nothing names one and no GPU uses the wire as its scale-up link.
  bool reference = false;
  bool operator==(const Gpu&) const = default;
};

struct Model : Entry {
  int hidden = 0;
  int layers = 0;
  double total_params = 0;
  /// Parameters used per token (equals total_params for a dense model).
  double active_params = 0;
  std::string default_dtype;
  /// The routed experts' dtype where the checkpoint stores them apart (gpt-oss); empty: as above.
  std::string expert_dtype;
  int attention_heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate_size = 0;
  int vocab_size = 0;
  /// Layers whose attention sees only the last sliding_window tokens (gpt-oss's alternate
  /// layers): their KV cache holds that many at most; 0: every layer attends to all.
  int sliding_layers = 0;
  int sliding_window = 0;
  /// The longest sequence, prompt and output, the checkpoint's config allows (Hugging Face's
  /// max_position_embeddings), which engines take as their max_model_len when none is given;
  /// 0: not known.
  std::int64_t max_context = 0;
  /// Routed experts per MoE layer; 0 for a dense model.
  int experts = 0;
  int experts_per_token = 0;
  /// Group-limited routing (DeepSeek's n_group and topk_group): the routed experts form
  /// `expert_groups` equal groups and each token picks its experts from at most
  /// `expert_groups_per_token` of them; 0 for both: no limit.
  int expert_groups = 0;
  int expert_groups_per_token = 0;
  [[nodiscard]] bool is_moe() const { return experts > 0; }
  /// Replaces the parameter count: a dense model uses every parameter per token; an MoE
  /// model keeps its active count unless that would exceed the new total.
  void set_total_params(double params);

  // Architecture details a Hugging Face config gives and the catalog need not: what
  // count_parameters (icx/catalog/parameter_count.hpp) reads. Zero means "not used" or "as above".

  /// The output projection shares the input embedding's weights.
  bool tie_word_embeddings = false;
  /// Intermediate size of one routed expert; 0: intermediate_size.
  int moe_intermediate_size = 0;
  /// Leading layers with a dense MLP instead of experts (DeepSeek's first_k_dense_replace).
  int first_dense_layers = 0;
  /// Always-active experts per MoE layer, each of the routed experts' size.
  int shared_experts = 0;
  /// Total intermediate size of the shared experts, when given as one figure (Qwen-MoE).
  int shared_expert_intermediate_size = 0;
  /// Multi-head latent attention (DeepSeek-V2/V3): low-rank query and key-value projections.
  struct LatentAttention {
    /// 0: the query is projected directly, without a low-rank step.
    int q_lora_rank = 0;
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;
    int v_head_dim = 0;
    bool operator==(const LatentAttention&) const = default;
  };
  std::optional<LatentAttention> latent_attention;
  /// DeepSeek Sparse Attention (DeepSeek-V3.2): a lightning indexer scores every cached token
  /// for each query with `index_heads` heads of `index_head_dim`, and attention then reads only
  /// the `topk` best. The indexer's keys are cached beside the latent, in FP8 with one FP32
  /// scale per 128 values (DeepSeek's reference implementation).
  struct SparseAttention {
    int topk = 0;
    int index_heads = 0;
    int index_head_dim = 0;
    bool operator==(const SparseAttention&) const = default;
  };
  std::optional<SparseAttention> sparse_attention;
  /// Published checkpoints to serve the model from, by the dtype their weights are stored in
  /// (a Hugging Face id or, for a --hf-config model, the config's directory); empty: none
  /// known, so no launch command can name one.
  std::map<std::string, std::string, std::less<>> checkpoints;
  std::string checkpoints_source;
  bool operator==(const Model&) const = default;
};

/// A named cluster building block: a node (or rack) of GPUs and the wires inside and
/// between such blocks.
/// The host side of a node: what a GPU's copies from host memory share.
struct HostSide {
  /// Each GPU's link to the host (a host-tier link id).
  std::string link;
  /// GPUs behind one PCIe switch's uplink to the CPU: their concurrent copies share it (1: each
  /// GPU has its own path to a root port).
  int gpus_per_uplink = 1;
  /// Host DRAM per node, all sockets.
  Bytes dram;
  /// Peak host DRAM bandwidth per node, all sockets.
  BytesPerSecond dram_bandwidth;
  /// Local NVMe drives per node and the storage tier of one drive (empty: none listed).
  int nvme_drives = 0;
  std::string nvme_tier;
  std::string source;
  bool operator==(const HostSide&) const = default;
};

/// A public on-demand list price of one node (one instance, one rack): what renting it costs
/// per hour, when the price was published or read, and where.
struct Price {
  double usd_per_hour = 0;
  /// YYYY-MM-DD (or YYYY-MM where the source gives only the month): list prices change, so
  /// every plan prints the date beside the cost.
  std::string date;
  std::string source;
  bool operator==(const Price&) const = default;
};

struct System : Entry {
  std::string gpu;
  /// GPUs in one node (for NVL72, one rack).
  int gpus_per_node = 0;
  std::string scale_up_link;
  /// GPUs sharing one scale-up (NVLink) domain.
  int scale_up_domain = 0;
  /// One NIC's link between nodes (one port of the node's scale-out fabric).
  std::string scale_out_link;
  /// The link between the scale-up domains of one node when a node holds several (PCIe
  /// between NVLink-bridged pairs; a host link); empty: they are joined by the scale-out link.
  std::string between_domains_link;
  /// Scale-out NICs (ports) per node that collectives use; catalog default: one per GPU.
  int nics_per_node = 0;
  /// The fabric wires NIC k of every node to the same leaf switch (a rail), so traffic
  /// between nodes on one rail crosses one switch.
  bool rail_optimized = false;
  /// Absent for a system whose host side the catalog does not describe.
  std::optional<HostSide> host;
  /// Absent for a system the catalog has no list price for (icx plan then needs --price).
  std::optional<Price> price;
  bool operator==(const System&) const = default;
};

/// Who shares a storage tier's read bandwidth.
enum class StorageScope {
  /// Every node has its own (a local drive, host memory, one node's network limit).
  per_node,
  /// One figure for all nodes together (a single file server).
  shared
};

constexpr std::array<EnumName<StorageScope>, 2> enum_names(StorageScope /*unused*/) {
  return {{{StorageScope::per_node, "per-node"}, {StorageScope::shared, "shared"}}};
}

/// Where weights are read from at cold start.
struct StorageTier : Entry {
  Range<BytesPerSecond> read_bandwidth;
  StorageScope scope = StorageScope::per_node;
  /// The tier is host memory (the page cache): a loader reads it on its warm path.
  bool cached = false;
  bool operator==(const StorageTier&) const = default;
};

/// The host buffer a loader copies to the GPU from.
enum class HostBuffer {
  /// Ordinary (pageable) memory: the driver stages it through a pinned bounce buffer.
  pageable,
  /// Page-locked memory: the copy engine reads it directly.
  pinned,
  /// GPUDirect Storage: the drive writes into GPU memory, no host copy.
  direct
};

constexpr std::array<EnumName<HostBuffer>, 3> enum_names(HostBuffer /*unused*/) {
  return {{{HostBuffer::pageable, "pageable"},
           {HostBuffer::pinned, "pinned"},
           {HostBuffer::direct, "direct"}}};
}

/// A loader's read rates on one path: each rank (one process per GPU) reads its own shard at
/// up to `rank`, and a node's ranks together at up to `node`.
struct LoaderRates {
  BytesPerSecond rank;
  BytesPerSecond node;
  bool operator==(const LoaderRates&) const = default;
};

/// How an inference engine loads a checkpoint into its GPUs, with effective rates fitted on
/// published load times.
struct Loader : Entry {
  HostBuffer buffer = HostBuffer::pinned;
  /// Reading from host memory (the page cache): deserialising and copying, nothing uncached.
  LoaderRates warm;
  /// Reading from a storage tier the page cache does not hold (also capped by the tier).
  LoaderRates cold;
  /// Time per load that does not grow with the bytes (opening files, allocating buffers).
  Seconds overhead;
  bool operator==(const Loader&) const = default;
};

/// Every entry of a catalog, section by section, in document order.
struct CatalogEntries {
  std::vector<Link> links;
  std::vector<Gpu> gpus;
  std::vector<Model> models;
  std::vector<Dtype> dtypes;
  std::vector<System> systems;
  std::vector<StorageTier> storage;
  std::vector<Loader> loaders;
  std::vector<Engine> engines;
};

/// The ids and aliases of one section, case folded, to the position of their entry.
using NameIndex = std::unordered_map<std::string, std::size_t>;

/// One NameIndex per section of CatalogEntries, under the same names.
struct CatalogNames {
  NameIndex links;
  NameIndex gpus;
  NameIndex models;
  NameIndex dtypes;
  NameIndex systems;
  NameIndex storage;
  NameIndex loaders;
  NameIndex engines;
};

class Catalog {
public:
  /// The catalog embedded in the binary at build time.
  static Catalog shipped();

  /// Reads a catalog document; `origin` names it in error messages. Throws CatalogError.
  void overlay_text(std::string_view text, const std::string& origin);
  /// Reads a catalog file and overlays it. Throws CatalogError.
  void overlay_file(const std::filesystem::path& path);

  /// Looks an id or alias up, case-insensitively. Throws LookupError naming what is known
  /// and the nearest match.
  [[nodiscard]] const Link& link(std::string_view query) const;
  [[nodiscard]] const Gpu& gpu(std::string_view query) const;
  [[nodiscard]] const Model& model(std::string_view query) const;
  [[nodiscard]] const Dtype& dtype(std::string_view query) const;
  [[nodiscard]] const System& system(std::string_view query) const;
  [[nodiscard]] const StorageTier& storage(std::string_view query) const;
  [[nodiscard]] const Loader& loader(std::string_view query) const;
  [[nodiscard]] const Engine& engine(std::string_view query) const;

  [[nodiscard]] std::span<const Link> links() const { return entries_.links; }
  [[nodiscard]] std::span<const Gpu> gpus() const { return entries_.gpus; }
  [[nodiscard]] std::span<const Model> models() const { return entries_.models; }
  [[nodiscard]] std::span<const Dtype> dtypes() const { return entries_.dtypes; }
  [[nodiscard]] std::span<const System> systems() const { return entries_.systems; }
  [[nodiscard]] std::span<const StorageTier> storage_tiers() const { return entries_.storage; }
  [[nodiscard]] std::span<const Loader> loaders() const { return entries_.loaders; }
  [[nodiscard]] std::span<const Engine> engines() const { return entries_.engines; }

private:
  void check_references() const;
  /// Throws CatalogError when `dtype`'s kernels_as names a dtype of another width: a curve's
  /// memory fraction prices the bytes a GEMM moves, which another width changes.
  void check_kernels_as(const Dtype& dtype) const;
  /// An engine's kernels_from names another engine by its id, one with kernels of its own.
  void check_kernels_from(const Engine& engine) const;
  /// Copies each costs_from engine's borrowed figures from the engine it names, one with
  /// costs of its own. Throws CatalogError.
  void borrow_engine_costs();
  /// Copies each curves_from GPU's curves from the GPU it names. Throws CatalogError.
  void borrow_curves();
  /// Gives each engine's curves the default engine's dtypes and attention it does not have.
  void complete_engine_curves();
  /// Why a system's host side is inconsistent (a link that is not a host link, an unknown
  /// storage tier); empty when it is not.
  [[nodiscard]] std::string host_side_problem(const HostSide& host) const;

  CatalogEntries entries_;
  /// Every entry's names, so a lookup or a merge does not scan a section.
  CatalogNames names_;
};

} // namespace icx
