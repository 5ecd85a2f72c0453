// What a node's topology matrix says (icx/topo/matrix.hpp): pairs, scale-up domains, the worst
// PCIe path, NICs next to GPUs and the NUMA layout.
#include "icx/topo/matrix.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace icx {

namespace {

/// A printed affinity that says nothing: absent, N/A, or rocm-smi's -1 for "no NUMA".
bool is_unknown_affinity(const std::string& text) {
  return text.empty() || text == "N/A" || text == "-1";
}

/// Union-find root of `gpu`.
int root(std::vector<int>& parent, int gpu) {
  while (parent[static_cast<std::size_t>(gpu)] != gpu) {
    auto& up = parent[static_cast<std::size_t>(gpu)];
    up = parent[static_cast<std::size_t>(up)];
    gpu = up;
  }
  return gpu;
}

std::vector<std::vector<int>> domains_of(int gpus, const std::vector<GpuPair>& pairs) {
  std::vector<int> parent(static_cast<std::size_t>(gpus));
  std::iota(parent.begin(), parent.end(), 0);
  for (const GpuPair& pair : pairs) {
    if (is_scale_up(pair.kind)) {
      const int a = root(parent, pair.a);
      const int b = root(parent, pair.b);
      parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
  }
  std::vector<std::vector<int>> domains;
  std::vector<int> domain_of_root(static_cast<std::size_t>(gpus), -1);
  for (int gpu = 0; gpu < gpus; ++gpu) {
    const auto top = static_cast<std::size_t>(root(parent, gpu));
    if (domain_of_root[top] < 0) {
      domain_of_root[top] = static_cast<int>(domains.size());
      domains.emplace_back();
    }
    domains[static_cast<std::size_t>(domain_of_root[top])].push_back(gpu);
  }
  return domains;
}

ScaleUpWiring wiring_of(int gpus, const std::vector<GpuPair>& pairs) {
  std::vector<int> links(static_cast<std::size_t>(gpus), 0);
  bool nvlink = false;
  bool xgmi = false;
  for (const GpuPair& pair : pairs) {
    nvlink = nvlink || pair.kind == PathKind::nvlink;
    xgmi = xgmi || pair.kind == PathKind::xgmi;
    if (pair.kind == PathKind::nvlink) {
      links[static_cast<std::size_t>(pair.a)] += pair.links;
      links[static_cast<std::size_t>(pair.b)] += pair.links;
    }
  }
  if (!nvlink && !xgmi) {
    return ScaleUpWiring::none;
  }
  // A direct mesh splits each GPU's links among its peers; a total above what any GPU has
  // means every NV<n> is the same links counted once per peer: NVSwitch. XGMI is always direct.
  const bool over_budget =
      std::ranges::any_of(links, [](int total) { return total > max_nvlinks_per_gpu; });
  return nvlink && over_budget ? ScaleUpWiring::switched : ScaleUpWiring::direct;
}

} // namespace

NodeTopology describe_topology(const TopoMatrix& matrix) {
  NodeTopology node;
  node.source = matrix.source;
  const std::vector<std::size_t> gpu_rows = matrix.gpu_indices();
  const std::vector<std::size_t> nic_rows = matrix.nic_indices();
  const int gpus = static_cast<int>(gpu_rows.size());
  for (const std::size_t row : gpu_rows) {
    node.gpus.push_back(matrix.devices[row].label);
  }
  for (int a = 0; a < gpus; ++a) {
    for (int b = a + 1; b < gpus; ++b) {
      const TopoPath& path =
          matrix.path(gpu_rows[static_cast<std::size_t>(a)], gpu_rows[static_cast<std::size_t>(b)]);
      node.pairs.push_back({a, b, path.kind, path.token, path.links});
      if (!is_scale_up(path.kind) &&
          (!node.worst_pcie_path ||
           distance_rank(path.kind) > distance_rank(*node.worst_pcie_path))) {
        node.worst_pcie_path = path.kind;
      }
    }
  }
  node.scale_up_domains = domains_of(gpus, node.pairs);
  node.wiring = wiring_of(gpus, node.pairs);

  node.nics_per_gpu.assign(static_cast<std::size_t>(gpus), 0);
  node.nics_per_gpu_pix.assign(static_cast<std::size_t>(gpus), 0);
  for (const std::size_t nic_row : nic_rows) {
    TopoNic nic;
    nic.name = matrix.devices[nic_row].name();
    for (int gpu = 0; gpu < gpus; ++gpu) {
      const PathKind kind = matrix.path(nic_row, gpu_rows[static_cast<std::size_t>(gpu)]).kind;
      if (nic.nearest_gpus.empty() || distance_rank(kind) < distance_rank(nic.path)) {
        nic.path = kind;
        nic.nearest_gpus = {gpu};
      } else if (kind == nic.path) {
        nic.nearest_gpus.push_back(gpu);
      }
      if (within_gdr_reach(kind)) {
        ++node.nics_per_gpu[static_cast<std::size_t>(gpu)];
      }
      if (kind == PathKind::pix) {
        ++node.nics_per_gpu_pix[static_cast<std::size_t>(gpu)];
      }
    }
    node.nics.push_back(std::move(nic));
  }

  std::set<std::string> affinities;
  for (const std::size_t row : gpu_rows) {
    if (!is_unknown_affinity(matrix.devices[row].numa_affinity)) {
      affinities.insert(matrix.devices[row].numa_affinity);
    }
  }
  if (!affinities.empty()) {
    node.numa_nodes = static_cast<int>(affinities.size());
  }
  return node;
}

std::optional<BytesPerSecond>
pair_bandwidth_each_way(const GpuPair& pair, std::optional<BytesPerSecond> per_link_each_way) {
  if (!per_link_each_way || pair.links <= 0 || !is_scale_up(pair.kind)) {
    return std::nullopt;
  }
  return *per_link_each_way * static_cast<double>(pair.links);
}

} // namespace icx
