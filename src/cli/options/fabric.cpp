#include "options/fabric.hpp"

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "options/common.hpp"

namespace icx::cli {

namespace {

const Link& link_for(const Catalog& catalog, const std::string& flag, const std::string& id) {
  return for_flag(flag, [&]() -> const Link& { return catalog.link(id); });
}

/// The link inside a node and the flag that named it; empty when nothing names one.
std::pair<std::string, std::string> scale_up_of(const FabricOptions& o, const std::string& wire,
                                                const System* system) {
  if (!wire.empty() && !o.scale_up.empty() && wire != o.scale_up) {
    throw UsageError(fmt::format("--wire {} and --scale-up {} both name the link inside a node; "
                                 "give one of them",
                                 wire, o.scale_up));
  }
  if (!o.scale_up.empty()) {
    return {"--scale-up", o.scale_up};
  }
  if (!wire.empty()) {
    return {"--wire", wire};
  }
  if (system != nullptr) {
    return {"--system", system->scale_up_link};
  }
  return {};
}

} // namespace

void add_fabric_options(CLI::App& sub, FabricOptions& options, const std::string& system_flag,
                        const std::string& gpus_per_node_help) {
  const std::size_t first = sub.get_options().size();
  sub.add_option(system_flag, options.system,
                 "Catalog system (see 'icx systems'): its GPU, links, GPUs per node and NICs")
      ->type_name("ID");
  sub.add_option("--gpus-per-node", options.gpus_per_node, gpus_per_node_help)
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  sub.add_option("--scale-up", options.scale_up,
                 "Link inside a node; default: the system's (or the GPU's)")
      ->type_name("LINK");
  sub.add_option("--scale-out", options.scale_out,
                 "One NIC's link between nodes; default: the system's")
      ->type_name("LINK");
  sub.add_option("--nics-per-node", options.nics_per_node,
                 "Scale-out NICs per node that collectives use; default: the system's, else "
                 "one per GPU")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  group_options_from(sub, first, "Cluster");
}

Fabric parse_fabric(const Catalog& catalog, const FabricOptions& o, const std::string& wire,
                    int gpus) {
  const System* system = o.system.empty() ? nullptr : &for_flag("--system", [&]() -> const System& {
    return catalog.system(o.system);
  });
  const auto [up_flag, up_id] = scale_up_of(o, wire, system);
  const int per_node = o.gpus_per_node.value_or(system ? system->scale_up_domain : gpus);
  Fabric fabric;
  fabric.gpus_per_node = per_node;
  if (!up_id.empty()) {
    fabric.scale_up = &link_for(catalog, up_flag, up_id);
  } else if (per_node > 1 || gpus <= per_node) {
    throw UsageError("no wire given: use --wire LINK (see 'icx links'), --system ID (see 'icx "
                     "systems'), or --scale-up, --scale-out and --gpus-per-node");
  }
  const std::string out = !o.scale_out.empty() ? o.scale_out
                          : system             ? system->scale_out_link
                                               : std::string();
  if (!out.empty()) {
    fabric.scale_out = &link_for(catalog, o.scale_out.empty() ? "--system" : "--scale-out", out);
  }
  fabric.nics_per_node = o.nics_per_node.value_or(system ? system->nics_per_node : per_node);
  if (gpus > per_node) {
    if (fabric.scale_out == nullptr) {
      throw UsageError(fmt::format("--gpus {} spans nodes of {} GPUs: give --scale-out LINK "
                                   "(e.g. ib-ndr) or --system ID",
                                   gpus, per_node));
    }
    if (gpus % per_node != 0) {
      throw UsageError(fmt::format("--gpus {} is not a whole number of {}-GPU nodes; use a "
                                   "multiple of {} or set --gpus-per-node",
                                   gpus, per_node, per_node));
    }
  }
  return fabric;
}

} // namespace icx::cli
