// A user's own serving benchmark runs (icx/measured/serving_run.hpp) against icx: each run's
// load simulated on the layout the user names, as the benchmark sent it, and every latency
// figure the run reports set beside the simulation's.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/comparison.hpp"
#include "icx/measured/serving_run.hpp"
#include "icx/reports/place.hpp"
#include "icx/serving/simulate.hpp"

namespace icx {

struct ServingValidationRequest {
  /// The model, cluster, engine and layout (given, else the recommended one at each run's
  /// load); the load and traffic are each run's.
  PlaceRequest place;
  /// How the runs' lengths are drawn around their means (a benchmark records only the means).
  LengthShape lengths = LengthShape::fixed;
  double spread = 0;
  std::uint64_t seed = 1;
  /// Fraction of each prompt the engine found in its prefix cache (the user's assumption: a
  /// run records none).
  double prefix_hit = 0;
  /// Requests at each run's start whose prompt its tool sent before it; default the tool's
  /// own (warm_prompts_of).
  std::optional<std::int64_t> warm_prompts;
};

/// One figure of one latency a run reports.
struct LatencyCheck {
  /// "TTFT", "TPOT" or "ITL".
  std::string latency;
  Statistic statistic = Statistic::mean;
  /// In seconds.
  Comparison comparison;
};

struct ServingCheck {
  ServingRun run;
  /// The traffic the run sent, as simulated over the whole cluster.
  Traffic traffic;
  /// The layout simulated, and what the simulation found.
  Layout layout;
  SimulatedLoad simulated;
  std::vector<LatencyCheck> latencies;
  /// Output tokens per second over the cluster.
  Comparison output_tokens_per_second;
};

struct ServingValidation {
  std::vector<ServingCheck> checks;
  /// The engine keeps a prefix cache, where a client's warm-up leaves its prompt.
  bool prefix_cache = true;
  /// Per figure ("TTFT p99", "output tokens/s"), over every run that reports it.
  std::map<std::string, ComparisonSummary, std::less<>> summary;
};

/// Simulates each run's load and compares. A run sets its traffic: its client cap as a closed
/// loop, else its rate as Poisson arrivals, else every request at once (a closed loop of as
/// many clients as requests); as many requests as it completed (default_simulated_requests when it
/// does not say), none left out, at its mean lengths. Throws InputError as place_report does.
ServingValidation validate_serving(const Catalog& catalog, const ServingValidationRequest& request,
                                   std::span<const ServingRun> runs);

/// "TTFT p99", or "TTFT mean".
std::string figure_name(const LatencyCheck& check);

/// The "icx.serving-validation/1" document: runs[] ({origin, line, tool, model, load, input,
/// output, layout, latencies[] {latency, statistic, measured_seconds, predicted_seconds,
/// error}, output_tokens_per_second {measured, predicted, error}}) and summary[] (figure,
/// rows, median_abs_error, worst_abs_error).
void to_json(Json& json, const ServingValidation& validation);

} // namespace icx
