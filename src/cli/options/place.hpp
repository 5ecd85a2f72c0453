// The flags of 'icx place' (model, cluster, serving step, expert kernels, --top and an explicit
// layout), shared with 'icx report', and the place request they describe.
#pragma once

#include <cstddef>
#include <optional>

#include <CLI/CLI.hpp>

#include "icx/reports/place.hpp"
#include "options/common.hpp"
#include "options/ep.hpp"
#include "options/fabric.hpp"
#include "options/serving.hpp"

namespace icx::cli {

/// Ranked layouts shown unless --top says otherwise.
constexpr std::size_t default_top = 8;

struct PlaceOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  FabricOptions nodes;
  std::optional<int> gpus;
  ServingOptions serving;
  EpOptions experts;
  std::optional<int> tp, pp, ep, dp, moe_ep, moe_tp;
  std::size_t top = default_top;
};

/// --model…, --system, --gpus…, the serving flags, --ep-mode…, --top and --tp/--pp/--ep/--dp;
/// without `fabric`, none of --system, --gpus, --gpus-per-node, --scale-up, --scale-out and
/// --nics-per-node (a command that has them already fills options.nodes and options.gpus).
void add_place_options(CLI::App& app, PlaceOptions& options, bool fabric = true);

/// The catalog entries the flags name: a system, or a GPU; parts given replace the system's.
ClusterRequest cluster_request(const Catalog& catalog, const PlaceOptions& options);

/// The cluster `request` describes; a ClusterError becomes a usage error naming the flags.
Cluster cluster_of(const Catalog& catalog, const ClusterRequest& request,
                   const PlaceOptions& options);

/// What the flags ask to place of `model`; `cluster`, when given, receives the cluster as
/// named (for a sweep that resolves it again at other sizes).
PlaceRequest place_request(const Catalog& catalog, const PlaceOptions& options,
                           const ResolvedModel& model, ClusterRequest* cluster = nullptr);

/// place_report with a LayoutError in the words of --tp/--pp/--ep/--dp.
PlaceReport place_report_of(const Catalog& catalog, const PlaceRequest& request);

} // namespace icx::cli
