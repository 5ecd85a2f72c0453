// The catalog system a node's topology matrix describes (icx/topo/system.hpp).
#include "icx/topo/system.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/catalog/group_rules.hpp"

namespace icx {

namespace {

/// `pcie` with each topology's default group size set from the matrix: a group of consecutive
/// GPUs takes the topology of the farthest PCIe class inside it. The widest group's topology
/// keeps the catalog's bound too (GPUs of other nodes are farther still).
Link node_pcie_link(const NodeTopology& node, const Link& pcie, const TopoSystemRequest& request) {
  Link link = pcie;
  link.id = request.id + "-pcie";
  link.name = fmt::format("{} in {}", pcie.name, request.id);
  link.aliases.clear();
  const int gpus = static_cast<int>(node.gpus.size());
  std::map<std::string, int, std::less<>> bound;
  std::vector<std::string> groups;
  std::string widest;
  for (int size = 2; size <= gpus; ++size) {
    const std::optional<PathKind> worst =
        gpus % size == 0 ? worst_path_in_groups(node, size) : std::nullopt;
    const LinkTopology* topology = worst ? topology_of_path(pcie, *worst) : nullptr;
    if (topology != nullptr) {
      bound[topology->id] = size;
      widest = topology->id;
      groups.push_back(fmt::format("{} GPUs {} ({})", size, to_string(*worst), topology->id));
    }
  }
  if (bound.empty()) {
    return link;
  }
  for (LinkTopology& topology : link.topologies) {
    const auto it = bound.find(topology.id);
    if (it == bound.end()) {
      topology.default_up_to_gpus.reset();
    } else if (topology.id == widest) {
      topology.default_up_to_gpus = std::max(it->second, topology.default_up_to_gpus.value_or(0));
    } else {
      topology.default_up_to_gpus = it->second;
    }
  }
  link.source = fmt::format("{}; default topology by group size from the topology matrix in {} "
                            "(groups of consecutive GPUs, farthest PCIe class inside): {}",
                            pcie.source, request.file, fmt::join(groups, ", "));
  return link;
}

/// Whether domain k holds GPUs k·size … k·size + size − 1, as icx places groups.
bool consecutive(const std::vector<std::vector<int>>& domains, int size) {
  for (std::size_t k = 0; k < domains.size(); ++k) {
    for (std::size_t i = 0; i < domains[k].size(); ++i) {
      if (domains[k][i] != static_cast<int>(k) * size + static_cast<int>(i)) {
        return false;
      }
    }
  }
  return true;
}

/// The scale-up link for NVLink or XGMI domains of `domain` GPUs: the GPU's own.
const Link& fabric_link(const Catalog& catalog, const NodeTopology& node, const Gpu& gpu,
                        int domain, std::vector<std::string>& assumed) {
  const Link& link = catalog.link(gpu.scale_up_link);
  const bool xgmi = node.source == TopoSource::rocm_smi;
  if (link.tier != Tier::scale_up) {
    throw InputError(fmt::format("the matrix joins GPUs over {} but gpu '{}' has no such link (its "
                                 "scale-up link is {}): name the GPU with {}",
                                 xgmi ? "XGMI" : "NVLink", gpu.id, link.id, Knob::gpu));
  }
  check_matrix_fabric(node, link, gpu);
  if (const Check check = check_group_link(&gpu, domain, link); !check) {
    throw InputError(fmt::format("gpu '{}': {}", gpu.id, check.reason()));
  }
  if (std::optional<std::string> note = nvlink_count_note(node, link, gpu)) {
    assumed.push_back(*note + "; the scale-up link is priced as the catalog's");
  }
  return link;
}

/// NICs within PXB of some GPU: those NCCL uses for GPUDirect RDMA by default.
int nics_near_gpus(const NodeTopology& node) {
  return static_cast<int>(std::ranges::count_if(node.nics, [](const TopoNic& nic) {
    return !nic.nearest_gpus.empty() && within_gdr_reach(nic.path);
  }));
}

std::string nics_text(int nics) {
  return fmt::format("{} NIC{}", nics, nics == 1 ? "" : "s");
}

void set_nics(System& s, const NodeTopology& node, const TopoSystemRequest& request,
              std::vector<std::string>& assumed) {
  const int shown = static_cast<int>(node.gpus.size());
  const int near = nics_near_gpus(node);
  const std::string_view why = node.nics.empty() ? "the matrix lists none (cloud adapters such as "
                                                   "EFA are not shown)"
                                                 : "none in the matrix is within PXB of a GPU";
  if (near > 0) {
    s.nics_per_node = near * s.gpus_per_node / shown;
    assumed.push_back(fmt::format("{} per node: those within PXB of a GPU (NCCL's default "
                                  "reach for GPUDirect RDMA, NCCL_NET_GDR_LEVEL){}",
                                  nics_text(s.nics_per_node),
                                  s.gpus_per_node > shown ? ", for every tray of the domain" : ""));
  } else if (request.base != nullptr) {
    s.nics_per_node = request.base->nics_per_node;
    assumed.push_back(fmt::format("{} per node from {} {}: {}", nics_text(s.nics_per_node),
                                  Knob::system, request.base->id, why));
  } else if (!node.nics.empty()) {
    s.nics_per_node = static_cast<int>(node.nics.size()) * s.gpus_per_node / shown;
    assumed.push_back(fmt::format("{} per node, every NIC in the matrix: {}, so NCCL reaches "
                                  "them through host memory",
                                  nics_text(s.nics_per_node), why));
  } else {
    s.nics_per_node = s.gpus_per_node;
    assumed.push_back(fmt::format("{} per node, one per GPU: {}; give {} to take a "
                                  "catalog node's",
                                  nics_text(s.nics_per_node), why, Knob::system));
  }
}

/// The domain beyond what the matrix shows: --domain, else the base system's when the matrix
/// is one tray of it.
std::optional<int> domain_beyond(const NodeTopology& node, const TopoSystemRequest& request,
                                 const Link& link) {
  const int shown = static_cast<int>(node.gpus.size());
  if (request.domain) {
    return request.domain;
  }
  if (request.base != nullptr && link_is(link, request.base->scale_up_link) &&
      request.base->scale_up_domain > shown) {
    return request.base->scale_up_domain;
  }
  return std::nullopt;
}

/// The scale-up link and domain, the PCIe link the matrix makes, and the node's GPUs (a tray
/// of a larger domain is taken as the whole domain).
void set_scale_up(const Catalog& catalog, const NodeTopology& node,
                  const TopoSystemRequest& request, TopoSystem& out) {
  System& s = out.system;
  const int shown = static_cast<int>(node.gpus.size());
  int domain = shown;
  for (const std::vector<int>& d : node.scale_up_domains) {
    domain = std::min(domain, static_cast<int>(d.size()));
  }
  if (node.worst_pcie_path) {
    if (request.pcie == nullptr) {
      throw InputError(fmt::format("some GPUs talk over PCIe: name their PCIe link with {} "
                                   "(pcie4, pcie5) or {} ID",
                                   Knob::pcie, Knob::system));
    }
    out.links.push_back(node_pcie_link(node, *request.pcie, request));
  }
  if (domain > 1) {
    const Link& link = fabric_link(catalog, node, *request.gpu, domain, out.assumed);
    s.scale_up_link = link.id;
    if (const std::optional<int> beyond = domain_beyond(node, request, link);
        beyond && domain == shown) {
      domain = *beyond;
      s.gpus_per_node = domain;
      out.assumed.push_back(
          fmt::format("the matrix shows {} GPUs of a {}-GPU NVLink domain, "
                      "taken as one node{}",
                      shown, domain,
                      request.domain ? fmt::format(" ({})", Knob::domain)
                                     : fmt::format(" ({} {})", Knob::system, request.base->id)));
    }
    if (domain < s.gpus_per_node) {
      s.between_domains_link = out.links.front().id;
    }
  } else if (!out.links.empty()) {
    s.scale_up_link = out.links.front().id;
    domain = shown;
    if (const Check check = check_domain_size(out.links.front(), domain); !check) {
      throw InputError(check.reason());
    }
  } else {
    // One GPU: no pair, so nothing to join; the GPU's own link stands in the entry.
    s.scale_up_link = request.gpu->scale_up_link;
  }
  s.scale_up_domain = domain;
  const auto [smallest, largest] = std::ranges::minmax(
      node.scale_up_domains, {}, [](const std::vector<int>& d) { return d.size(); });
  if (smallest.size() != largest.size()) {
    out.assumed.push_back(fmt::format("the NVLink domains differ in size ({}): every group is "
                                      "priced as if they held {} GPUs",
                                      node.scale_up_domains, smallest.size()));
  }
  if (!consecutive(node.scale_up_domains, static_cast<int>(node.scale_up_domains.front().size()))) {
    out.assumed.push_back(fmt::format("the NVLink domains {} are not consecutive GPU indices: icx "
                                      "places groups on consecutive ranks, so order the GPUs "
                                      "(CUDA_VISIBLE_DEVICES) domain by domain",
                                      node.scale_up_domains));
  }
}

} // namespace

void check_matrix_fabric(const NodeTopology& node, const Link& link, const Gpu& gpu) {
  const auto fabric_pair = [](const GpuPair& pair) { return is_scale_up(pair.kind); };
  if (!link.gpu_fabric || std::ranges::none_of(node.pairs, fabric_pair)) {
    return;
  }
  const bool xgmi = node.source == TopoSource::rocm_smi;
  if (*link.gpu_fabric != (xgmi ? GpuFabric::xgmi : GpuFabric::nvlink)) {
    throw InputError(fmt::format("the matrix joins GPUs over {} but gpu '{}' joins its GPUs over "
                                 "{} ({}, catalog gpu_fabric {}): the matrix is of another GPU; "
                                 "name it with {}",
                                 xgmi ? "XGMI" : "NVLink", gpu.id, link.id, link.name,
                                 to_string(*link.gpu_fabric), Knob::gpu));
  }
}

std::optional<std::string> nvlink_count_note(const NodeTopology& node, const Link& link,
                                             const Gpu& gpu) {
  // On NVSwitch every cell is the GPU's whole budget; on a mesh a GPU's cells add up to it.
  int most = 0;
  for (std::size_t g = 0; g < node.gpus.size(); ++g) {
    int links = 0;
    for (const GpuPair& pair : node.pairs) {
      const bool mine = pair.a == static_cast<int>(g) || pair.b == static_cast<int>(g);
      if (pair.kind == PathKind::nvlink && mine) {
        links = node.wiring == ScaleUpWiring::switched ? std::max(links, pair.links)
                                                       : links + pair.links;
      }
    }
    most = std::max(most, links);
  }
  if (!link.links_per_gpu || most == 0 || most == *link.links_per_gpu) {
    return std::nullopt;
  }
  if (most > *link.links_per_gpu) {
    // Fewer links than the GPU has may be links down; more cannot be this GPU's.
    throw InputError(fmt::format("the matrix shows {} NVLinks per GPU, more than {}'s link {} has "
                                 "({}, catalog links_per_gpu): the matrix is of another GPU; "
                                 "name it with {}",
                                 most, gpu.id, link.id, *link.links_per_gpu, Knob::gpu));
  }
  return fmt::format("the matrix shows {} NVLinks per GPU where {}'s link {} has {}: check {}",
                     most, gpu.id, link.id, *link.links_per_gpu, Knob::gpu);
}

const LinkTopology* topology_of_path(const Link& link, PathKind kind) {
  for (const LinkTopology& topology : link.topologies) {
    if (std::ranges::any_of(topology.topo_paths, [&](const std::string& path) {
          return pcie_path_class(path) == kind;
        })) {
      return &topology;
    }
  }
  return nullptr;
}

std::optional<PathKind> worst_path_in_groups(const NodeTopology& node, int size) {
  std::optional<PathKind> worst;
  for (const GpuPair& pair : node.pairs) {
    if (pair.a / size == pair.b / size && !is_scale_up(pair.kind) &&
        (!worst || distance_rank(pair.kind) > distance_rank(*worst))) {
      worst = pair.kind;
    }
  }
  return worst;
}

int largest_group_within(const NodeTopology& node, PathKind limit) {
  const int gpus = static_cast<int>(node.gpus.size());
  for (int size = gpus; size >= 2; --size) {
    const std::optional<PathKind> worst =
        gpus % size == 0 ? worst_path_in_groups(node, size) : std::optional{PathKind::unknown};
    if (!worst || distance_rank(*worst) <= distance_rank(limit)) {
      return size;
    }
  }
  return 1;
}

std::optional<BytesPerSecond> per_link_each_way(const Link& scale_up) {
  if (!scale_up.links_per_gpu) {
    return std::nullopt;
  }
  return scale_up.per_direction_bandwidth.high / static_cast<double>(*scale_up.links_per_gpu);
}

TopoSystem topo_system(const Catalog& catalog, const NodeTopology& node,
                       const TopoSystemRequest& request) {
  if (node.gpus.empty()) {
    throw InputError("the matrix shows no GPU");
  }
  if (request.gpu == nullptr) {
    throw InputError(fmt::format(
        "the matrix does not name its GPU: give {} ID ('icx gpus' lists them)", Knob::gpu));
  }
  if (request.scale_out == nullptr) {
    throw InputError(fmt::format("a system needs the link of its NICs between nodes: give {} "
                                 "LINK ('icx links' lists them) or {} ID",
                                 Knob::scale_out, Knob::system));
  }
  const int shown = static_cast<int>(node.gpus.size());
  if (request.domain &&
      (node.scale_up_domains.size() != 1 || shown < 2 || *request.domain < shown)) {
    throw InputError(fmt::format("{} {}: it extends a matrix of one NVLink domain (a tray "
                                 "of a rack) to at least its GPUs; this one shows {} GPUs in {} "
                                 "domains",
                                 Knob::domain, *request.domain, shown,
                                 node.scale_up_domains.size()));
  }
  TopoSystem out;
  System& s = out.system;
  s.id = request.id;
  s.gpu = request.gpu->id;
  s.gpus_per_node = shown;
  s.scale_out_link = request.scale_out->id;
  set_scale_up(catalog, node, request, out);
  set_nics(s, node, request, out.assumed);
  s.rail_optimized = request.base != nullptr && request.base->rail_optimized;
  out.assumed.push_back(
      request.base != nullptr
          ? fmt::format("rails, host side and price from {} {}", Knob::system, request.base->id)
          : fmt::format("rails are not visible in a matrix: not rail-optimised; no host side "
                        "or price (give {} to take a catalog node's)",
                        Knob::system));
  if (request.base != nullptr) {
    s.host = request.base->host;
    s.price = request.base->price;
  }
  s.name =
      fmt::format("{} × {} (topology matrix {})", s.gpus_per_node, request.gpu->name, request.file);
  s.source = fmt::format("{} topology matrix in {}, read by icx topo", to_string(node.source),
                         request.file);
  return out;
}

} // namespace icx
