// What icx coldstart and icx offload share: a model with its parameter count (--params),
// the GPU count its weights can be split over, and host links chosen by id.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common.hpp"
#include "icx/catalog.hpp"
#include "json_output.hpp"

namespace icx::cli {

struct WeightsOptions {
  ModelOptions model;
};

/// --model, --hidden, --layers, --params and --dtype.
void add_weights_options(CLI::App& app, WeightsOptions& options);

/// The model with its parameter count; a custom model must give --params.
ResolvedModel resolve_weights_model(const Catalog& catalog, const WeightsOptions& options);

/// Throws a UsageError naming `flag` when the model's weights cannot be split over `gpus`.
void check_gpu_count(const ResolvedModel& model, int gpus, const std::string& flag);

/// A link of the host tier, by id or alias; any other link is an error naming `flag`.
const Link& host_link(const Catalog& catalog, const std::string& flag, const std::string& id);

/// The host links named (in order, without repeats); "all": every host link, fastest first.
std::vector<const Link*> host_links(const Catalog& catalog, const std::string& flag,
                                    const std::vector<std::string>& ids);

/// "llama-3.1-70b: 70.6B parameters, bf16 (2 B per element)", with any overridden flags.
std::string describe_weights_model(const ResolvedModel& model);

/// "70,553,706,496 parameters × 2 B".
std::string describe_weights(const ResolvedModel& model);

/// id, total_params, dtype, bytes_per_element, overridden.
Json weights_model_json(const ResolvedModel& model);

/// "Sources:" and one line per entry, each entry once.
std::string sources_section(const std::vector<const Entry*>& entries);

} // namespace icx::cli
