// How two devices of a node are connected, in the classes `nvidia-smi topo -m` and
// `rocm-smi --showtopo` print: the catalog's PCIe topologies name the path classes they
// follow, and the topology readers classify each cell of a matrix by them.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "icx/base/enum_names.hpp"

namespace icx {

/// How two devices are connected, from the closest to the farthest PCIe
/// class as NCCL orders them (PIX < PXB < PHB < NODE < SYS).
enum class PathKind {
  self,    ///< X: the device itself
  nvlink,  ///< NV<n>: a bonded set of n NVLinks
  xgmi,    ///< XGMI (rocm-smi): AMD Infinity Fabric
  pix,     ///< PIX: at most one PCIe bridge
  pxb,     ///< PXB: several PCIe bridges, not the host bridge
  phb,     ///< PHB: through a PCIe host bridge (the CPU)
  node,    ///< NODE: across host bridges within one NUMA node
  sys,     ///< SYS (SOC in old drivers): across the SMP link between NUMA nodes
  pcie,    ///< PCIE (rocm-smi): PCIe of an unstated class
  unknown, ///< N/A: the tool could not tell
};

constexpr std::array<EnumName<PathKind>, 11> enum_names(PathKind /*unused*/) {
  return {{{PathKind::self, "X"},
           {PathKind::nvlink, "NV"},
           {PathKind::xgmi, "XGMI"},
           {PathKind::pix, "PIX"},
           {PathKind::pxb, "PXB"},
           {PathKind::phb, "PHB"},
           {PathKind::node, "NODE"},
           {PathKind::sys, "SYS"},
           {PathKind::sys, "SOC"},
           {PathKind::pcie, "PCIE"},
           {PathKind::unknown, "N/A"}}};
}

/// The rank of a path as NCCL orders distances: closer is lower (the enum's order).
constexpr int distance_rank(PathKind kind) {
  return static_cast<int>(kind);
}

/// Whether a NIC at `kind` from a GPU is one NCCL uses for GPUDirect RDMA by default: PXB or
/// closer (NCCL_NET_GDR_LEVEL).
constexpr bool within_gdr_reach(PathKind kind) {
  return kind == PathKind::pix || kind == PathKind::pxb;
}

/// Whether `kind` is a GPU-to-GPU fabric link (NVLink or XGMI) rather than a PCIe path.
constexpr bool is_scale_up(PathKind kind) {
  return kind == PathKind::nvlink || kind == PathKind::xgmi;
}

/// The PCIe path class a printed token names (PIX, PXB, PHB, NODE, SYS or the old SOC);
/// nullopt for any other token.
std::optional<PathKind> pcie_path_class(std::string_view token);

} // namespace icx
