// A PCIe link's topologies (one switch, one root complex, across sockets): which one a group
// runs on, how it reads, and the expected model it gives.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/wire/collectives.hpp"

namespace icx {

const LinkTopology* link_topology(const Link& link, std::string_view id, int gpus) {
  if (link.topologies.empty()) {
    return nullptr;
  }
  if (!id.empty()) {
    const auto named = std::ranges::find(link.topologies, id, &LinkTopology::id);
    if (named == link.topologies.end()) {
      std::vector<std::string_view> ids;
      for (const LinkTopology& t : link.topologies) {
        ids.push_back(t.id);
      }
      throw InputError(fmt::format("wire '{}' has no topology '{}'; choose one of: {}", link.id, id,
                                   fmt::join(ids, ", ")));
    }
    return &*named;
  }
  const LinkTopology* chosen = nullptr;
  for (const LinkTopology& t : link.topologies) {
    if (t.default_up_to_gpus && *t.default_up_to_gpus >= gpus &&
        (!chosen || *t.default_up_to_gpus < *chosen->default_up_to_gpus)) {
      chosen = &t;
    }
  }
  return chosen;
}

std::string topology_text(const Link& link, std::string_view id) {
  if (link.topologies.empty()) {
    return "";
  }
  if (!id.empty()) {
    const LinkTopology& named = *link_topology(link, id, min_collective_gpus);
    return fmt::format("{} ({})", named.id, named.description);
  }
  std::vector<const LinkTopology*> defaults;
  for (const LinkTopology& t : link.topologies) {
    if (t.default_up_to_gpus) {
      defaults.push_back(&t);
    }
  }
  std::ranges::sort(defaults, {}, [](const LinkTopology* t) { return *t->default_up_to_gpus; });
  std::vector<std::string> parts;
  for (const LinkTopology* t : defaults) {
    parts.push_back(
        fmt::format("{} ({}) up to {} GPUs", t->id, t->description, *t->default_up_to_gpus));
  }
  return fmt::format("by group size: {}", fmt::join(parts, ", "));
}

ExpectedModel with_topology(ExpectedModel model, const LinkTopology* topology) {
  if (topology) {
    model.efficiency = topology->efficiency;
    model.step_latency = topology->step_latency;
  }
  return model;
}

} // namespace icx
