// What a plan works with: latency targets and a load, the candidates (for each system the
// fewest nodes and the layout on them that serve the load within the targets, what that
// costs) and which target a candidate misses. The search is icx/reports/plan.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/base/enum_names.hpp"
#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/launch.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/simulate.hpp"
#include "icx/serving/simulation_costs.hpp"

namespace icx {

/// Nodes of one system a plan tries when nothing says: up to four 8-GPU nodes hold every
/// dense model in the catalog in BF16 and DeepSeek-V3 in FP8.
constexpr int default_max_nodes = 4;

/// Latency targets, each held against a statistic of the simulated requests (the closed form
/// gives means only).
struct PlanTargets {
  Seconds ttft;
  Seconds tpot;
  Statistic ttft_statistic = Statistic::mean;
  Statistic tpot_statistic = Statistic::mean;
};

struct PlanRequest {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  /// The engine assumptions (dtypes, overlap, utilisation, --impl, …); the phase, sizes and
  /// batch come from the load.
  ServingRequest serving;
  /// The load; its prefill chunk is `serving.prefill_chunk`, or each GPU's default. A closed
  /// loop's rate is zero: its clients (`traffic`) set what it sends.
  Load load;
  /// Each layout simulated under this traffic (an open loop at the load's rate, or a closed
  /// loop of clients over the whole deployment); absent: the closed form alone (means).
  std::optional<Traffic> traffic;
  /// Simulate the layouts worth it under `traffic`; false (--fast): the closed form alone, a
  /// closed loop's clients by serve_clients.
  bool simulate = true;
  PlanTargets targets;
  /// The systems to plan on, in catalog order.
  std::vector<const System*> systems;
  /// USD per node-hour by system id, replacing the catalog's price.
  std::map<std::string, double, std::less<>> prices;
  int max_nodes = default_max_nodes;
  /// Also plan separate prefill and decode pools (each up to max_nodes nodes of the system)
  /// with the KV cache sent between them, and take them where they need fewer nodes.
  bool disaggregate = false;
  /// Write the command that launches the winner's layout on the request's engine.
  bool emit = false;
};

/// The whole nodes a pool of `pool.gpus` GPUs takes, or nothing when it is a part of one node.
std::optional<int> whole_nodes(const Cluster& pool);

/// A deployment split into a prefill pool and a decode pool of one system.
struct Disaggregated {
  /// Each pool is a part of one node (a divisor of its GPUs) or whole nodes; the cluster's
  /// `gpus` says which.
  Cluster prefill_cluster;
  /// The prefill pool under the load (serve_prefill_pool): TTFT with the KV transfer.
  LoadedStep prefill;
  Cluster decode_cluster;
  /// The decode pool under the load (serve_decode_pool): TPOT and requests in flight.
  LoadedStep decode;
  /// The wire the KV cache crosses: the scale-up link when both pools share one node.
  KvRoute kv_route = KvRoute::between_nodes;
  /// The pools' GPUs over whole nodes.
  [[nodiscard]] int nodes() const;
};

/// Which target a candidate misses by the most, and by how many times.
enum class PlanMiss { none, weights, memory, saturated, ttft, tpot };

constexpr std::array<EnumName<PlanMiss>, 6> enum_names(PlanMiss /*unused*/) {
  return {{{PlanMiss::none, "none"},
           {PlanMiss::weights, "weights"},
           {PlanMiss::memory, "memory"},
           {PlanMiss::saturated, "saturated"},
           {PlanMiss::ttft, "ttft"},
           {PlanMiss::tpot, "tpot"}}};
}

struct PlanCandidate {
  const System* system = nullptr;
  Cluster cluster;
  int nodes = 0;
  /// The chosen layout under the load: the best meeting one on the fewest nodes, else the
  /// closest to the targets on any node count tried.
  LoadedStep step;
  bool meets_targets = false;
  /// USD per node-hour: --price's, else the catalog's (`price`); absent: no price.
  std::optional<double> usd_per_node_hour;
  /// The catalog's price, date and source when it is the one used.
  const Price* price = nullptr;
  PlanMiss miss = PlanMiss::none;
  /// The chosen layout simulated under the request's traffic, when it had one: `step`'s TTFT
  /// and TPOT are then the targets' statistics of it, its batch the mean batch, its tokens/s
  /// what the simulation served, and its limit `saturated` when it fell behind.
  std::optional<SimulatedLoad> simulated;
  /// With `simulated`: the closed form's step of the same layout (a cross-check, and the chain
  /// --explain shows).
  LoadedStep closed_form;
  /// How many times over the missed target (TTFT or TPOT) the candidate is.
  double miss_factor = 1;
  std::string reason;
  /// Present when the candidate is a disaggregated deployment; `step` then holds the decode
  /// pool's step with the prefill pool's TTFT.
  std::optional<Disaggregated> disaggregated;
  /// Prompt tokens one engine step prefills on this system's GPU (the load's chunk).
  std::int64_t prefill_chunk = 0;
  /// Layouts evaluated under the load, and those skipped because the weights do not fit.
  int layouts_evaluated = 0;
  int layouts_pruned = 0;
  [[nodiscard]] std::optional<double> cost_per_hour() const;
  /// Output tokens per second over the deployment: the open loop's offered (all served when
  /// the candidate meets the targets), what the simulation served when it fell behind (none
  /// when the closed form cannot serve it), else what the clients reached (simulated, or by
  /// the closed form).
  [[nodiscard]] double output_tokens_per_second(const Load& load) const;
  /// output_tokens_per_second over the candidate's GPUs: what its table row and JSON show.
  [[nodiscard]] double output_tokens_per_second_per_gpu(const Load& load) const;
  [[nodiscard]] std::optional<double> cost_per_million_output_tokens(const Load& load) const;
};

struct PlanReport {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  Load load;
  /// The request's traffic: an open loop when each layout was simulated, or a closed loop
  /// (simulated, or by the closed form under --fast).
  std::optional<Traffic> traffic;
  /// Whether layouts were simulated (else the closed form's means alone).
  bool simulated = false;
  PlanTargets targets;
  int max_nodes = 0;
  bool disaggregate = false;
  /// Cheapest first; candidates without a price last.
  std::vector<PlanCandidate> candidates;
  /// The cheapest candidate that meets the targets, an index of `candidates`; when none that
  /// meets has a price, the one with the fewest GPUs.
  std::optional<std::size_t> winner;
  /// Without a winner: the candidate that serves the load closest to the targets (the
  /// smallest miss factor), when any serves it at all.
  std::optional<std::size_t> closest;
  /// What the load model assumed that icx cannot know, each with the flag that changes it.
  std::vector<std::string> assumptions;
  /// The chain from the targets to the winner's layout and cost (or the closest candidate's).
  Derivations derivations;
  /// The winner's launch command, when the request asked for it and a candidate won.
  std::optional<LaunchCommand> launch;
};

/// Which target a step misses by more, and by what factor: the larger of TTFT / its target
/// and TPOT / its target (TPOT on a tie; a factor of at most 1 means it meets both); memory or
/// saturated, factor 1, when the step does not serve the load at all.
struct TargetMiss {
  PlanMiss miss = PlanMiss::none;
  double factor = 1;
};

TargetMiss target_miss(const LoadedStep& step, const PlanTargets& targets);

} // namespace icx
