// icx coldstart: the hard lower bound on loading a model's weights into its GPUs, stage by
// stage (storage -> host memory -> each GPU's host link), with an exit status to gate on.
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "host_link_options.hpp"
#include "icx/host_link.hpp"
#include "icx/limits.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"

namespace icx::cli {

namespace {

struct ColdstartOptions {
  CommonOptions common;
  WeightsOptions weights;
  int gpus = 1;
  std::optional<int> gpus_per_node;
  std::string wire = "pcie5";
  std::string from;
  std::optional<double> budget;
};

/// What the command works out before printing anything.
struct ColdstartRun {
  ResolvedModel model;
  const Link* link = nullptr;
  const StorageTier* storage = nullptr;
  ColdStart result;
  std::optional<double> budget;
  [[nodiscard]] std::optional<bool> within_budget() const {
    if (!budget) {
      return std::nullopt;
    }
    return result.floor.value() <= *budget;
  }
};

std::string stage_name(LoadStageId id) {
  return id == LoadStageId::storage_to_host ? "storage → host" : "host → GPU";
}

std::string stage_moves(const ColdstartRun& run, const LoadStage& stage) {
  if (stage.id == LoadStageId::host_to_gpu) {
    return fmt::format("{} per GPU (its shard)", format_bytes(stage.bytes));
  }
  if (run.storage->scope == StorageScope::shared) {
    return fmt::format("{} (every node's shards)", format_bytes(stage.bytes));
  }
  return fmt::format("{} (the node's {} shard{})", format_bytes(stage.bytes),
                     run.result.gpus_on_fullest_node,
                     run.result.gpus_on_fullest_node == 1 ? "" : "s");
}

std::string stage_bandwidth(const ColdstartRun& run, const LoadStage& stage) {
  if (stage.id == LoadStageId::host_to_gpu) {
    return fmt::format("{} one way", format_range(stage.bandwidth));
  }
  return fmt::format("{} {}", format_range(stage.bandwidth),
                     run.storage->scope == StorageScope::shared ? "shared" : "per node");
}

std::string expected_bandwidth(const LoadStage& stage) {
  if (!stage.expected_bandwidth) {
    return "not measured";
  }
  return fmt::format("{} ({})", format_rate(*stage.expected_bandwidth),
                     stage.id == LoadStageId::host_to_gpu ? "measured" : "catalog");
}

std::string path_line(const ColdstartRun& run) {
  const std::string link = fmt::format("{} [{}]", run.link->name, run.link->id);
  if (run.storage == nullptr) {
    return fmt::format("host memory → {} → GPU (no --from: the weights start in host memory, "
                       "e.g. the page cache)",
                       link);
  }
  return fmt::format("{} [{}] → host memory → {} → GPU", run.storage->name, run.storage->id, link);
}

void print_table(const ColdstartRun& run) {
  const ColdStart& r = run.result;
  print_out("Cold-start load floor: a hard lower bound, excluding filesystem, deserialisation "
            "and HBM-write overhead\n");
  print_out("model    {}\n", describe_weights_model(run.model));
  print_out("weights  {} = {}; {} per GPU over {} GPU{} in {} node{}\n", format_bytes(r.weights),
            describe_weights(run.model), format_bytes(r.per_gpu), r.gpus, r.gpus == 1 ? "" : "s",
            r.nodes, r.nodes == 1 ? "" : "s");
  print_out("path     {}\n\n", path_line(run));

  TextTable table({{"stage", Align::left},
                   {"moves", Align::left},
                   {"headline bandwidth", Align::left},
                   {"floor", Align::right},
                   {"expected bandwidth", Align::left},
                   {"floor", Align::right}});
  for (const LoadStage& stage : r.stages) {
    table.add_row({stage_name(stage.id), stage_moves(run, stage), stage_bandwidth(run, stage),
                   format_seconds(stage.seconds), expected_bandwidth(stage),
                   stage.expected_seconds ? format_seconds(*stage.expected_seconds) : "-"});
  }
  print_out("{}\n", table.render());

  const std::string expected =
      r.expected_floor
          ? fmt::format("{} expected (bottleneck: {})", format_seconds(*r.expected_floor),
                        stage_name(*r.expected_bottleneck))
          : fmt::format("no expected floor: the catalog has no measured host-to-device figure "
                        "for {}",
                        run.link->id);
  print_out("floor    {} headline (bottleneck: {}); {}\n", format_seconds(r.floor),
            stage_name(r.bottleneck), expected);
  if (const auto within = run.within_budget()) {
    print_out("budget   {}: {}\n", format_seconds(Seconds::of(*run.budget)),
              *within ? "the floor fits (necessary, not sufficient: overheads come on top)"
                      : "over budget: even the floor exceeds it (exit status 3)");
  }
  print_out("\nfloor = the slowest stage's bytes / bandwidth: the stages overlap, so the "
            "slowest one bounds the load.\nheadline: catalog figures (a link counted one way); "
            "expected: measured host-to-device copy bandwidth.\n\n");
  std::vector<const Entry*> sources;
  if (!run.model.custom()) {
    sources.push_back(&run.model.model);
  }
  if (run.storage != nullptr) {
    sources.push_back(run.storage);
  }
  sources.push_back(run.link);
  print_out("{}", sources_section(sources));
}

Json optional_number(const std::optional<Seconds>& value) {
  return value ? json_number(value->value()) : Json(nullptr);
}

Derivations derive(const ColdstartRun& run) {
  const ColdStart& r = run.result;
  Derivations d;
  d.push_back({"weights", describe_weights(run.model), r.weights.value(),
               format_count(r.weights.value()) + " B"});
  d.push_back({"per GPU", fmt::format("{} B / {} GPUs", format_count(r.weights.value()), r.gpus),
               r.per_gpu.value(), format_count(r.per_gpu.value()) + " B"});
  for (const LoadStage& stage : r.stages) {
    d.push_back({fmt::format("{} floor", to_string(stage.id)),
                 fmt::format("{} B / {}", format_count(stage.bytes.value()),
                             format_rate(stage.bandwidth.high)),
                 stage.seconds.value(), format_seconds(stage.seconds)});
    if (stage.expected_seconds) {
      d.push_back({fmt::format("{} expected", to_string(stage.id)),
                   fmt::format("{} B / {}", format_count(stage.bytes.value()),
                               format_rate(*stage.expected_bandwidth)),
                   stage.expected_seconds->value(), format_seconds(*stage.expected_seconds)});
    }
  }
  d.push_back({"floor", fmt::format("the slowest stage, {}", to_string(r.bottleneck)),
               r.floor.value(), format_seconds(r.floor)});
  return d;
}

Json to_json(const ColdstartRun& run) {
  const ColdStart& r = run.result;
  Json doc = json_document("icx.coldstart/1");
  doc["bound"] = "hard-lower";
  doc["model"] = weights_model_json(run.model);
  doc["gpus"] = r.gpus;
  doc["gpus_on_fullest_node"] = r.gpus_on_fullest_node;
  doc["nodes"] = r.nodes;
  doc["host_link"] = run.link->id;
  doc["storage"] = run.storage != nullptr ? Json(run.storage->id) : Json(nullptr);
  doc["weights_bytes"] = json_number(r.weights.value());
  doc["per_gpu_bytes"] = json_number(r.per_gpu.value());
  doc["floor_seconds"] = json_number(r.floor.value());
  doc["expected_floor_seconds"] = optional_number(r.expected_floor);
  doc["bottleneck"] = to_string(r.bottleneck);
  doc["expected_bottleneck"] =
      r.expected_bottleneck ? Json(to_string(*r.expected_bottleneck)) : Json(nullptr);
  Json stages = Json::array();
  for (const LoadStage& stage : r.stages) {
    Json s;
    s["id"] = to_string(stage.id);
    s["bandwidth_bytes_per_s"] = json_number(stage.bandwidth.high.value());
    if (stage.bandwidth.is_range()) {
      s["bandwidth_range_bytes_per_s"] = json_range(stage.bandwidth);
    }
    s["bytes"] = json_number(stage.bytes.value());
    s["seconds"] = json_number(stage.seconds.value());
    s["expected_bandwidth_bytes_per_s"] =
        stage.expected_bandwidth ? json_number(stage.expected_bandwidth->value()) : Json(nullptr);
    s["expected_seconds"] = optional_number(stage.expected_seconds);
    stages.push_back(std::move(s));
  }
  doc["stages"] = std::move(stages);
  if (const auto within = run.within_budget()) {
    doc["budget_seconds"] = json_number(*run.budget);
    doc["within_budget"] = *within;
  }
  return doc;
}

int run_coldstart(const ColdstartOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  ColdstartRun run;
  run.model = resolve_weights_model(catalog, options.weights);
  check_gpu_count(run.model, options.gpus, "--gpus");
  run.link = &host_link(catalog, "--wire", options.wire);
  if (!options.from.empty()) {
    run.storage =
        &for_flag("--from", [&]() -> const StorageTier& { return catalog.storage(options.from); });
  }
  run.budget = options.budget;
  run.result = cold_start(
      {weight_bytes(run.model.model.total_params, run.model.dtype.bytes_per_element), options.gpus,
       options.gpus_per_node.value_or(options.gpus), run.link, run.storage});
  const Style style = style_of(options.common);
  emit(style, to_json(run), "stages", style.explain ? derive(run) : Derivations{},
       [&] { print_table(run); });
  const auto within = run.within_budget();
  return within && !*within ? exit_over_budget : exit_ok;
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
  sub->add_option("-w,--wire", options->wire, "Host link of each GPU (see 'icx links': tier host)")
      ->type_name("ID")
      ->default_str("pcie5");
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
              "  icx coldstart --model 70b --wire nvlink-c2c --budget 1 --json\n"
              "  icx coldstart --hf-config path/to/config.json --gpus 8\n\n"
              "Exit status: 0 the floor fits the budget (or no --budget), 3 it does not, 2 bad "
              "input.");
  return {sub, [options] { return run_coldstart(*options); }};
}

} // namespace icx::cli
