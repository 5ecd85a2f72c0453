// Reading a node's GPU topology as its operators print it: the matrix of `nvidia-smi topo -m`
// (GPU and NIC rows and columns, CPU/NUMA affinity columns, the legend and NIC legend) and
// the tables of AMD's `rocm-smi --showtopo` (weight, hops, link type, NUMA nodes), and what
// follows from it: which GPU pairs share NVLink (or XGMI), the scale-up domains, the worst
// PCIe path between two GPUs, the NICs next to each GPU and the NUMA layout.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/pcie_path.hpp"

namespace icx {

/// The tool whose output was read.
enum class TopoSource { nvidia_smi, rocm_smi };

constexpr std::array<EnumName<TopoSource>, 2> enum_names(TopoSource /*unused*/) {
  return {{{TopoSource::nvidia_smi, "nvidia-smi"}, {TopoSource::rocm_smi, "rocm-smi"}}};
}

/// One cell of the matrix.
struct TopoPath {
  PathKind kind = PathKind::unknown;
  /// NVLinks of an NV<n> cell; 1 for an XGMI pair one hop apart (a direct link); else 0.
  int links = 0;
  /// The cell as printed ("NV18", "SOC", "XGMI", "X"), for reports.
  std::string token;
};

enum class DeviceKind { gpu, nic };

constexpr std::array<EnumName<DeviceKind>, 2> enum_names(DeviceKind /*unused*/) {
  return {{{DeviceKind::gpu, "gpu"}, {DeviceKind::nic, "nic"}}};
}

struct TopoDevice {
  DeviceKind kind = DeviceKind::gpu;
  /// The matrix's row label: "GPU0", "NIC3", or a NIC's own name in old drivers ("mlx5_0").
  std::string label;
  /// The NIC Legend's name for a NIC label ("mlx5_ib0"); empty when there is no legend.
  std::string legend_name;
  /// The GPU rows' affinity columns as printed ("0-55,112-167", "0", "N/A"); empty when the
  /// column is absent (older drivers, NIC rows).
  std::string cpu_affinity;
  std::string numa_affinity;
  std::string gpu_numa_id;
  /// The legend's name when there is one, else the label.
  [[nodiscard]] const std::string& name() const {
    return legend_name.empty() ? label : legend_name;
  }
};

/// A parsed matrix: devices in the order of its rows (GPUs first, then NICs), and the path
/// of every ordered pair.
struct TopoMatrix {
  TopoSource source = TopoSource::nvidia_smi;
  std::vector<TopoDevice> devices;
  /// paths[i * devices.size() + j]: from device i to device j (the matrix is symmetric).
  std::vector<TopoPath> paths;
  /// rocm-smi's "Weight" and "Hops" tables in the same layout, when the output has them.
  std::vector<std::optional<int>> weights;
  std::vector<std::optional<int>> hops;

  [[nodiscard]] const TopoPath& path(std::size_t from, std::size_t to) const {
    return paths[from * devices.size() + to];
  }
  /// The indices into `devices` of the GPUs, in matrix order.
  [[nodiscard]] std::vector<std::size_t> gpu_indices() const;
  /// The indices into `devices` of the NICs, in matrix order.
  [[nodiscard]] std::vector<std::size_t> nic_indices() const;
};

/// Parses the output of `nvidia-smi topo -m` or `rocm-smi --showtopo` (told apart by their
/// content), with whatever surrounds it in a pasted report: shell prompts and command lines
/// before the matrix, ANSI escapes, tabs or spaces between columns of any width, trailing
/// blanks, text after the legend. Throws InputError "line L, column C: <what was wrong>" for
/// an unknown path token, a row with missing cells, rows out of order or missing (a truncated
/// matrix), a matrix that is not symmetric or whose diagonal is not the device itself, and
/// "no GPU topology matrix …" when the text holds none.
TopoMatrix parse_topo(std::string_view text);

/// A GPU's product name printed in the same paste as the matrix (vLLM's collect_env, SGLang's
/// check_env, nvidia-smi -L: "GPU 0: NVIDIA H100 80GB HBM3", "AMD Instinct MI300X").
struct GpuMention {
  std::size_t line = 0;
  /// As printed: "NVIDIA A100-SXM4-40GB".
  std::string product;
  /// Catalog ids or aliases to try, most specific first: "a100-sxm4-40gb", "a100-sxm4",
  /// "a100".
  std::vector<std::string> candidates;
};

/// The first GPU product name in `text`, or nothing.
std::optional<GpuMention> gpu_mentioned(std::string_view text);

/// How a node's scale-up links are wired, which decides what a pair's NV<n> means.
enum class ScaleUpWiring {
  none,     ///< no NVLink or XGMI pair
  switched, ///< NVSwitch: NV<n> is each GPU's budget to the switches, shared by its peers
  direct,   ///< a mesh or bridges: NV<n> (or XGMI) are the links of that one pair
};

constexpr std::array<EnumName<ScaleUpWiring>, 3> enum_names(ScaleUpWiring /*unused*/) {
  return {{{ScaleUpWiring::none, "none"},
           {ScaleUpWiring::switched, "switched"},
           {ScaleUpWiring::direct, "direct"}}};
}

/// Two GPUs of the node, as indices into NodeTopology's GPUs (0 = the first GPU row).
struct GpuPair {
  int a = 0;
  int b = 0;
  PathKind kind = PathKind::unknown;
  /// The matrix token ("NV18", "PIX", "SYS", "XGMI").
  std::string path;
  /// NVLinks (or direct XGMI links) between them; 0 for a PCIe path.
  int links = 0;
};

struct TopoNic {
  /// The NIC Legend's name ("mlx5_0") when there is one, else the matrix label.
  std::string name;
  /// The GPUs at the NIC's closest path class (indices as in GpuPair); empty without GPUs.
  std::vector<int> nearest_gpus;
  /// That closest class.
  PathKind path = PathKind::unknown;
};

struct NodeTopology {
  TopoSource source = TopoSource::nvidia_smi;
  /// GPU row labels in matrix order ("GPU0", …).
  std::vector<std::string> gpus;
  /// Every unordered GPU pair (a < b), by a then b.
  std::vector<GpuPair> pairs;
  /// Connected groups of GPUs over NVLink or XGMI, each sorted, by their first GPU; a GPU
  /// without such a link is a domain of its own.
  std::vector<std::vector<int>> scale_up_domains;
  ScaleUpWiring wiring = ScaleUpWiring::none;
  /// The farthest PCIe class (PIX < PXB < PHB < NODE < SYS, then PCIE, N/A) between two GPUs
  /// that are not joined by NVLink or XGMI; nullopt when every pair is (or there is one GPU).
  std::optional<PathKind> worst_pcie_path;
  std::vector<TopoNic> nics;
  /// Per GPU, the NICs at PXB or closer: those NCCL uses for GPUDirect RDMA by default.
  std::vector<int> nics_per_gpu;
  /// Per GPU, the NICs at PIX (behind the same PCIe switch).
  std::vector<int> nics_per_gpu_pix;
  /// Distinct NUMA affinities of the GPUs (each affinity set as printed counts once);
  /// nullopt when the output gives none.
  std::optional<int> numa_nodes;
};

/// The most NVLinks any NVIDIA GPU has (H100, H200, B200: 18). A GPU whose NV<n> cells add
/// up to more than that over its peers must reach them through NVSwitches.
inline constexpr int max_nvlinks_per_gpu = 18;

/// Derives the node description from a parsed matrix.
NodeTopology describe_topology(const TopoMatrix& matrix);

/// The bandwidth each way between the two GPUs of `pair` over their links alone: `links` ×
/// `per_link_each_way` (the GPU's per-link figure each way, from the catalog). nullopt when
/// the figure is unknown or the pair has no NVLink/XGMI link. On a switched board this is
/// what the pair gets when no other peer shares the GPU's links.
std::optional<BytesPerSecond>
pair_bandwidth_each_way(const GpuPair& pair, std::optional<BytesPerSecond> per_link_each_way);

} // namespace icx
