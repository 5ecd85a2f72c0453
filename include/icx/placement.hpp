// Placement: which split of a model goes on which wire of a cluster, and whether that is a
// good idea.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog.hpp"
#include "icx/compute.hpp"
#include "icx/hbm.hpp"
#include "icx/strategies.hpp"
#include "icx/verdict.hpp"

namespace icx {

struct Cluster {
  const Gpu* gpu = nullptr;
  int gpus = 0;
  int gpus_per_node = 0;
  /// GPUs per scale-up (NVLink) domain; groups inside one domain talk over `scale_up`.
  int domain = 0;
  const Link* scale_up = nullptr;
  /// Between domains; unused when the cluster is a single domain.
  const Link* scale_out = nullptr;
};

/// The part of a cluster a contradiction lies in.
enum class ClusterPart { scale_up, scale_out };

struct ClusterProblem {
  ClusterPart part = ClusterPart::scale_up;
  std::string reason;
};

/// Why the parts of `cluster` contradict each other, or nothing (icx/topology.hpp): the GPU
/// on a scale-up link it does not have, more GPUs in a domain than its link joins, or a link
/// other than a scale-out link between separate domains. `catalog_domain` is the GPUs the
/// catalog puts in one scale-up domain (`domain_from` names the entry); `links` gives the
/// scale-out links to suggest.
std::optional<ClusterProblem> cluster_problem(const Cluster& cluster, int catalog_domain,
                                              std::string_view domain_from,
                                              std::span<const Link> links);

struct Workload {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  std::int64_t tokens = 0;
  ComputeRate rate;
  /// Fraction of each GPU's HBM kept free (icx/hbm.hpp).
  double memory_reserve = default_memory_reserve;
};

/// Degrees of each split; their product is the GPU count. Ranks are laid out tensor
/// innermost, then expert, then pipeline, then data.
struct Layout {
  int tp = 1;
  int pp = 1;
  int ep = 1;
  int dp = 1;
  [[nodiscard]] int product() const { return tp * pp * ep * dp; }
};

struct StrategyCost {
  Strategy strategy = Strategy::data;
  int degree = 1;
  /// The wire the split's traffic crosses; nullptr when nothing crosses a wire.
  const Link* wire = nullptr;
  /// Per GPU, one forward pass.
  Bytes bytes;
  /// Headline time of that traffic on `wire`.
  Seconds seconds;
  /// Expected-model time on `wire`, where the link has expected-model parameters.
  std::optional<Seconds> expected_seconds;
  /// The group spans scale-up domains, so its traffic leaves the NVLink domain.
  bool crosses_domain = false;
  /// What the same traffic would take on the scale-up link (meaningful when crossing).
  Seconds seconds_on_scale_up;
  Verdict verdict;
};

struct Placement {
  Layout layout;
  Bytes weights;
  Bytes per_gpu_weights;
  Bytes usable_per_gpu;
  bool fits = false;
  /// Prefill compute time of one pass, shared by the tensor and expert groups.
  Seconds compute;
  std::vector<StrategyCost> strategies;
  Level level = Level::ok;
};

/// The textbook placement rule as a layout: shard inside the scale-up domain (tensor parallel, or
/// expert parallel for an MoE model, with the smallest group whose shard fits; pipeline instead
/// when the domain's link does not allow them), pipeline across domains only when the
/// weights do not fit one domain, replicas for the rest.
Layout recommend_layout(const Cluster& cluster, const Workload& workload);

/// Traffic, wire, time and verdict of each split of `layout`. Throws InputError when the
/// layout's product is not the cluster's GPU count.
Placement evaluate_layout(const Cluster& cluster, const Workload& workload, const Layout& layout);

} // namespace icx
