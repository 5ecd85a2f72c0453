// What icx coldstart and icx offload share: a model with its parameter count (--params),
// the GPU count its weights can be split over, and host links chosen by id (--host-link).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "options/common.hpp"
#include "output/json.hpp"

namespace icx::cli {

struct WeightsOptions {
  ModelOptions model;
};

/// --model, --hidden, --layers, --params and --dtype.
void add_weights_options(CLI::App& app, WeightsOptions& options);

/// The model with its parameter count; a custom model must give --params.
ResolvedModel resolve_weights_model(const Catalog& catalog, const WeightsOptions& options);

/// The host link a command uses when --host-link is not given.
constexpr std::string_view default_host_link = "pcie5";

/// Adds --host-link ID: the same flag name and help text on every command.
CLI::Option* add_host_link_option(CLI::App& app, std::optional<std::string>& id);
/// The same for several links: space- or comma-separated, or "all".
CLI::Option* add_host_link_option(CLI::App& app, std::vector<std::string>& ids);

/// The host links named by `flag` (in order, without repeats; default_host_link when none);
/// "all": every host link, fastest first; a link of another tier is an error naming `flag`.
std::vector<const Link*> host_links(const Catalog& catalog, const std::string& flag,
                                    const std::vector<std::string>& ids);

/// --from's name for a system's local NVMe drives striped (icx/host/weight_loading.hpp node_nvme).
constexpr std::string_view node_nvme_tier = "node-nvme";

/// Adds --system ID for a command that needs a node's host side (host link, switch uplinks,
/// DRAM, drives).
CLI::Option* add_host_system_option(CLI::App& app, std::string& id);

/// The system named by --system (nullptr when `id` is empty); one without a host side is an
/// error naming the flag and the systems that have one.
const System* host_system(const Catalog& catalog, const std::string& id);

/// Runs `report`; a GroupError (the weights cannot be split over the GPUs) becomes a usage
/// error naming --gpus.
template <class Report> auto for_gpus_flag(Report&& report) {
  try {
    return report();
  } catch (const GroupError& error) {
    throw UsageError(fmt::format("--gpus: {}", error.what()));
  }
}

/// "llama-3.1-70b: 70.6B parameters, bf16 (2 B per element)", with any overridden flags.
std::string describe_weights_model(const ResolvedModel& model);

/// "70,553,706,496 parameters × 2 B".
std::string describe_weights(const ResolvedModel& model);

/// id, total_params, dtype, bytes_per_element, overridden.
Json weights_model_json(const ResolvedModel& model);

/// "Sources:" and one line per entry, each entry once.
std::string sources_section(const std::vector<const Entry*>& entries);

} // namespace icx::cli
