#include "icx/host/weight_loading.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "icx/base/error.hpp"

namespace icx {

ExpectedLoad expected_load(const ColdStartInput& path, const Loader& loader) {
  const ColdStart floor = cold_start(path);
  ExpectedLoad load;
  load.loader = &loader;
  load.warm = path.storage == nullptr || path.storage->cached;
  load.ranks = floor.gpus_on_fullest_node;
  load.node_bytes = floor.per_gpu * static_cast<double>(load.ranks);
  const LoaderRates& rates = load.warm ? loader.warm : loader.cold;
  // Every rank reads its own shard at the loader's per-rank rate, up to the node's rate.
  load.read_rate = rates.rank * static_cast<double>(load.ranks);
  load.read_limit = LoadLimit::rank;
  if (rates.node < load.read_rate) {
    load.read_rate = rates.node;
    load.read_limit = LoadLimit::node;
  }
  if (const StorageTier* tier = path.storage) {
    // A shared tier is read by every node at once: each gets an equal share.
    const double readers =
        tier->scope == StorageScope::shared ? static_cast<double>(floor.nodes) : 1.0;
    if (const BytesPerSecond share = tier->read_bandwidth.high / readers; share < load.read_rate) {
      load.read_rate = share;
      load.read_limit = LoadLimit::storage;
    }
  }
  load.read = load.node_bytes / load.read_rate;
  const LoadStage& copy = floor.stages.back();
  load.copy_rate = copy.expected_bandwidth.value_or(copy.bandwidth.high);
  load.copy = copy.bytes / load.copy_rate;
  load.limit = load.copy > load.read ? LoadLimit::host_copy : load.read_limit;
  load.total = loader.overhead + std::max(load.read, load.copy);
  return load;
}

StorageTier node_page_cache(const HostSide& host, const StorageTier& page_cache) {
  StorageTier tier = page_cache;
  tier.read_bandwidth = {host.dram_bandwidth, host.dram_bandwidth};
  tier.source = host.source;
  return tier;
}

StorageTier node_nvme(const HostSide& host, const StorageTier& drive) {
  StorageTier tier = drive;
  tier.id = "node-nvme";
  tier.name = fmt::format("{} × {} (RAID 0)", host.nvme_drives, drive.name);
  tier.aliases.clear();
  const double drives = static_cast<double>(host.nvme_drives);
  tier.read_bandwidth = {drive.read_bandwidth.low * drives, drive.read_bandwidth.high * drives};
  tier.scope = StorageScope::per_node;
  tier.cached = false;
  return tier;
}

} // namespace icx
