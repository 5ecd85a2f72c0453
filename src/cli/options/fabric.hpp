// --system, --gpus-per-node, --scale-up, --scale-out and --nics-per-node: how a collective's
// GPUs are spread over nodes (icx/wire/fabric.hpp), for the commands that price one collective.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/fabric.hpp"

namespace icx::cli {

struct FabricOptions {
  std::string system;
  std::optional<int> gpus_per_node;
  std::string scale_up;
  std::string scale_out;
  std::optional<int> nics_per_node;
};

/// Adds the five flags to `sub`; `system_flag` names the system's ("--system", or with a
/// short form), `gpus_per_node_help` says what --gpus-per-node defaults to.
void add_fabric_options(CLI::App& sub, FabricOptions& options,
                        const std::string& system_flag = "--system",
                        const std::string& gpus_per_node_help =
                            "GPUs per node (scale-up domain); default: the system's");

/// The fabric for `gpus` GPUs that the flags describe, with `wire` (--wire) as the link
/// inside a node when given; --wire alone is one group on that link. Throws UsageError naming
/// the flag that is missing or contradicts another: no link at all, --wire and --scale-up
/// naming different links, a group spanning nodes without --scale-out or --system, or
/// --gpus not a whole number of nodes.
Fabric parse_fabric(const Catalog& catalog, const FabricOptions& options, const std::string& wire,
                    int gpus);

} // namespace icx::cli
