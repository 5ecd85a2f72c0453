#include "options/run_setup.hpp"

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "options/common.hpp"

namespace icx::cli {

void add_run_setup_options(CLI::App& sub, RunSetupOptions& options,
                           const std::string& default_text) {
  const std::size_t first = sub.get_options().size();
  sub.add_option("--impl", options.impl,
                 "Who runs an all-reduce: nccl (as nccl-tests), custom (the engines' one-shot "
                 "or two-shot kernel, the faster; one-shot or two-shot by name), multimem "
                 "(symmetric-memory multicast on NVSwitch), vllm or sglang (that engine's "
                 "choice by size; NCCL where the wire has no figures for its kernels)")
      ->type_name("IMPL")
      ->check(shown_choices(names<Implementation>()))
      ->default_str(default_text);
  sub.add_option("--pcie-topology", options.topology,
                 "How GPUs on a PCIe wire reach each other: host (through one CPU's root "
                 "complex), switch (under PCIe switches) or dual-socket (across the socket "
                 "link); default: by group size, as the link's catalog entry says ('icx links')")
      ->type_name("TOPOLOGY");
  group_options_from(sub, first, "Engine");
}

RunSetup parse_run_setup(const Catalog& catalog, const RunSetupOptions& options,
                         Implementation fallback) {
  const auto implementation = options.impl ? implementation_from_name(*options.impl) : fallback;
  if (!implementation) {
    throw UsageError(fmt::format(
        "--impl: {}", unknown_name("implementation", *options.impl, names<Implementation>())));
  }
  if (!options.topology.empty()) {
    std::set<std::string> known;
    for (const Link& link : catalog.links()) {
      for (const LinkTopology& topology : link.topologies) {
        known.insert(topology.id);
      }
    }
    if (!known.contains(options.topology)) {
      throw UsageError(
          fmt::format("--pcie-topology: {}",
                      unknown_name("topology", options.topology, {known.begin(), known.end()})));
    }
  }
  return {*implementation, options.topology, {}};
}

void require_run_setup(const Link& link, Collective op, const RunSetup& setup) {
  if (const Check check = check_implementation(link, op, setup.implementation); !check) {
    throw UsageError(fmt::format("--impl {}: {}", to_string(setup.implementation), check.reason()));
  }
  try {
    (void)link_topology(link, setup.topology, min_collective_gpus);
  } catch (const InputError& error) {
    throw UsageError(fmt::format("--pcie-topology {}: {}", setup.topology, error.what()));
  }
}

} // namespace icx::cli
