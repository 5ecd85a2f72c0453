// The setup of a user's serving benchmark runs (icx validate --serving, icx calibrate
// --serving): the model, cluster, engine and layout they ran on, as icx place takes them, and
// how their lengths are drawn around the means they record.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/reports/serving_validation.hpp"
#include "options/load.hpp"
#include "options/place.hpp"

namespace icx::cli {

struct ServingRunOptions {
  PlaceOptions place;
  SimulationOptions simulation;
  double prefix_hit = 0;
  std::optional<std::int64_t> warm_prompts;
};

/// An option group "Setup of --serving runs" with place's flags (without the cluster's
/// --system, --gpus… unless `fabric`), --prefix-hit, --spread, --lengths and --seed.
void add_serving_run_options(CLI::App& app, ServingRunOptions& options, bool fabric = true);

/// The model the flags name for the runs in `files`. Refuses flags a run sets itself
/// (--phase, --tokens, --context, --batch, --objective, --top), no file, and no --model.
ResolvedModel serving_run_model(const Catalog& catalog, const CLI::App& app,
                                const ServingRunOptions& options,
                                const std::vector<std::string>& files);

/// The request the flags describe for `model`, which must outlive it (the request points
/// into it).
ServingValidationRequest serving_run_request(const Catalog& catalog,
                                             const ServingRunOptions& options,
                                             const CommonOptions& common,
                                             const ResolvedModel& model);

} // namespace icx::cli
