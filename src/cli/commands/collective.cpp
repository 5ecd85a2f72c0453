// icx collective: one collective operation (or a sweep of sizes) on one wire, headline and
// expected time, algbw and busbw, as nccl-tests reports them.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/measured/nccl_log.hpp"
#include "icx/reports/collective.hpp"
#include "icx/util/text_file.hpp"
#include "icx/wire/collectives.hpp"
#include "options/common.hpp"
#include "options/fabric.hpp"
#include "options/files.hpp"
#include "options/run_setup.hpp"
#include "options/size.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "sweeps/collective.hpp"
#include "views/collective.hpp"

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
  SweepOptions sweep;
  std::string measured;
};

/// The flag to blame when the wire cannot run the request inside one node.
void check_one_node(const Link& link, const CollectiveReportRequest& request) {
  if (const Check wire = check_collective_wire(link); !wire) {
    throw UsageError(fmt::format("--wire {}: {}", link.id, wire.reason()));
  }
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

/// The report for `gpus` GPUs at `sizes`, with the wire and flags checked for that group.
CollectiveReport report_for(const Catalog& catalog, const CollectiveOptions& options, int gpus,
                            std::vector<Bytes> sizes) {
  CollectiveReportRequest request{
      parse_collective(options.op, ""), parse_algorithm(options.algo), gpus, std::move(sizes), {}};
  request.setup = parse_run_setup(catalog, options.setup, Implementation::nccl);
  const Fabric fabric = parse_fabric(catalog, options.fabric, options.wire, gpus);
  if (gpus > fabric.gpus_per_node) {
    check_across(fabric, request);
  } else {
    check_one_node(*fabric.scale_up, request);
  }
  return collective_report(fabric, request);
}

/// The sizes of --size, or of --sweep size=…; one of them must say.
std::vector<Bytes> sizes_of(const CollectiveOptions& options, const std::optional<Sweep>& sweep) {
  if (sweep && sweep->param == SweepParam::size) {
    if (!options.size.empty()) {
      throw UsageError(
          fmt::format("--sweep {}: gives the sizes; drop --size {}", sweep->text, options.size));
    }
    std::vector<Bytes> sizes;
    for (const std::int64_t size : sweep->values) {
      sizes.push_back(Bytes::of(static_cast<double>(size)));
    }
    return sizes;
  }
  if (options.size.empty()) {
    throw UsageError("--size: required; give a message size (--size 1GiB) or a range (--size "
                     "8B:16GiB)");
  }
  return parse_sizes(options.size);
}

int gpus_of(const CollectiveOptions& options, const std::optional<Sweep>& sweep) {
  if (sweep && sweep->param == SweepParam::gpus) {
    if (sweep->values.front() < min_collective_gpus) {
      throw UsageError(fmt::format("--sweep {}: a collective needs at least {} GPUs; start the "
                                   "sweep there",
                                   sweep->text, min_collective_gpus));
    }
    if (options.gpus != 0) {
      throw UsageError(fmt::format("--sweep {}: gives the GPU counts; drop --gpus {}", sweep->text,
                                   options.gpus));
    }
    return 0;
  }
  if (options.gpus == 0) {
    throw UsageError("--gpus: required; give the GPUs taking part, e.g. --gpus 8");
  }
  return options.gpus;
}

/// Lays the --measured log over the report.
void attach_log(const CollectiveOptions& options, CollectiveReport& report) {
  try {
    const NcclTestLog log =
        parse_nccl_test_log(read_text_file(options.measured, {"an nccl-tests log file",
                                                              limits::max_nccl_log_file_bytes}),
                            options.measured);
    attach_measured(report, log, options.measured);
  } catch (const InputError& error) {
    throw UsageError(fmt::format("--measured {}", error.what()));
  }
}

int run_collective(const CollectiveOptions& options) {
  const Style style = style_of(options.common);
  const std::optional<Sweep> sweep = sweep_of(options.sweep, collective_sweep_params);
  const int gpus = gpus_of(options, sweep);
  const std::vector<Bytes> sizes = sizes_of(options, sweep);
  const bool gpus_sweep = sweep && sweep->param == SweepParam::gpus;
  check_sweep_flags(options.sweep, style, sizes.size() > 1 || gpus_sweep,
                    "a range of sizes (--size 8B:8GiB) or --sweep gpus=2:8:1");
  if (gpus_sweep) {
    if (sizes.size() > 1) {
      throw UsageError(fmt::format("--sweep {}: sweeps the GPUs at one size; give --size one "
                                   "size, not {}",
                                   sweep->text, options.size));
    }
    if (!options.measured.empty()) {
      throw UsageError(fmt::format("--measured {}: a log is one group size; drop --sweep {}",
                                   options.measured, sweep->text));
    }
  }
  const Catalog catalog = load_catalog(options.common);
  if (gpus_sweep) {
    SweepWriter out(style, options.sweep);
    out.finish(collective_gpus_sweep(
        *sweep, [&](int n) { return report_for(catalog, options, n, sizes); }, out));
    return 0;
  }
  CollectiveReport report = report_for(catalog, options, gpus, sizes);
  if (!options.measured.empty()) {
    attach_log(options, report);
  }
  if (!options.sweep.plot.empty()) {
    write_plot(collective_size_plot(report), options.sweep.plot);
  }
  if (report.sweep && style.format == Format::json) {
    // A sweep's rows are written as they are made, so its document is never held whole.
    print_json_rows(collective_frame(report), report.rows.size(),
                    [&](std::size_t i) { return collective_row_json(report, report.rows[i]); });
    return 0;
  }
  emit(style, Json(report), "rows", style.explain ? derive_collective(report) : Derivations{}, [&] {
    print_collective(style, report);
    if (!options.sweep.plot.empty()) {
      print_out("chart: {}\n", options.sweep.plot);
    }
  });
  return 0;
}

} // namespace

Command setup_collective(CLI::App& app) {
  auto options = std::make_shared<CollectiveOptions>();
  CLI::App* sub = app.add_subcommand(
      "collective", "Time, algbw and busbw of a collective on one wire, headline and expected");
  sub->add_option("op", options->op,
                  "all-reduce, all-gather, reduce-scatter, all-to-all or point-to-point")
      ->check(shown_choices(names<Collective>()))
      ->required();
  sub->add_option("-s,--size", options->size,
                  "Message size S (the buffer, as nccl-tests counts it): 1GiB, 512MB, 4096 …; "
                  "KB, MB, GB are powers of 1000, KiB, MiB, GiB and a bare K, M, G (as "
                  "nccl-tests' -b/-e) powers of 1024, a lowercase b (bits) is refused; "
                  "FROM:TO sweeps doubling sizes, FROM:TO:xFACTOR or FROM:TO:STEP other steps")
      ->type_name("SIZE");
  sub->add_option("-g,--gpus", options->gpus, "GPUs taking part")
      ->type_name("N")
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
      ->check(shown_choices(names<Algorithm>()))
      ->default_str("auto");
  add_fabric_options(*sub, options->fabric);
  add_run_setup_options(*sub, options->setup, "nccl");
  sub->add_option("--measured", options->measured,
                  "An nccl-tests log of this operation and group: its busbw beside each size "
                  "and its points on the --plot chart")
      ->type_name("LOG")
      ->check(input_file("--measured"));
  add_sweep_options(*sub, options->sweep, collective_sweep_params);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --algo ring\n"
              "  icx collective all-reduce --size 512KiB --gpus 8 --wire nvlink4 --impl custom\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire pcie5 --pcie-topology "
              "switch\n"
              "  icx collective all-gather --size 8B:16GiB --gpus 8 --wire nvlink3\n"
              "  icx collective all-reduce --size 8B:8GiB --gpus 8 --wire nvlink4 --measured "
              "run.log --plot busbw.png\n"
              "  icx collective all-reduce --size 1GiB --sweep gpus=2:8:1 --wire nvlink4\n"
              "  icx collective all-reduce --size 64KiB --gpus 2 --wire ib-ndr --json\n"
              "  icx collective all-reduce --size 8GiB --gpus 16 --system dgx-h100\n"
              "  icx collective all-reduce --size 8GiB --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr --nics-per-node 8 --json");
  return {sub, [options] { return run_collective(*options); }};
}

} // namespace icx::cli
