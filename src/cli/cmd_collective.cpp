// icx collective: one collective operation (or a sweep of sizes) on one wire, headline and
// expected time, algbw and busbw, as nccl-tests reports them.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "collective_view.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "fabric_options.hpp"
#include "icx/collective_report.hpp"
#include "icx/collectives.hpp"
#include "icx/limits.hpp"
#include "icx/topology.hpp"
#include "output.hpp"
#include "run_setup_options.hpp"
#include "size_option.hpp"

namespace icx::cli {

namespace {

struct CollectiveOptions {
  CommonOptions common;
  std::string op;
  std::string size;
  int gpus = 0;
  std::string wire;
  std::string algo = "auto";
  RunSetupOptions setup;
  FabricOptions fabric;
};

/// The flag to blame when the wire cannot run the request inside one node.
void check_one_node(const Link& link, const CollectiveReportRequest& request) {
  require_algorithm(link, request.op, request.algorithm);
  if (const Check check = check_domain_size(link, request.gpus); !check) {
    throw UsageError(fmt::format("--gpus {}: {}", request.gpus, check.reason()));
  }
  if (request.algorithm == Algorithm::nvls && !check_expected_model(link, request.algorithm)) {
    throw UsageError(fmt::format("--algo nvls: wire '{}' has no in-network reduction; use "
                                 "--algo ring (NVLS needs NVLink 4 or later with NVSwitch, and "
                                 "catalog parameters for it)",
                                 link.id));
  }
  require_run_setup(link, request.op, request.setup);
}

/// The same for a group that spans nodes.
void check_across(const Fabric& fabric, const CollectiveReportRequest& request) {
  if (const Check check =
          check_fabric_algorithm(fabric, request.op, request.algorithm, request.gpus);
      !check) {
    throw UsageError(fmt::format("--algo {}: {}", to_string(request.algorithm), check.reason()));
  }
  const Implementation impl = request.setup.implementation;
  if (impl != Implementation::nccl && impl != Implementation::vllm &&
      impl != Implementation::sglang) {
    throw UsageError(fmt::format("--impl {}: the engines' own kernels run inside one node, and "
                                 "{} GPUs span nodes of {}; use --impl nccl",
                                 to_string(impl), request.gpus, fabric.gpus_per_node));
  }
  if (fabric.gpus_per_node >= min_collective_gpus) {
    if (const Check check = check_domain_size(*fabric.scale_up, fabric.gpus_per_node); !check) {
      throw UsageError(fmt::format("--gpus-per-node {}: {}", fabric.gpus_per_node, check.reason()));
    }
  }
}

int run_collective(const CollectiveOptions& options) {
  CollectiveReportRequest request{parse_collective(options.op, ""),
                                  parse_algorithm(options.algo),
                                  options.gpus,
                                  parse_sizes(options.size),
                                  {}};
  const Catalog catalog = load_catalog(options.common);
  request.setup = parse_run_setup(catalog, options.setup);
  const Fabric fabric = parse_fabric(catalog, options.fabric, options.wire, options.gpus);
  if (options.gpus > fabric.gpus_per_node) {
    check_across(fabric, request);
  } else {
    check_one_node(*fabric.scale_up, request);
  }
  const CollectiveReport report = collective_report(fabric, request);
  const Style style = style_of(options.common);
  emit(style, Json(report), "rows", style.explain ? derive_collective(report) : Derivations{},
       [&] { print_collective(style, report); });
  return 0;
}

} // namespace

Command setup_collective(CLI::App& app) {
  auto options = std::make_shared<CollectiveOptions>();
  CLI::App* sub = app.add_subcommand(
      "collective", "Time, algbw and busbw of a collective on one wire, headline and expected");
  sub->add_option("op", options->op,
                  "all-reduce, all-gather, reduce-scatter, all-to-all or point-to-point")
      ->required();
  sub->add_option("-s,--size", options->size,
                  "Message size S (the buffer, as nccl-tests counts it): 1GiB, 512MB, 4096 …; "
                  "FROM:TO sweeps doubling sizes")
      ->type_name("SIZE")
      ->required();
  sub->add_option("-g,--gpus", options->gpus, "GPUs taking part")
      ->type_name("N")
      ->required()
      ->transform(whole_number(min_collective_gpus, limits::max_domain));
  sub->add_option("-w,--wire", options->wire,
                  "Link id or alias (see 'icx links'); across nodes, the link inside a node")
      ->type_name("ID");
  sub->add_option("--algo", options->algo,
                  fmt::format("auto (the fastest, as NCCL's tuner picks), ring, nvls: "
                              "in-network reduction on NVSwitch ({}); across nodes tree or "
                              "nvls-tree (all-reduce)",
                              in_network_collectives_text()))
      ->type_name("ALGO")
      ->default_str("auto");
  add_fabric_options(*sub, options->fabric);
  add_run_setup_options(*sub, options->setup, Implementation::nccl);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --algo ring\n"
              "  icx collective all-reduce --size 512KiB --gpus 8 --wire nvlink4 --impl custom\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire pcie5 --pcie-topology "
              "switch\n"
              "  icx collective all-gather --size 8B:16GiB --gpus 8 --wire nvlink3\n"
              "  icx collective all-reduce --size 64KiB --gpus 2 --wire ib-ndr --json\n"
              "  icx collective all-reduce --size 8GiB --gpus 16 --system dgx-h100\n"
              "  icx collective all-reduce --size 8GiB --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr --nics-per-node 8 --json");
  return {sub, [options] { return run_collective(*options); }};
}

} // namespace icx::cli
