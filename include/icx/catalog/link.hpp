// A catalog link: where it sits (tier), how its vendor counts bandwidth, its expected
// (measured-NCCL) model, its PCIe topologies and the kernels engines run on it; and what
// every catalog entry has.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"

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
  /// vLLM's dispatch on this wire's GPUs for 8 of them: its custom kernel below
  /// `vllm_custom_below`, symmetric-memory multimem below `vllm_multimem_below`, NCCL above.
  /// vLLM sets both per compute capability (CUSTOM_ALL_REDUCE_MAX_SIZES and
  /// SYMM_MEM_ALL_REDUCE_MAX_SIZES in all_reduce_utils.py), so they belong to the GPU
  /// generation the wire serves.
  Bytes vllm_custom_below;
  Bytes vllm_multimem_below;
  std::string source;
  bool operator==(const EngineAllReduce&) const = default;
};

/// One expert-parallel kernel (DeepEP's dispatch or combine) on a link: a fixed latency plus
/// the bytes that cross the link at a fraction of its per-direction bandwidth (the bytes per
/// kernel are in icx/wire/expert_parallel.hpp).
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
  /// "SYS", …): how a node's matrix is mapped to it (icx/topo/system.hpp); empty: none.
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
  /// Each GPU has one of its links_per_gpu links to each peer of the domain, no switch between
  /// them (AMD's Infinity Fabric platforms): n GPUs of a group reach one another over n − 1
  /// links, not all of them (group_bandwidth).
  bool full_mesh = false;
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

} // namespace icx
