#include "icx/reports/plan.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/reports/place.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/engine_memory.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/words/launch.hpp"
#include "reports/plan_pools.hpp"
#include "reports/plan_pricing.hpp"
#include "words/plan.hpp"

namespace icx {

namespace {

/// How far a step is from the targets: the larger of TTFT/target and TPOT/target when it
/// serves the load; a step that cannot serve it ranks after every one that can, memory
/// shortfalls by how short, saturated ones last by how much prefill they need.
double distance(const LoadedStep& step, const PlanTargets& targets) {
  constexpr double cannot_serve = 1e6;
  switch (step.limit) {
  case ServeLimit::none:
    return std::max(step.ttft / targets.ttft, step.tpot / targets.tpot);
  case ServeLimit::memory:
    return cannot_serve + static_cast<double>(step.batch) / static_cast<double>(step.capacity);
  case ServeLimit::saturated:
    return 2 * cannot_serve + step.prefill_share;
  case ServeLimit::weights:
    break;
  }
  return std::numeric_limits<double>::infinity();
}

bool meets(const LoadedStep& step, const PlanTargets& targets) {
  return step.serves() && step.ttft <= targets.ttft && step.tpot <= targets.tpot;
}

struct Found {
  LoadedStep step;
  std::optional<SimulatedLoad> simulated;
  LoadedStep closed_form;
  Cluster cluster;
  int nodes = 0;
  double distance = std::numeric_limits<double>::infinity();
};

/// The cluster of `nodes` nodes of `system`.
std::optional<Cluster> system_cluster(const Catalog& catalog, const System& system, int nodes) {
  return detail::system_cluster_of(catalog, system, nodes * system.gpus_per_node);
}

void price_candidate(const PlanRequest& request, const System& system, PlanCandidate& candidate) {
  if (const auto given = request.prices.find(system.id); given != request.prices.end()) {
    candidate.usd_per_node_hour = given->second;
  } else if (system.price) {
    candidate.usd_per_node_hour = system.price->usd_per_hour;
    candidate.price = &*system.price;
  }
}

/// What the search over node counts found: the layout that meets the targets on the fewest
/// nodes (the most headroom among that count's), else the closest miss; and the closest miss
/// on the counts below the one that meets.
struct Search {
  std::optional<Found> best;
  Found closest;
  std::optional<Found> closest_below;
};

/// Every layout of `cluster` (`nodes` nodes) priced at the load, into `search`: by the closed
/// form, and with a traffic those within simulation_screen of the best simulated (the others
/// are not chosen).
void search_layouts(const detail::Pricing& pricing, const Cluster& cluster, int nodes,
                    PlanCandidate& candidate, Search& search) {
  const PlanRequest& request = pricing.request;
  const Model& model = *request.model;
  const int redundant = request.serving.ep_routing.redundant_experts;
  std::vector<detail::Evaluated> priced_layouts;
  double nearest = std::numeric_limits<double>::infinity();
  for (const Layout& layout : candidate_layouts(cluster, model, redundant)) {
    if (!weights_fit(*cluster.gpu, pricing.workloads.decode, layout)) {
      ++candidate.layouts_pruned;
      continue;
    }
    // candidate_layouts gives only layouts the model and cluster allow (check_layout's
    // rules), so every one is priced.
    detail::Evaluated e;
    e.layout = layout;
    e.step = detail::closed_form(request, cluster, pricing.workloads, layout, pricing.load);
    ++candidate.layouts_evaluated;
    if (detail::priced(e.step)) {
      nearest = std::min(nearest, distance(e.step, request.targets));
      priced_layouts.push_back(std::move(e));
    }
  }
  for (detail::Evaluated& e : priced_layouts) {
    if (request.traffic && request.simulate) {
      if (!detail::worth_simulating(distance(e.step, request.targets), nearest)) {
        continue;
      }
      detail::simulate_layout(pricing, cluster, e);
    }
    const double d = distance(e.step, request.targets);
    if (meets(e.step, request.targets)) {
      // Among layouts that meet on these nodes (one price), the most headroom.
      if (!search.best || d < search.best->distance) {
        search.best = Found{e.step, std::move(e.simulated), e.closed_form, cluster, nodes, d};
      }
    } else if (d < search.closest.distance) {
      search.closest = Found{e.step, std::move(e.simulated), e.closed_form, cluster, nodes, d};
    }
  }
}

/// Why no layout of `system` holds the weights: the whole model against what a GPU gives the
/// weights with the node as one tensor group.
std::string weights_miss(const PlanRequest& request, const System& system, const Gpu& gpu,
                         const Workload& workload) {
  const Layout node{.tp = system.gpus_per_node};
  const Dtype& experts = workload.experts_dtype();
  const Bytes per_gpu = weights_per_gpu(*request.model, *request.dtype, experts, node);
  return detail::weights_reason(request, system, memory_budget(gpu, workload, node, per_gpu).usable,
                                model_weight_bytes(*request.model, *request.dtype, experts));
}

PlanCandidate plan_system(const Catalog& catalog, const PlanRequest& request, const System& system,
                          SimulationMemo& memo) {
  const Gpu& gpu = catalog.gpu(system.gpu);
  const Engine& engine = engine_of(catalog, request.serving.engine);
  Load load = request.load;
  load.prefill_chunk =
      prefill_chunk_or_default(request.serving.prefill_chunk, engine, gpu, *request.model);
  load.prefix_block = prefix_block(engine);
  load.kv_admission = engine.kv_admission;
  const detail::Pricing pricing{
      request, load,
      load_workloads(catalog, *request.model, *request.dtype, gpu, request.serving, load),
      engine.policy, &memo};
  const LoadWorkloads& workloads = pricing.workloads;
  PlanCandidate candidate;
  candidate.system = &system;
  candidate.prefill_chunk = load.prefill_chunk;
  price_candidate(request, system, candidate);
  Search search;
  for (int nodes = 1; nodes <= request.max_nodes && !search.best; ++nodes) {
    const std::optional<Cluster> cluster = system_cluster(catalog, system, nodes);
    if (!cluster) {
      break;
    }
    if (search.closest.nodes > 0) {
      search.closest_below = search.closest;
    }
    search_layouts(pricing, *cluster, nodes, candidate, search);
  }
  const Found& chosen = search.best ? *search.best : search.closest;
  candidate.meets_targets = search.best.has_value();
  if (chosen.nodes == 0) {
    // No layout's weights fit on any node count tried.
    candidate.nodes = request.max_nodes;
    candidate.miss = PlanMiss::weights;
    candidate.reason = weights_miss(request, system, gpu, workloads.decode);
    return candidate;
  }
  candidate.cluster = chosen.cluster;
  candidate.nodes = chosen.nodes;
  candidate.step = chosen.step;
  candidate.simulated = chosen.simulated;
  candidate.closed_form = chosen.closed_form;
  const Found* below = search.best && search.closest_below ? &*search.closest_below : nullptr;
  detail::FewerNodes fewer;
  if (below != nullptr) {
    fewer = {&below->step, below->simulated ? &*below->simulated : nullptr, below->nodes};
  }
  if (!candidate.meets_targets) {
    const TargetMiss miss = target_miss(candidate.step, request.targets);
    candidate.miss = miss.miss;
    candidate.miss_factor = miss.factor;
  }
  detail::describe_candidate(request, load, candidate, fewer);
  if (request.disaggregate) {
    detail::try_disaggregated(catalog, request, system, workloads, load, candidate);
  }
  return candidate;
}

/// Cheapest first (per hour); at one cost, meeting candidates first; unpriced ones last.
bool cheaper(const PlanCandidate& a, const PlanCandidate& b) {
  const std::optional<double> ca = a.cost_per_hour();
  const std::optional<double> cb = b.cost_per_hour();
  if (ca.has_value() != cb.has_value()) {
    return ca.has_value();
  }
  if (ca && *ca != *cb) {
    return *ca < *cb;
  }
  return a.meets_targets && !b.meets_targets;
}

/// The command that launches `winner`'s layout, with the workload its decode steps were
/// priced with (dtypes, sequences per scheduler).
LaunchCommand winner_launch(const Catalog& catalog, const PlanRequest& request,
                            const PlanCandidate& winner) {
  const Engine& engine = engine_of(catalog, request.serving.engine);
  Load load = request.load;
  load.prefill_chunk = winner.prefill_chunk;
  load.prefix_block = prefix_block(engine);
  load.kv_admission = engine.kv_admission;
  const Workload workload = load_workloads(catalog, *request.model, *request.dtype,
                                           *winner.cluster.gpu, request.serving, load)
                                .decode;
  const LaunchRequest launch{
      &engine,         request.model,       request.dtype, &workload, winner.step.layout,
      &winner.cluster, winner.prefill_chunk};
  LaunchCommand command = launch_command(launch);
  write_launch_words(command);
  return command;
}

} // namespace

namespace {

/// Refuses a request the plan cannot price, naming the flag.
void check_plan_request(const Catalog& catalog, const PlanRequest& request) {
  if (request.model->total_params <= 0) {
    throw InputError(
        fmt::format("planning needs the model's parameter count: pass {} N", Knob::params));
  }
  const bool closed = request.traffic && request.traffic->arrivals == Arrivals::closed;
  if (request.disaggregate && (closed || request.targets.ttft_statistic != Statistic::mean ||
                               request.targets.tpot_statistic != Statistic::mean)) {
    throw InputError(fmt::format("{}: its pools are priced by the closed form, means at a rate; "
                                 "give --rate and mean targets (--ttft 2s), or drop {}",
                                 Knob::disaggregate, Knob::disaggregate));
  }
  check_prefix_cache(engine_of(catalog, request.serving.engine), request.load.prefix_hit,
                     request.traffic ? request.traffic->warm_prompts : 0);
}

} // namespace

PlanReport plan(const Catalog& catalog, const PlanRequest& request) {
  check_plan_request(catalog, request);
  PlanReport report;
  report.model = request.model;
  report.dtype = request.dtype;
  report.load = request.load;
  report.load.prefix_block = prefix_block(engine_of(catalog, request.serving.engine));
  report.load.kv_admission = engine_of(catalog, request.serving.engine).kv_admission;
  report.traffic = request.traffic;
  report.simulated = request.traffic && request.simulate;
  report.targets = request.targets;
  report.max_nodes = request.max_nodes;
  report.disaggregate = request.disaggregate;
  SimulationMemo memo;
  for (const System* system : request.systems) {
    report.candidates.push_back(plan_system(catalog, request, *system, memo));
  }
  std::ranges::stable_sort(report.candidates, cheaper);
  for (std::size_t i = 0; i < report.candidates.size(); ++i) {
    const PlanCandidate& c = report.candidates[i];
    if (c.meets_targets && c.cost_per_hour()) {
      report.winner = i;
      break;
    }
  }
  // No price among those that meet (a system of the user's own, icx topo -o): the fewest GPUs.
  if (!report.winner) {
    const auto gpus = [](const PlanCandidate& x) { return x.nodes * x.system->gpus_per_node; };
    for (std::size_t i = 0; i < report.candidates.size(); ++i) {
      const PlanCandidate& c = report.candidates[i];
      if (c.meets_targets &&
          (!report.winner || gpus(c) < gpus(report.candidates[*report.winner]))) {
        report.winner = i;
      }
    }
  }
  for (std::size_t i = 0; !report.winner && i < report.candidates.size(); ++i) {
    const PlanCandidate& c = report.candidates[i];
    const bool served = c.miss == PlanMiss::ttft || c.miss == PlanMiss::tpot;
    if (served &&
        (!report.closest || c.miss_factor < report.candidates[*report.closest].miss_factor)) {
      report.closest = i;
    }
  }
  report.assumptions = detail::plan_assumptions(catalog, request);
  report.derivations = detail::plan_derivations(report);
  if (request.emit && report.winner) {
    report.launch = winner_launch(catalog, request, report.candidates[*report.winner]);
  }
  return report;
}

} // namespace icx
