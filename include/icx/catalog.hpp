// The hardware and model catalog: links, GPUs, models and dtypes, each with its source.
// The shipped catalog is embedded in the binary; user files overlay it (same id replaces,
// new id adds).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "icx/enum_names.hpp"
#include "icx/units.hpp"

namespace icx {

/// Where a link sits in the hierarchy: inside the NVLink domain, between host and GPU, or
/// between nodes.
enum class Tier { scale_up, host, scale_out };

constexpr std::array<EnumName<Tier>, 3> enum_names(Tier /*unused*/) {
  return {{{Tier::scale_up, "scale-up"}, {Tier::host, "host"}, {Tier::scale_out, "scale-out"}}};
}

/// The GPU-to-GPU fabric a scale-up link is, as a topology matrix shows it: NV<n> cells in
/// `nvidia-smi topo -m`, XGMI cells in `rocm-smi --showtopo`.
enum class GpuFabric { nvlink, xgmi };

constexpr std::array<EnumName<GpuFabric>, 2> enum_names(GpuFabric /*unused*/) {
  return {{{GpuFabric::nvlink, "nvlink"}, {GpuFabric::xgmi, "xgmi"}}};
}

/// How a vendor's bandwidth figure counts directions.
enum class Convention { both_directions_summed, each_way };

constexpr std::array<EnumName<Convention>, 2> enum_names(Convention /*unused*/) {
  return {{{Convention::both_directions_summed, "both-directions-summed"},
           {Convention::each_way, "each-way"}}};
}

/// The convention as a reader says it after a figure: "both ways summed" or "each way".
std::string_view convention_label(Convention convention);

/// What every catalog entry has: an id, a display name, aliases and a source.
struct Entry {
  std::string id;
  std::string name;
  std::vector<std::string> aliases;
  std::string source;
  /// The file the entry was read from ("<shipped>/links.json" for the embedded catalog).
  std::string origin;
  bool operator==(const Entry&) const = default;
};

/// In-network reduction (NVLink SHARP, "NVLS"): the switch adds the GPUs' buffers (or
/// multicasts them), so each GPU's traffic is at most S each way (in_network_traffic in
/// collectives.hpp). One set of parameters serves every operation NVLS performs.
struct InNetworkReduction {
  /// Large-message algorithm bandwidth as a fraction of the per-direction bandwidth.
  double efficiency = 0;
  /// Fixed time of one operation, independent of the GPU count.
  Seconds latency;
  bool operator==(const InNetworkReduction&) const = default;
};

/// One kernel of a serving engine's own all-reduce (vLLM's and SGLang's custom all-reduce,
/// PyTorch symmetric-memory multimem): a fixed latency plus its bytes at a fraction of the
/// per-direction bandwidth (the bytes per kernel are in collectives.hpp, engine_wire_factor).
struct EngineKernelParameters {
  Seconds latency;
  double efficiency = 0;
  bool operator==(const EngineKernelParameters&) const = default;
};

/// The serving engines' own all-reduce kernels on a link, where published engine benchmarks
/// fix them; absent kernels fall back to NCCL.
struct EngineAllReduce {
  std::optional<EngineKernelParameters> one_shot;
  std::optional<EngineKernelParameters> two_shot;
  std::optional<EngineKernelParameters> multimem;
  std::string source;
  bool operator==(const EngineAllReduce&) const = default;
};

/// One expert-parallel kernel (DeepEP's dispatch or combine) on a link: a fixed latency plus
/// the bytes that cross the link at a fraction of its per-direction bandwidth (the bytes per
/// kernel are in icx/expert_parallel.hpp).
struct EpKernelParameters {
  double efficiency = 0;
  Seconds latency;
  bool operator==(const EpKernelParameters&) const = default;
};

/// Expert-parallel dispatch and combine kernels on a link, where published benchmarks (DeepEP's
/// high-throughput "normal" kernels and its low-latency kernels) fix them; absent kernels fall
/// back to the link's NCCL figures.
struct ExpertParallelKernels {
  std::optional<EpKernelParameters> normal_dispatch;
  std::optional<EpKernelParameters> normal_combine;
  std::optional<EpKernelParameters> low_latency_dispatch;
  std::optional<EpKernelParameters> low_latency_combine;
  std::string source;
  bool operator==(const ExpertParallelKernels&) const = default;
};

/// Parameters of the expected (measured-NCCL) cost model of a link, fitted per link
/// generation to published nccl-tests results; see collectives.hpp for the formulas. The
/// model has NCCL's own form: per algorithm and protocol a latency and a bandwidth, the
/// fastest taken at each size.
struct ExpectedModel {
  /// Large-message bus bandwidth of ring collectives (the Simple protocol) as a fraction of
  /// the per-direction bandwidth (nccl-tests busbw / per-direction line rate).
  double efficiency = 0;
  /// Latency of one ring step (2(n-1) steps for an all-reduce over n GPUs).
  Seconds step_latency;
  /// The Simple protocol's latency on top of the ring's steps (its pipeline fill and drain).
  Seconds ramp;
  /// The low-latency (LL) protocol moves data at 1/(1 + slowdown) of the Simple rate.
  double small_message_slowdown = 0;
  /// Present where the link's switches reduce in the network.
  std::optional<InNetworkReduction> in_network_reduction;
  /// Present where serving engines' own all-reduce kernels have published figures.
  std::optional<EngineAllReduce> engine_all_reduce;
  /// Present where expert-parallel kernels have published figures on the link.
  std::optional<ExpertParallelKernels> expert_parallel;
  std::string source;
  bool operator==(const ExpectedModel&) const = default;
};

/// How GPUs on a host link (PCIe) reach each other, which decides what a ring gets from
/// the link: under one PCIe switch, through one CPU's root complex, or across sockets. Each
/// topology replaces the expected model's efficiency and step latency.
struct LinkTopology {
  std::string id;
  std::string description;
  double efficiency = 0;
  Seconds step_latency;
  /// The topology assumed for groups of up to this many GPUs when none is named (the
  /// smallest such bound that holds the group wins); absent: only when named.
  std::optional<int> default_up_to_gpus;
  /// The path classes `nvidia-smi topo -m` prints between two GPUs of this topology ("PIX",
  /// "SYS", …): how a node's matrix is mapped to it (icx/topo_system.hpp); empty: none.
  std::vector<std::string> topo_paths;
  std::string source;
  bool operator==(const LinkTopology&) const = default;
};

struct Link : Entry {
  std::string connects;
  /// The link joins GPU to GPU, so collectives may run on it (false for a CPU↔GPU link such
  /// as NVLink-C2C, which only a host transfer uses).
  bool gpu_to_gpu = true;
  Tier tier = Tier::scale_up;
  /// Per-GPU bandwidth as vendors and the textbook table quote it.
  Range<BytesPerSecond> headline_bandwidth;
  /// Which directions the headline figure counts.
  Convention headline_convention = Convention::each_way;
  /// Bandwidth in one direction.
  Range<BytesPerSecond> per_direction_bandwidth;
  Range<Seconds> latency;
  /// Measured host-to-device copy bandwidth (nvbandwidth), for host links where one is
  /// published; the source text names the measurement.
  std::optional<BytesPerSecond> measured_host_to_device;
  /// Most GPUs one domain of this link can join (an NVLink Switch system, a PCIe hierarchy);
  /// absent for a switched network fabric, which the catalog does not bound.
  std::optional<int> max_domain_gpus;
  /// The GPU-to-GPU links (NVLinks, Infinity Fabric links) one GPU has on this link, which
  /// `nvidia-smi topo -m` counts as NV<n>: per_direction_bandwidth / links_per_gpu is one
  /// link's share. Absent for links that are not counted so (PCIe, NICs).
  std::optional<int> links_per_gpu;
  /// The fabric a topology matrix shows this link as; absent for a link that is not a GPU
  /// fabric (PCIe, NICs, CPU↔GPU links).
  std::optional<GpuFabric> gpu_fabric;
  /// Absent where no published measurement fixes the expected model's parameters.
  std::optional<ExpectedModel> expected;
  /// Topologies the expected model distinguishes on this link (PCIe), by id; empty for
  /// most links.
  std::vector<LinkTopology> topologies;
  bool operator==(const Link&) const = default;
};

struct Gpu : Entry {
  Bytes hbm_capacity;
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
  int attention_heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate_size = 0;
  int vocab_size = 0;
  /// Routed experts per MoE layer; 0 for a dense model.
  int experts = 0;
  int experts_per_token = 0;
  /// Group-limited routing (DeepSeek's n_group and topk_group): the routed experts form
  /// `expert_groups` equal groups and each token picks its experts from at most
  /// `expert_groups_per_token` of them; 0 for both: no limit.
  int expert_groups = 0;
  int expert_groups_per_token = 0;
  [[nodiscard]] bool is_moe() const { return experts > 0; }

  // Architecture details a Hugging Face config gives and the catalog need not: what
  // count_parameters (icx/parameter_count.hpp) reads. Zero means "not used" or "as above".

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
  bool operator==(const Model&) const = default;
};

struct Dtype : Entry {
  double bytes_per_element = 0;
  bool operator==(const Dtype&) const = default;
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

  [[nodiscard]] std::span<const Link> links() const { return entries_.links; }
  [[nodiscard]] std::span<const Gpu> gpus() const { return entries_.gpus; }
  [[nodiscard]] std::span<const Model> models() const { return entries_.models; }
  [[nodiscard]] std::span<const Dtype> dtypes() const { return entries_.dtypes; }
  [[nodiscard]] std::span<const System> systems() const { return entries_.systems; }
  [[nodiscard]] std::span<const StorageTier> storage_tiers() const { return entries_.storage; }
  [[nodiscard]] std::span<const Loader> loaders() const { return entries_.loaders; }

private:
  void check_references() const;
  /// Why a system's host side is inconsistent (a link that is not a host link, an unknown
  /// storage tier); empty when it is not.
  [[nodiscard]] std::string host_side_problem(const HostSide& host) const;

  CatalogEntries entries_;
  /// Every entry's names, so a lookup or a merge does not scan a section.
  CatalogNames names_;
};

} // namespace icx
