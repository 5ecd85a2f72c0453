// icx coldstart: maps flags to a ColdStartRequest and prints the report
// (icx/reports/coldstart.hpp) as a table, JSON, CSV or its derivations.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/reports/coldstart.hpp"
#include "icx/util/table.hpp"
#include "options/common.hpp"
#include "options/host_link.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "sweeps/coldstart.hpp"
#include "sweeps/document.hpp"
#include "views/coldstart.hpp"
#include "views/host_link.hpp"

namespace icx::cli {

namespace {

struct ColdstartOptions {
  CommonOptions common;
  WeightsOptions weights;
  /// Absent: one GPU.
  std::optional<int> gpus;
  std::optional<int> gpus_per_node;
  std::optional<std::string> host_link;
  /// The former name of --host-link, still accepted.
  std::optional<std::string> wire;
  std::string from;
  std::string system;
  std::optional<std::string> loader;
  std::optional<double> budget;
  SweepOptions sweep;
};

/// The storage tier of --from: with --system, host memory at the node's DRAM bandwidth and
/// "node-nvme" for its drives striped; `owned` keeps a tier built from the system.
const StorageTier* storage_of(const Catalog& catalog, const ColdstartOptions& options,
                              const System* system, std::optional<StorageTier>& owned) {
  if (options.from.empty()) {
    return nullptr;
  }
  const HostSide* host = system != nullptr && system->host ? &*system->host : nullptr;
  if (options.from == node_nvme_tier) {
    if (host == nullptr || host->nvme_drives < 1) {
      throw UsageError(fmt::format(
          "--from {}: needs --system with local NVMe drives (see 'icx systems'); or name a "
          "tier from 'icx storage', e.g. --from nvme-raid0",
          node_nvme_tier));
    }
    owned = node_nvme(*host, catalog.storage(host->nvme_tier));
    return &*owned;
  }
  const StorageTier& tier =
      for_flag("--from", [&]() -> const StorageTier& { return catalog.storage(options.from); });
  if (host != nullptr && tier.cached) {
    owned = node_page_cache(*host, tier);
    return &*owned;
  }
  return &tier;
}

ColdStartRequest request_of(const Catalog& catalog, const ColdstartOptions& options,
                            const ResolvedModel& model, std::optional<StorageTier>& owned) {
  ColdStartRequest request;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.expert_dtype = &model.expert_dtype;
  request.gpus = options.gpus.value_or(1);
  request.gpus_per_node = options.gpus_per_node;
  if (options.wire && options.host_link) {
    throw UsageError("--wire: the former name of --host-link; give only --host-link");
  }
  const System* system = host_system(catalog, options.system);
  // A script written for the former name gets errors naming the flag it used.
  auto id = options.wire ? options.wire : options.host_link;
  if (!id && system != nullptr) {
    id = system->host->link;
    request.gpus_per_node = options.gpus_per_node.value_or(system->gpus_per_node);
  }
  if (system != nullptr) {
    request.gpus_per_uplink = system->host->gpus_per_uplink;
  }
  if (request.gpus_per_node) {
    if (const Check whole = check_whole_nodes(request.gpus, *request.gpus_per_node); !whole) {
      throw UsageError(fmt::format("--gpus {}: {}; give a multiple of {}, or fewer GPUs than one "
                                   "node",
                                   request.gpus, whole.reason(), *request.gpus_per_node));
    }
  }
  request.host_link = host_links(catalog, options.wire ? "--wire" : "--host-link",
                                 id ? std::vector{*id} : std::vector<std::string>{})[0];
  request.storage = storage_of(catalog, options, system, owned);
  request.loaders = catalog.loaders();
  if (options.loader) {
    request.loader =
        &for_flag("--loader", [&]() -> const Loader& { return catalog.loader(*options.loader); });
  }
  if (options.budget) {
    request.budget = Seconds::of(*options.budget);
  }
  return request;
}

int run_coldstart(const ColdstartOptions& options) {
  const Style style = style_of(options.common);
  check_sweep_flags(options.sweep, style, !options.sweep.sweep.empty(), "--sweep gpus=1:64");
  const std::optional<Sweep> sweep = sweep_of(options.sweep, coldstart_sweep_params);
  if (sweep && options.gpus) {
    throw UsageError(
        fmt::format("--sweep {}: sets the GPU count; drop --gpus {}", sweep->text, *options.gpus));
  }
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_weights_model(catalog, options.weights);
  std::optional<StorageTier> owned;
  const ColdStartRequest request = request_of(catalog, options, model, owned);
  if (sweep) {
    // A sweep explores: each row says whether the budget holds, and the exit status stays 0.
    SweepWriter out(style, options.sweep);
    out.finish(coldstart_sweep(request, *sweep, out));
    return exit_ok;
  }
  const ColdStartReport report = for_gpus_flag([&] { return coldstart_report(request); });
  emit(style, coldstart_document(model, report), "stages",
       style.explain ? coldstart_derivations(model, report) : Derivations{},
       [&] { print_coldstart(style, model, report); });
  return report.within_budget.value_or(true) ? exit_ok : exit_over_budget;
}

} // namespace

Command setup_coldstart(CLI::App& app) {
  auto options = std::make_shared<ColdstartOptions>();
  CLI::App* sub = app.add_subcommand(
      "coldstart", "Hard lower bound on loading a model's weights: storage → host → each GPU");
  add_weights_options(*sub, options->weights);
  sub->add_option("-g,--gpus", options->gpus,
                  "GPUs sharing the weights in equal shards, each over its own host link")
      ->type_name("N")
      ->default_str("1")
      ->transform(whole_number(1, limits::max_domain));
  sub->add_option("--gpus-per-node", options->gpus_per_node,
                  "GPUs in one node, for a per-node storage tier; default: all --gpus in one node")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_host_link_option(*sub, options->host_link);
  // Hidden: the former name, kept so existing scripts still run.
  sub->add_option("-w,--wire", options->wire, "Former name of --host-link")
      ->type_name("ID")
      ->group("");
  sub->add_option("--from", options->from,
                  "Storage tier the weights are read from (see 'icx storage'), or node-nvme: the "
                  "--system's local drives striped; default: none, the weights start in host "
                  "memory")
      ->type_name("ID");
  add_host_system_option(*sub, options->system);
  sub->add_option("--loader", options->loader,
                  "The engine's loader (see 'icx loaders'): --budget then gates on its expected "
                  "load time, not the floor")
      ->type_name("ID");
  sub->add_option("--budget", options->budget,
                  "Seconds the load may take; exit status 3 when the expected load with --loader "
                  "(or, without one, even the floor) exceeds it")
      ->type_name("SECONDS")
      ->transform(decimal_number(limits::budget_seconds));
  add_sweep_options(*sub, options->sweep, coldstart_sweep_params);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx coldstart --model 70b\n"
              "  icx coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4\n"
              "  icx coldstart --model 405b --gpus 16 --gpus-per-node 8 --from nvme-raid0\n"
              "  icx coldstart --model 70b --gpus 4 --from page-cache --loader vllm-default\n"
              "  icx coldstart --model 405b --system dgx-h100 --gpus 8 --from node-nvme --loader "
              "fastsafetensors --budget 60\n"
              "  icx coldstart --model 70b --host-link nvlink-c2c --budget 1 --json\n"
              "  icx coldstart --hf-config path/to/config.json --gpus 8\n"
              "  icx coldstart --model 405b --system dgx-h100 --from node-nvme --sweep gpus=8:64\n"
              "  icx coldstart --model 70b --from nvme-gen4 --sweep gpus=1:64 --budget 60 --plot "
              "coldstart.svg\n\n"
              "Exit status: 0 the budget holds (or no --budget, or --sweep: each row says whether "
              "it holds), 3 it does not (the expected load with --loader, else the floor), 2 bad "
              "input.");
  return {sub, [options] { return run_coldstart(*options); }};
}

} // namespace icx::cli
