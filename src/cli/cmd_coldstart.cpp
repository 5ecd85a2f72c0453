// icx coldstart: maps flags to a ColdStartRequest and prints the report
// (icx/coldstart_report.hpp) as a table, JSON, CSV or its derivations.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "host_link_format.hpp"
#include "host_link_options.hpp"
#include "icx/coldstart_report.hpp"
#include "icx/limits.hpp"
#include "icx/units_format.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"

namespace icx::cli {

namespace {

struct ColdstartOptions {
  CommonOptions common;
  WeightsOptions weights;
  int gpus = 1;
  std::optional<int> gpus_per_node;
  std::optional<std::string> host_link;
  /// The former name of --host-link, still accepted.
  std::optional<std::string> wire;
  std::string from;
  std::optional<double> budget;
};

std::string path_line(const ColdStartReport& report) {
  const std::string link = fmt::format("{} [{}]", report.host_link->name, report.host_link->id);
  if (report.storage == nullptr) {
    return fmt::format("host memory → {} → GPU (no --from: the weights start in host memory, "
                       "e.g. the page cache)",
                       link);
  }
  return fmt::format("{} [{}] → host memory → {} → GPU", report.storage->name, report.storage->id,
                     link);
}

void print_stages(const ColdStartReport& report) {
  TextTable table({{"stage", Align::left},
                   {"moves", Align::left},
                   {"headline bandwidth", Align::left},
                   {"floor", Align::right},
                   {"expected bandwidth", Align::left},
                   {"floor", Align::right}});
  for (const LoadStage& stage : report.load.stages) {
    table.add_row({stage_name(stage.id), stage_moves(report, stage), stage_bandwidth(stage),
                   format_seconds(stage.seconds), expected_bandwidth(stage),
                   stage.expected_seconds ? format_seconds(*stage.expected_seconds) : "-"});
  }
  print_out("{}\n", table.render());
}

void print_floor(const ColdStartReport& report) {
  const ColdStart& r = report.load;
  const std::string expected =
      r.expected_floor
          ? fmt::format("{} expected (bottleneck: {})", format_seconds(*r.expected_floor),
                        stage_name(*r.expected_bottleneck))
          : "no expected floor: " + report.expected_unavailable;
  print_out("floor    {} headline (bottleneck: {}); {}\n", format_seconds(r.floor),
            stage_name(r.bottleneck), expected);
  if (report.within_budget) {
    print_out("budget   {}: {}\n", format_seconds(*report.budget),
              *report.within_budget
                  ? "the floor fits (necessary, not sufficient: overheads come on top)"
                  : "over budget: even the floor exceeds it (exit status 3)");
  }
}

void print_table(const ResolvedModel& model, const ColdStartReport& report) {
  const ColdStart& r = report.load;
  print_out("Cold-start load floor: a hard lower bound, excluding filesystem, deserialisation "
            "and HBM-write overhead\n");
  print_out("model    {}\n", describe_weights_model(model));
  print_out("weights  {} = {}; {} per GPU over {} GPU{} in {} node{}\n", format_bytes(r.weights),
            describe_weights(model), format_bytes(r.per_gpu), r.gpus, r.gpus == 1 ? "" : "s",
            r.nodes, r.nodes == 1 ? "" : "s");
  print_out("path     {}\n\n", path_line(report));
  print_stages(report);
  print_floor(report);
  print_out("\nfloor = the slowest stage's bytes / bandwidth: the stages overlap, so the "
            "slowest one bounds the load.\nheadline: catalog figures (a link counted one way); "
            "expected: measured host-to-device copy bandwidth.\n\n");
  std::vector<const Entry*> sources;
  if (!model.custom()) {
    sources.push_back(report.model);
  }
  if (report.storage != nullptr) {
    sources.push_back(report.storage);
  }
  sources.push_back(report.host_link);
  print_out("{}", sources_section(sources));
}

Json document(const ResolvedModel& model, const ColdStartReport& report) {
  Json doc = json_document("icx.coldstart/1");
  doc["bound"] = "hard-lower";
  doc["model"] = weights_model_json(model);
  doc.update(Json(report));
  return doc;
}

ColdStartRequest request_of(const Catalog& catalog, const ColdstartOptions& options,
                            const ResolvedModel& model) {
  ColdStartRequest request;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.gpus = options.gpus;
  request.gpus_per_node = options.gpus_per_node;
  if (options.wire && options.host_link) {
    throw UsageError("--wire: the former name of --host-link; give only --host-link");
  }
  // A script written for the former name gets errors naming the flag it used.
  const auto& id = options.wire ? options.wire : options.host_link;
  request.host_link = host_links(catalog, options.wire ? "--wire" : "--host-link",
                                 id ? std::vector{*id} : std::vector<std::string>{})[0];
  if (!options.from.empty()) {
    request.storage =
        &for_flag("--from", [&]() -> const StorageTier& { return catalog.storage(options.from); });
  }
  if (options.budget) {
    request.budget = Seconds::of(*options.budget);
  }
  return request;
}

int run_coldstart(const ColdstartOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_weights_model(catalog, options.weights);
  const ColdStartRequest request = request_of(catalog, options, model);
  const ColdStartReport report = for_gpus_flag([&] { return coldstart_report(request); });
  const Style style = style_of(options.common);
  emit(style, document(model, report), "stages",
       style.explain ? coldstart_derivations(model, report) : Derivations{},
       [&] { print_table(model, report); });
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
                  "Storage tier the weights are read from (see 'icx storage'); default: none, "
                  "the weights start in host memory")
      ->type_name("ID");
  sub->add_option("--budget", options->budget,
                  "Seconds the load may take; exit status 3 when even the floor exceeds it")
      ->type_name("SECONDS")
      ->transform(decimal_number(limits::budget_seconds));
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx coldstart --model 70b\n"
              "  icx coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4\n"
              "  icx coldstart --model 405b --gpus 16 --gpus-per-node 8 --from nvme-raid0\n"
              "  icx coldstart --model 70b --host-link nvlink-c2c --budget 1 --json\n"
              "  icx coldstart --hf-config path/to/config.json --gpus 8\n\n"
              "Exit status: 0 the floor fits the budget (or no --budget), 3 it does not, 2 bad "
              "input.");
  return {sub, [options] { return run_coldstart(*options); }};
}

} // namespace icx::cli
