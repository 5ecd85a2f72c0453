// A catalog system built from a node's topology matrix (icx/topo/matrix.hpp), so every command can
// price the node as it is wired: its GPU count, scale-up domains, the PCIe classes between its
// GPUs and the NICs next to them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/topo/matrix.hpp"

namespace icx {

/// What the matrix cannot say, from the user's flags.
struct TopoSystemRequest {
  /// The system's id and the file the matrix was read from (for its source).
  std::string id;
  std::string file;
  /// The GPU (the matrix names none).
  const Gpu* gpu = nullptr;
  /// A catalog system this node is one of (--system): the domain beyond a tray, the NICs'
  /// link and rails, the host side and price.
  const System* base = nullptr;
  /// The GPUs' PCIe link; needed when some GPU pair talks over PCIe.
  const Link* pcie = nullptr;
  /// The link of one NIC between nodes.
  const Link* scale_out = nullptr;
  /// GPUs in one scale-up domain when the matrix shows only part of it (a GB200 tray).
  std::optional<int> domain;
};

struct TopoSystem {
  System system;
  /// The PCIe link as this node's matrix shows it (id "<system>-pcie"): the catalog link with
  /// its topologies' default group sizes set from the PCIe classes between the GPUs; empty
  /// when no GPU pair talks over PCIe.
  std::vector<Link> links;
  /// What was taken from where, one sentence each, for the report.
  std::vector<std::string> assumed;
};

/// Throws InputError when the matrix joins GPUs over a fabric (NVLink in nvidia-smi's, XGMI in
/// rocm-smi's) other than `gpu`'s scale-up `link` is (catalog gpu_fabric): the matrix cannot be
/// of this GPU. A link without gpu_fabric is not checked.
void check_matrix_fabric(const NodeTopology& node, const Link& link, const Gpu& gpu);

/// When the matrix shows fewer NVLinks per GPU than `gpu`'s scale-up `link` has
/// (links_per_gpu), a sentence saying so (links are down, or the matrix is of another GPU).
/// Throws InputError when it shows more: the matrix cannot be of this GPU.
std::optional<std::string> nvlink_count_note(const NodeTopology& node, const Link& link,
                                             const Gpu& gpu);

/// The topology of a PCIe `link` whose nvidia-smi path classes (topo_paths) include `kind`;
/// nullptr when none does.
const LinkTopology* topology_of_path(const Link& link, PathKind kind);

/// The GPUs of the largest group of consecutive GPUs (starting at multiples of its size) in
/// which no two GPUs are farther apart than `limit` over PCIe (NVLink pairs always qualify);
/// 1 when no two are.
int largest_group_within(const NodeTopology& node, PathKind limit);

/// The farthest PCIe class between two GPUs of the groups of `size` consecutive GPUs (pairs
/// joined by NVLink or XGMI skipped); nullopt when there is none.
std::optional<PathKind> worst_path_in_groups(const NodeTopology& node, int size);

/// The catalog system the matrix describes. Throws InputError when the request cannot make
/// one: no GPU, an NVLink matrix for a GPU without NVLink, PCIe pairs without a PCIe link, or
/// no scale-out link.
TopoSystem topo_system(const Catalog& catalog, const NodeTopology& node,
                       const TopoSystemRequest& request);

/// One link's bandwidth each way on a GPU-to-GPU link: its per-direction bandwidth ÷ the links
/// each GPU has; nullopt when the catalog gives no link count.
std::optional<BytesPerSecond> per_link_each_way(const Link& scale_up);

} // namespace icx
