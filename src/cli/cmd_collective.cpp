// icx collective: one collective operation (or a sweep of sizes) on one wire, headline and
// expected time, algbw and busbw, as nccl-tests reports them.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "collective_view.hpp"
#include "commands.hpp"
#include "common.hpp"
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
};

/// The flag to blame when the wire cannot run the request.
void check_request(const Link& link, const CollectiveReportRequest& request) {
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

int run_collective(const CollectiveOptions& options) {
  CollectiveReportRequest request{parse_collective(options.op, ""),
                                  parse_algorithm(options.algo),
                                  options.gpus,
                                  parse_sizes(options.size),
                                  {}};
  const Catalog catalog = load_catalog(options.common);
  request.setup = parse_run_setup(catalog, options.setup);
  const Link& link =
      for_flag("--wire", [&]() -> const Link& { return catalog.link(options.wire); });
  check_request(link, request);
  const CollectiveReport report = collective_report(link, request);
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
  sub->add_option("-w,--wire", options->wire, "Link id or alias (see 'icx links')")
      ->type_name("ID")
      ->required();
  sub->add_option("--algo", options->algo,
                  fmt::format("auto (the fastest, as NCCL's tuner picks), ring, or nvls: "
                              "in-network reduction on NVSwitch ({})",
                              in_network_collectives_text()))
      ->type_name("ALGO")
      ->default_str("auto");
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
              "  icx collective all-reduce --size 64KiB --gpus 2 --wire ib-ndr --json");
  return {sub, [options] { return run_collective(*options); }};
}

} // namespace icx::cli
