#include "reports/plan_pools.hpp"

#include <vector>

#include "icx/reports/place.hpp"
#include "icx/serving/engine_memory.hpp"
#include "icx/serving/ranking.hpp"
#include "words/plan.hpp"

namespace icx::detail {

std::optional<Cluster> system_cluster_of(const Catalog& catalog, const System& system, int gpus) {
  ClusterRequest request;
  request.system = &system;
  request.gpu = &catalog.gpu(system.gpu);
  request.scale_up = &catalog.link(system.scale_up_link);
  request.scale_out = &catalog.link(system.scale_out_link);
  request.gpus = gpus;
  try {
    return resolve_cluster(request, catalog.links());
  } catch (const ClusterError&) {
    return std::nullopt;
  }
}

bool priced(const LoadedStep& step) {
  return !unpriced_crossing(step.prefill) && !unpriced_crossing(step.decode);
}

namespace {

struct Pool {
  Cluster cluster;
  LoadedStep step;
  double headroom = 0;
};

/// The GPU counts a pool may take, fewest first: each divisor of a node's GPUs below it (a
/// part of one node, or of one NVL72 rack), then whole nodes up to max_nodes.
std::vector<int> pool_sizes(const System& system, int max_nodes) {
  std::vector<int> sizes;
  for (int gpus = 1; gpus < system.gpus_per_node; ++gpus) {
    if (system.gpus_per_node % gpus == 0) {
      sizes.push_back(gpus);
    }
  }
  for (int nodes = 1; nodes <= max_nodes; ++nodes) {
    sizes.push_back(nodes * system.gpus_per_node);
  }
  return sizes;
}

/// Where the KV cache goes from a prefill pool of `prefill_gpus` to a decode pool of
/// `decode_gpus`: two parts of a node fit one node together (each is at most half of it),
/// inside one scale-up domain when their GPUs fit one.
KvRoute kv_route(const System& system, int prefill_gpus, int decode_gpus) {
  const int gpus = prefill_gpus + decode_gpus;
  if (gpus > system.gpus_per_node) {
    return KvRoute::between_nodes;
  }
  return gpus <= system.scale_up_domain ? KvRoute::scale_up : KvRoute::between_domains;
}

/// The fewest GPUs of `system` (pool_sizes) on which some layout's `serve` step meets
/// `within` (and, among the layouts there, the one that meets it by the most), or nothing.
template <class Serve, class Within>
std::optional<Pool> smallest_pool(const Catalog& catalog, const PlanRequest& request,
                                  const System& system, const Workload& workload, Serve serve,
                                  Within within) {
  const int redundant = request.serving.ep_routing.redundant_experts;
  for (const int gpus : pool_sizes(system, request.max_nodes)) {
    const std::optional<Cluster> cluster = system_cluster_of(catalog, system, gpus);
    if (!cluster) {
      if (gpus > system.gpus_per_node) {
        return std::nullopt;
      }
      continue;
    }
    std::optional<Pool> best;
    for (const Layout& layout : candidate_layouts(*cluster, *request.model, redundant)) {
      if (!weights_fit(*cluster->gpu, workload, layout)) {
        continue;
      }
      const LoadedStep step = serve(*cluster, layout);
      const double headroom = within(step);
      if (step.serves() && headroom >= 1 && priced(step) && (!best || headroom > best->headroom)) {
        best = Pool{*cluster, step, headroom};
      }
    }
    if (best) {
      return best;
    }
  }
  return std::nullopt;
}

} // namespace

// The decode pool is found first: a prefill pool that shares its node sends the KV cache over
// the node's own links.
void try_disaggregated(const Catalog& catalog, const PlanRequest& request, const System& system,
                       const LoadWorkloads& workloads, const Load& load, PlanCandidate& candidate) {
  const std::optional<Pool> decode = smallest_pool(
      catalog, request, system, workloads.decode,
      [&](const Cluster& cluster, const Layout& layout) {
        return serve_decode_pool(cluster, workloads, layout, load);
      },
      [&](const LoadedStep& step) { return request.targets.tpot / step.tpot; });
  if (!decode) {
    return;
  }
  const int decode_gpus = decode->cluster.gpus;
  const std::optional<Pool> prefill = smallest_pool(
      catalog, request, system, workloads.decode,
      [&](const Cluster& cluster, const Layout& layout) {
        return serve_prefill_pool(cluster, workloads, layout, load, request.serving.setup,
                                  kv_route(system, cluster.gpus, decode_gpus));
      },
      [&](const LoadedStep& step) { return request.targets.ttft / step.ttft; });
  if (!prefill) {
    return;
  }
  const Disaggregated pools{prefill->cluster, prefill->step, decode->cluster, decode->step,
                            kv_route(system, prefill->cluster.gpus, decode_gpus)};
  if (candidate.meets_targets && pools.nodes() >= candidate.nodes) {
    return;
  }
  const PlanCandidate shared = candidate;
  // The pools are priced by the closed form (means at the load's rate).
  candidate.simulated.reset();
  candidate.disaggregated = pools;
  candidate.meets_targets = true;
  candidate.miss = PlanMiss::none;
  candidate.miss_factor = 1;
  candidate.nodes = pools.nodes();
  candidate.cluster = decode->cluster;
  candidate.step = decode->step;
  candidate.step.ttft = prefill->step.ttft;
  candidate.step.prefill = prefill->step.prefill;
  candidate.step.prefill_share = prefill->step.prefill_share;
  candidate.step.kv_transfer = prefill->step.kv_transfer;
  candidate.step.tokens_per_second_per_gpu =
      load.rate * static_cast<double>(load.output) /
      static_cast<double>(candidate.nodes * system.gpus_per_node);
  describe_disaggregated(request, shared, candidate);
}

} // namespace icx::detail
