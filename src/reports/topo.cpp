// What a node's topology matrix means for the GPUs on it (icx/reports/topo.hpp).
#include "icx/reports/topo.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"
#include "icx/catalog/json.hpp"
#include "icx/wire/comm_time.hpp"

namespace icx {

namespace {

/// The topology of `link` whose nvidia-smi path classes include `kind`; empty when none does.
std::string topology_named(const Link& link, PathKind kind) {
  for (const LinkTopology& topology : link.topologies) {
    if (std::ranges::any_of(topology.topo_paths, [&](const std::string& path) {
          return pcie_path_class(path) == kind;
        })) {
      return topology.id;
    }
  }
  return {};
}

TopoAllReduce all_reduce(const Link& link, int gpus, std::string topology, Bytes size) {
  const CollectiveRequest one{Collective::all_reduce, Algorithm::automatic, gpus, size,
                              RunSetup{Implementation::nccl, topology, {}}};
  const CommTime time = comm_time(link, size, one, 1);
  return {gpus, &link, std::move(topology), time.judged(), time.expected.has_value()};
}

/// The whole node across sockets against the largest group of consecutive GPUs that stays on
/// one: over NVLink when the group is one domain, else over PCIe at its farthest class.
std::optional<SocketCrossing> socket_crossing(const Catalog& catalog, const NodeTopology& node,
                                              const TopoReportRequest& request) {
  const auto pair =
      std::ranges::find_if(node.pairs, [](const GpuPair& p) { return p.kind == PathKind::sys; });
  if (pair == node.pairs.end() || request.pcie == nullptr) {
    return std::nullopt;
  }
  SocketCrossing crossing;
  crossing.pair = *pair;
  const int gpus = static_cast<int>(node.gpus.size());
  crossing.whole =
      all_reduce(*request.pcie, gpus, topology_named(*request.pcie, PathKind::sys), request.size);
  const int within = largest_group_within(node, PathKind::node);
  if (within < 2) {
    return crossing;
  }
  if (const std::optional<PathKind> worst = worst_path_in_groups(node, within)) {
    crossing.within =
        all_reduce(*request.pcie, within, topology_named(*request.pcie, *worst), request.size);
  } else if (request.gpu != nullptr) {
    crossing.within =
        all_reduce(catalog.link(request.gpu->scale_up_link), within, {}, request.size);
  }
  return crossing;
}

std::string gpu_list(const std::vector<int>& gpus) {
  if (gpus.size() > 2 && gpus.back() - gpus.front() + 1 == static_cast<int>(gpus.size())) {
    return fmt::format("GPU{}–GPU{}", gpus.front(), gpus.back());
  }
  std::vector<std::string> names;
  for (const int gpu : gpus) {
    names.push_back(fmt::format("GPU{}", gpu));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string domains_sentence(const TopoReport& r) {
  const NodeTopology& node = r.node;
  const auto first_link =
      std::ranges::find_if(node.pairs, [](const GpuPair& p) { return is_scale_up(p.kind); });
  if (first_link == node.pairs.end()) {
    return "no NVLink or XGMI: every GPU pair talks over PCIe";
  }
  const auto index = static_cast<std::size_t>(first_link - node.pairs.begin());
  const std::string bandwidth =
      r.pair_bandwidth[index] && r.gpu != nullptr
          ? fmt::format(", {} each way on {}", format_rate(*r.pair_bandwidth[index]), r.gpu->id)
      : r.gpu == nullptr ? fmt::format(" (bandwidth: give {})", Knob::gpu)
                         : "";
  std::vector<std::string> domains;
  for (const std::vector<int>& d : node.scale_up_domains) {
    domains.push_back(gpu_list(d));
  }
  const std::size_t count = node.scale_up_domains.size();
  const std::string_view fabric = node.source == TopoSource::rocm_smi ? "XGMI" : "NVLink";
  const std::string where = count == 1
                                ? fmt::format("one {}-GPU {} domain", node.gpus.size(), fabric)
                                : fmt::format("{} {} domains ({}): a group spanning two leaves {}",
                                              count, fabric, fmt::join(domains, "; "), fabric);
  if (node.wiring == ScaleUpWiring::switched) {
    return fmt::format("{} through NVSwitch: {} is each GPU's budget to the switches{}, shared by "
                       "all its peers",
                       where, first_link->path, bandwidth);
  }
  return fmt::format("{}; pairs wired directly: {} are the links of that one pair{}", where,
                     first_link->path, bandwidth);
}

std::string crossing_sentence(const TopoReport& r) {
  const SocketCrossing& c = *r.crossing;
  auto priced = [](const TopoAllReduce& a) {
    const std::string model = a.expected ? "expected" : "headline: the link has no expected model";
    return a.topology.empty() ? fmt::format("{}, {}", a.link->id, model)
                              : fmt::format("{} {}, {}", a.link->id, a.topology, model);
  };
  std::string text = fmt::format(
      "GPU{}–GPU{} communicate across sockets (SYS): an all-reduce of {} over all {} GPUs takes "
      "{} ({})",
      c.pair.a, c.pair.b, format_bytes(r.size), c.whole.gpus, format_seconds(c.whole.seconds),
      priced(c.whole));
  if (c.within) {
    text += fmt::format(", against {} over {} GPUs that stay on one socket ({}): TP {} inside "
                        "them avoids the crossing",
                        format_seconds(c.within->seconds), c.within->gpus, priced(*c.within),
                        c.within->gpus);
  }
  return text;
}

std::string nics_sentence(const NodeTopology& node) {
  if (node.nics.empty()) {
    return fmt::format("no NIC in the matrix (cloud adapters such as EFA are not listed): "
                       "multi-node figures take the NIC count from {}",
                       Knob::system);
  }
  const auto [least, most] = std::ranges::minmax(node.nics_per_gpu);
  const auto [least_pix, most_pix] = std::ranges::minmax(node.nics_per_gpu_pix);
  auto span = [](int a, int b) {
    return a == b ? fmt::format("{}", a) : fmt::format("{}–{}", a, b);
  };
  std::string text = fmt::format("{} NIC{}; per GPU {} within PXB (what NCCL uses for GPUDirect "
                                 "RDMA by default), {} at PIX",
                                 node.nics.size(), node.nics.size() == 1 ? "" : "s",
                                 span(least, most), span(least_pix, most_pix));
  if (least_pix >= 1) {
    text += ": rail-aligned, every GPU has a NIC behind its own PCIe switch";
  } else if (most == 0) {
    text += ": by PCIe distance NCCL would not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL), but the "
            "matrix does not show every path (Grace's NVLink-C2C): NCCL_DEBUG=INFO says what "
            "NCCL chose";
  }
  return text;
}

/// What the matrix cannot show of the GPU's NVLink: links that do not add up to the GPU's, or
/// a domain larger than the node (a GB200 tray of a 72-GPU rack).
void nvlink_notes(const Catalog& catalog, const TopoReport& r, std::vector<std::string>& lines) {
  const Link& link = catalog.link(r.gpu->scale_up_link);
  if (std::optional<std::string> note = nvlink_count_note(r.node, link, *r.gpu)) {
    lines.push_back(std::move(*note));
  }
  const int shown = static_cast<int>(r.node.gpus.size());
  if (r.node.wiring == ScaleUpWiring::switched && r.node.scale_up_domains.size() == 1 &&
      r.gpu->scale_up_domain > shown) {
    lines.push_back(fmt::format("the matrix shows {} GPUs, where a {} NVLink domain holds {}: the "
                                "rest of the domain is beyond this node's view ({} takes it from "
                                "{} or {})",
                                shown, r.gpu->id, r.gpu->scale_up_domain, Knob::output_file,
                                Knob::system, Knob::domain));
  }
}

std::vector<std::string> consequences(const Catalog& catalog, const TopoReport& r) {
  const NodeTopology& node = r.node;
  std::vector<std::string> lines{domains_sentence(r)};
  if (r.gpu != nullptr) {
    nvlink_notes(catalog, r, lines);
  }
  if (r.crossing) {
    lines.push_back(crossing_sentence(r));
  } else if (node.worst_pcie_path) {
    lines.push_back(
        fmt::format("the farthest PCIe path between GPUs is {}{}", to_string(*node.worst_pcie_path),
                    *node.worst_pcie_path == PathKind::sys
                        ? fmt::format(": give {} (or {}) to price an all-reduce across the sockets",
                                      Knob::pcie, Knob::system)
                        : ""));
  }
  if (node.source == TopoSource::nvidia_smi) {
    lines.push_back(nics_sentence(node));
  }
  if (node.numa_nodes) {
    lines.push_back(fmt::format("{} NUMA node{} among the GPUs", *node.numa_nodes,
                                *node.numa_nodes == 1 ? "" : "s"));
  }
  return lines;
}

} // namespace

TopoReport topo_report(const Catalog& catalog, const NodeTopology& node,
                       const TopoReportRequest& request) {
  if (node.gpus.empty()) {
    throw InputError("the matrix shows no GPU");
  }
  TopoReport r;
  r.file = request.file;
  r.node = node;
  r.gpu = request.gpu;
  r.gpu_from = request.gpu_from;
  r.size = request.size;
  std::optional<BytesPerSecond> per_link;
  if (request.gpu != nullptr) {
    const Link& link = catalog.link(request.gpu->scale_up_link);
    check_matrix_fabric(node, link, *request.gpu);
    per_link = per_link_each_way(link);
  }
  for (const GpuPair& pair : node.pairs) {
    r.pair_bandwidth.push_back(pair_bandwidth_each_way(pair, per_link));
  }
  r.crossing = socket_crossing(catalog, node, request);
  if (request.system) {
    r.system = topo_system(catalog, node, *request.system);
  }
  r.consequences = consequences(catalog, r);
  return r;
}

Json topo_overlay(const TopoSystem& system) {
  Json doc = json_document(catalog_schema);
  if (!system.links.empty()) {
    doc[catalog_section<Link>] = system.links;
  }
  doc[catalog_section<System>] = Json::array({Json(system.system)});
  return doc;
}

namespace {

Json all_reduce_json(const TopoAllReduce& a) {
  return {{"gpus", a.gpus},
          {"link", a.link->id},
          {"topology", a.topology.empty() ? Json() : Json(a.topology)},
          {"seconds", json_number(a.seconds.value())},
          {"model", a.expected ? "expected" : "headline"}};
}

Json pairs_json(const TopoReport& r) {
  Json pairs = Json::array();
  for (std::size_t i = 0; i < r.node.pairs.size(); ++i) {
    const GpuPair& p = r.node.pairs[i];
    pairs.push_back({{"a", p.a},
                     {"b", p.b},
                     {"path", p.path},
                     {"nvlinks", is_scale_up(p.kind) ? p.links : 0},
                     {"per_direction_bytes_per_s", json_number(r.pair_bandwidth[i])}});
  }
  return pairs;
}

} // namespace

void to_json(Json& json, const TopoReport& r) {
  const NodeTopology& node = r.node;
  json = json_document("icx.topo/1");
  json["file"] = r.file;
  json["source"] = to_string(node.source);
  json["gpu"] = r.gpu != nullptr ? Json(r.gpu->id) : Json();
  json["gpu_from"] = r.gpu_from.empty() ? Json() : Json(r.gpu_from);
  json["gpus"] = node.gpus.size();
  json["wiring"] = to_string(node.wiring);
  json["pairs"] = pairs_json(r);
  json["scale_up_domains"] = node.scale_up_domains;
  json["worst_pcie_path"] = node.worst_pcie_path ? Json(to_string(*node.worst_pcie_path)) : Json();
  json["nics"] = Json::array();
  for (const TopoNic& nic : node.nics) {
    json["nics"].push_back(
        {{"name", nic.name}, {"nearest_gpus", nic.nearest_gpus}, {"path", to_string(nic.path)}});
  }
  json["nics_per_gpu"] = node.nics_per_gpu;
  json["nics_per_gpu_pix"] = node.nics_per_gpu_pix;
  json["numa_nodes"] = node.numa_nodes ? Json(*node.numa_nodes) : Json();
  json["all_reduce_size_bytes"] = json_number(r.size.value());
  json["socket_crossing"] =
      r.crossing ? Json{{"a", r.crossing->pair.a},
                        {"b", r.crossing->pair.b},
                        {"whole_node", all_reduce_json(r.crossing->whole)},
                        {"within_socket",
                         r.crossing->within ? all_reduce_json(*r.crossing->within) : Json()}}
                 : Json();
  json["consequences"] = r.consequences;
  json["assumed"] = r.system ? Json(r.system->assumed) : Json::array();
  json["system"] = r.system ? Json(r.system->system) : Json();
  json["links"] = r.system ? Json(r.system->links) : Json::array();
}

} // namespace icx
