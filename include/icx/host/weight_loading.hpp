// The expected time to load a model's weights with a given loader: the read of each node's
// shards at the loader's fitted rates (warm from host memory, cold from storage), the copy to
// each GPU, and the loader's fixed overhead. The hard floor is cold_start (icx/host/host_link.hpp).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/host/host_link.hpp"

namespace icx {

/// What bounds an expected load.
enum class LoadLimit {
  /// Each rank's own read, deserialise and copy rate (loader.*.rank × ranks).
  rank,
  /// The node's rate for all its ranks together (loader.*.node).
  node,
  /// The storage tier's read bandwidth.
  storage,
  /// Each GPU's copy over its host link, shared by the GPUs behind one switch uplink.
  host_copy
};

constexpr std::array<EnumName<LoadLimit>, 4> enum_names(LoadLimit /*unused*/) {
  return {{{LoadLimit::rank, "rank"},
           {LoadLimit::node, "node"},
           {LoadLimit::storage, "storage"},
           {LoadLimit::host_copy, "host-copy"}}};
}

struct ExpectedLoad {
  const Loader* loader = nullptr;
  /// The weights come from host memory (no tier, or a cached one): the loader's warm rates.
  bool warm = true;
  /// Ranks (GPUs) on the fullest node, and the bytes of their shards.
  int ranks = 0;
  Bytes node_bytes;
  /// The node's read rate: the smallest of ranks × rank rate, node rate and the tier's share.
  BytesPerSecond read_rate;
  LoadLimit read_limit = LoadLimit::rank;
  Seconds read;
  /// One GPU's shard over its host link (measured copy rate, shared per uplink).
  BytesPerSecond copy_rate;
  Seconds copy;
  /// overhead + max(read, copy): reading and copying overlap, the slower bounds.
  Seconds total;
  LoadLimit limit = LoadLimit::rank;
};

/// The expected load of `path`'s weights with `loader`. Throws InputError as cold_start does.
ExpectedLoad expected_load(const ColdStartInput& path, const Loader& loader);

/// A node's host memory as a storage tier: the page-cache tier `page_cache` with the node's
/// DRAM bandwidth (all sockets) in place of its one-socket figure.
StorageTier node_page_cache(const HostSide& host, const StorageTier& page_cache);

/// A node's local NVMe drives striped (RAID 0, where sequential reads add across drives) as one
/// per-node tier: drives × one drive's read bandwidth.
StorageTier node_nvme(const HostSide& host, const StorageTier& drive);

} // namespace icx
