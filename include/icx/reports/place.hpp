// A layout of a model on a cluster, recommended by the placement rule or given: each split's
// traffic, wire, time and verdict, why the layout and the verdict are what they are, what
// was assumed, and the --explain derivations.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/base/error.hpp"
#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/launch.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/simulation_costs.hpp"

namespace icx {

/// A cluster as named: a catalog system, or a GPU alone; a part given replaces the system's.
struct ClusterRequest {
  const System* system = nullptr;
  /// The GPU (the system's unless another was asked for).
  const Gpu* gpu = nullptr;
  const Link* scale_up = nullptr;
  /// Between scale-up domains; nullptr: none, so the GPUs must fit one domain.
  const Link* scale_out = nullptr;
  /// Absent: one node.
  std::optional<int> gpus;
  /// Absent: the system's, else the GPU's scale-up domain.
  std::optional<int> gpus_per_node;
  /// Absent: the system's, else one per GPU.
  std::optional<int> nics_per_node;
};

/// What is wrong with a cluster request.
enum class ClusterIssue {
  /// More GPUs than a node, but not a whole number of nodes.
  ragged_nodes,
  /// More GPUs than one scale-up domain, and no scale-out link between domains.
  needs_scale_out,
  /// Parts that contradict each other (cluster_problem); `part` says which.
  contradiction,
};

class ClusterError : public InputError {
public:
  ClusterError(ClusterIssue what_is_wrong, ClusterPart where, const Cluster& so_far,
               const std::string& reason);
  ClusterIssue issue;
  ClusterPart part;
  /// The cluster as far as it was resolved (its counts and domain).
  Cluster cluster;
};

/// The cluster `request` describes, with its defaults filled in; nodes joined by their own
/// scale-up link form one domain (NVL72 trays). Throws ClusterError; `links` gives the
/// scale-out links a contradiction suggests.
Cluster resolve_cluster(const ClusterRequest& request, std::span<const Link> links);

/// Degrees of a layout to judge; none given: the placement rule recommends one.
struct LayoutRequest {
  std::optional<int> tp;
  std::optional<int> pp;
  std::optional<int> ep;
  /// Absent: what the other degrees leave of the cluster (when they divide it).
  std::optional<int> dp;
  /// The GPUs of a stage the routed experts are spread over, each holding whole experts or
  /// a share of each (Layout::moe_tp); absent: ep, each expert split over the tensor group.
  std::optional<int> moe_ep;
  /// The GPUs each routed expert is split over, a divisor of tp (Layout::moe_tp): the other
  /// way to say moe_ep, tp × ep / moe_tp; absent: tp, or what moe_ep leaves.
  std::optional<int> moe_tp;
  [[nodiscard]] bool given() const { return tp || pp || ep || dp || moe_ep || moe_tp; }
  /// Every degree of `layout`, with its experts' spread where it has one of its own.
  [[nodiscard]] static LayoutRequest of(const Layout& layout) {
    return {layout.tp,
            layout.pp,
            layout.ep,
            layout.dp,
            layout.moe_tp > 0 ? std::optional(layout.expert_ranks()) : std::nullopt,
            std::nullopt};
  }
};

struct PlaceRequest {
  Cluster cluster;
  /// The catalog system the cluster is, echoed in the report; nullptr: a custom cluster.
  const System* system = nullptr;
  const Model* model = nullptr;
  /// The weights' dtype.
  const Dtype* dtype = nullptr;
  ServingRequest serving;
  LayoutRequest layout;
  /// A steady load to evaluate the chosen layout under: the step becomes a decode step at the
  /// load's mean context, with `serving.batch` requests in flight, or as many as Little's law
  /// gives for the layout (given, else the best at one request).
  std::optional<Load> load;
  /// The load to simulate the chosen layout under (its nominal lengths those of `load`): a
  /// closed loop of clients, the layouts ranked at its clients in flight (`load`'s rate
  /// unused); or `load`'s open loop, ranked and priced by the closed form as well.
  std::optional<Traffic> traffic;
  /// Write the command that launches the chosen layout on the request's engine.
  bool emit = false;
};

/// A given layout that cannot run on the cluster.
class LayoutError : public InputError {
public:
  LayoutError(std::string at_fault, const std::string& reason);
  /// The one degree at fault with its value ("tp 3": the model's heads do not split so), or
  /// empty when the degrees together are (evaluate_layout's reasons).
  std::string degree;
};

struct PlaceReport {
  Cluster cluster;
  const System* system = nullptr;
  /// Nodes the cluster spans, the last one possibly partly used.
  int nodes = 0;
  Workload workload;
  Objective objective = Objective::latency;
  /// Every layout the model allows on the cluster, best first (icx/serving/ranking.hpp).
  std::vector<RankedLayout> ranked;
  /// The layout reported on: the best (recommended) or the one given, an index of `ranked`.
  std::size_t chosen = 0;
  /// No layout was given: the report is on the best-ranked one.
  bool recommended = false;
  /// Why each split of the chosen layout got its verdict, one per strategies.
  std::vector<std::string> strategy_reasons;
  /// The compute rate assumed, "h100-sxm × 8 at 989 TFLOP/s (bf16) × 0.5 utilisation".
  std::string compute_assumption;
  /// What the step model assumed that icx cannot know, each with the flag that changes it.
  std::vector<std::string> assumptions;
  Derivations derivations;
  /// The load and the chosen layout under it, when the request had one.
  std::optional<Load> load;
  std::optional<LoadedStep> loaded;
  /// The chosen layout simulated under the request's traffic, when it had one.
  std::optional<SimulatedLoad> simulated;
  /// The chosen layout's launch command, when the request asked for it.
  std::optional<LaunchCommand> launch;
  [[nodiscard]] const RankedLayout& chosen_layout() const { return ranked.at(chosen); }
  [[nodiscard]] const Placement& placement() const { return chosen_layout().placement; }
};

/// Ranks every layout and reports on the best, or on the one given. Throws LayoutError when
/// the given layout cannot run: a tensor degree the model's heads do not allow (checked
/// first), or evaluate_layout's reasons.
/// The figures of place_report alone: the ranking, the chosen layout and the load, without
/// the words (reasons, assumptions, derivations) a sweep point does not print.
PlaceReport place_figures(const Catalog& catalog, const PlaceRequest& request);

PlaceReport place_report(const Catalog& catalog, const PlaceRequest& request);

/// The "icx.place/2" document: cluster, model, objective, phase, the chosen layout (layout,
/// memory, step, strategies, verdict) and every ranked layout (layouts[]).
void to_json(Json& json, const PlaceReport& report);

} // namespace icx
