// What a node's topology matrix means for the GPUs on it (icx topo): the bandwidth of each
// GPU pair, the domains, an all-reduce that crosses sockets against one that stays inside,
// the NICs next to the GPUs, and the catalog system the node makes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/topo/matrix.hpp"
#include "icx/topo/system.hpp"

namespace icx {

struct TopoReportRequest {
  /// The file the matrix came from, as the user named it.
  std::string file;
  /// The GPU, for per-pair bandwidth; nullptr: unknown (bandwidths are null).
  const Gpu* gpu = nullptr;
  /// Where the GPU came from ("--gpu", "--system dgx-h100", "line 3: NVIDIA A30"), or why none
  /// did; empty when nothing named one.
  std::string gpu_from;
  /// The GPUs' PCIe link, for the all-reduce across sockets; nullptr: not priced.
  const Link* pcie = nullptr;
  /// The all-reduce message the comparison prices.
  Bytes size;
  /// The catalog system to build (-o), when asked for.
  std::optional<TopoSystemRequest> system;
};

/// One all-reduce by NCCL: the expected model, or the headline model where the link has none.
struct TopoAllReduce {
  int gpus = 0;
  const Link* link = nullptr;
  /// The link topology priced; empty for a link without topologies.
  std::string topology;
  Seconds seconds;
  /// Priced by the expected model (false: the link has none, so the headline model).
  bool expected = false;
};

/// GPUs on different sockets (SYS): an all-reduce over the whole node against one over the
/// largest group of consecutive GPUs that stays on one socket.
struct SocketCrossing {
  GpuPair pair;
  TopoAllReduce whole;
  std::optional<TopoAllReduce> within;
};

struct TopoReport {
  std::string file;
  NodeTopology node;
  const Gpu* gpu = nullptr;
  std::string gpu_from;
  /// Each pair's bandwidth each way over its NVLinks (or XGMI), as node.pairs.
  std::vector<std::optional<BytesPerSecond>> pair_bandwidth;
  Bytes size;
  std::optional<SocketCrossing> crossing;
  std::optional<TopoSystem> system;
  /// What follows for the user, one sentence each.
  std::vector<std::string> consequences;
};

/// Throws InputError as topo_system does.
TopoReport topo_report(const Catalog& catalog, const NodeTopology& node,
                       const TopoReportRequest& request);

/// The catalog document -o writes: the system and the links it needs.
Json topo_overlay(const TopoSystem& system);

/// icx.topo/1.
void to_json(Json& json, const TopoReport& report);

} // namespace icx
