// icx plan: from latency targets and a load to the cheapest system, node count and layout.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/reports/plan.hpp"
#include "options/common.hpp"
#include "options/load.hpp"
#include "options/numbers.hpp"
#include "options/serving.hpp"
#include "output/output.hpp"
#include "views/plan.hpp"

namespace icx::cli {

namespace {

struct PlanOptions {
  CommonOptions common;
  ModelOptions model;
  ServingOptions engine;
  std::optional<double> mfu;
  LoadOptions load;
  SimulationOptions simulation;
  std::optional<std::string> ttft;
  std::optional<std::string> tpot;
  std::vector<std::string> systems;
  std::vector<std::string> prices;
  int max_nodes = default_max_nodes;
  bool disaggregate = false;
};

std::vector<const System*> systems_named(const Catalog& catalog,
                                         const std::vector<std::string>& ids) {
  std::vector<const System*> systems;
  if (ids.empty()) {
    for (const System& system : catalog.systems()) {
      systems.push_back(&system);
    }
    return systems;
  }
  for (const std::string& id : ids) {
    const System* system =
        &for_flag("--system", [&]() -> const System& { return catalog.system(id); });
    if (std::ranges::find(systems, system) == systems.end()) {
      systems.push_back(system);
    }
  }
  return systems;
}

/// --price ID=USD entries: each id a catalog system, each price a positive number.
std::map<std::string, double, std::less<>> parse_prices(const Catalog& catalog,
                                                        const std::vector<std::string>& entries) {
  std::map<std::string, double, std::less<>> prices;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) {
      throw UsageError(fmt::format("--price {}: expected ID=USD per node-hour, e.g. "
                                   "--price dgx-h100=24",
                                   entry));
    }
    const System& system = for_flag(
        "--price", [&]() -> const System& { return catalog.system(entry.substr(0, equals)); });
    std::string usd = entry.substr(equals + 1);
    if (const std::string check = decimal_number(limits::usd_per_hour)(usd); !check.empty()) {
      throw UsageError(fmt::format("--price {}: {}", entry, check));
    }
    prices[system.id] = std::stod(usd);
  }
  return prices;
}

/// The targets of --ttft and --tpot; a percentile needs the simulation.
PlanTargets plan_targets(const PlanOptions& o) {
  const LatencyTarget ttft = latency_target_of(*o.ttft);
  const LatencyTarget tpot = latency_target_of(*o.tpot);
  for (const auto& [flag, target] : {std::pair{"--ttft", ttft}, std::pair{"--tpot", tpot}}) {
    if (o.simulation.fast && target.statistic != Statistic::mean) {
      throw UsageError(fmt::format("{} {}:{:g}s: with --fast the closed form gives means only; "
                                   "drop --fast, or give a mean target ({} {:g}s)",
                                   flag, to_string(target.statistic), target.seconds, flag,
                                   target.seconds));
    }
  }
  return {Seconds::of(ttft.seconds), Seconds::of(tpot.seconds), ttft.statistic, tpot.statistic};
}

PlanRequest plan_request(const Catalog& catalog, const PlanOptions& o, const ResolvedModel& model) {
  PlanRequest r;
  r.model = &model.model;
  r.dtype = &model.dtype;
  r.serving = serving_request(catalog, o.engine, o.mfu);
  // A closed loop sends what its clients do: no rate.
  r.load = load_of(o.load).value_or(load_lengths_of(o.load));
  r.traffic = traffic_of(o.load, o.simulation);
  r.simulate = !o.simulation.fast;
  r.serving.prefill_chunk = o.load.prefill_chunk;
  r.targets = plan_targets(o);
  r.systems = systems_named(catalog, o.systems);
  r.prices = parse_prices(catalog, o.prices);
  r.max_nodes = o.max_nodes;
  r.disaggregate = o.disaggregate;
  r.emit = emits_launch(o.engine, model);
  return r;
}

/// A plan needs one load, and disaggregated pools an open loop with mean targets.
void check_plan_load(const CLI::App& app, const PlanOptions& o) {
  check_simulation_flags(app, o.load, o.simulation, true);
  if (!o.load.rate && !o.simulation.concurrency) {
    throw UsageError("plan needs a load: give --rate N (requests per second) or --concurrency "
                     "N (clients), e.g. --rate 5");
  }
  if (o.disaggregate && o.engine.emit) {
    throw UsageError("--emit with --disaggregate: icx writes no launch command for separate "
                     "prefill and decode pools; drop one of them");
  }
  if (o.disaggregate && o.simulation.concurrency) {
    throw UsageError("--disaggregate with --concurrency: the pools are priced at a rate; give "
                     "--rate N, or drop --disaggregate");
  }
}

int run_plan(const CLI::App& app, const PlanOptions& o) {
  check_plan_load(app, o);
  const Style style = style_of(o.common);
  const Catalog catalog = load_catalog(o.common);
  const ResolvedModel model = resolve_model(catalog, o.model);
  const PlanReport report = plan(catalog, plan_request(catalog, o, model));
  emit(style, report, "candidates", style.explain ? report.derivations : Derivations{},
       [&] { print_plan(style, report, o.engine.emit.has_value()); });
  return report.winner ? exit_ok : exit_targets_unmet;
}

} // namespace

Command setup_plan(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  PlanOptions* o = options.get();
  CLI::App* sub = app.add_subcommand(
      "plan", "Find the cheapest system, node count and layout that serve a load within TTFT "
              "and TPOT targets, and why the others miss (exit status 3 when none meets them)");
  add_model_options(*sub, o->model);
  add_load_options(*sub, o->load, true);
  add_simulation_options(*sub, o->simulation);
  sub->add_option("--ttft", o->ttft,
                  "Time to first token to meet, with a unit (2s, 500ms), of the requests' mean "
                  "or a percentile of them: p99:2s (mean, p50, p90, p99)")
      ->type_name("[STAT:]DURATION")
      ->required()
      ->transform(latency_target(limits::target_seconds));
  sub->add_option("--tpot", o->tpot,
                  "Time per output token to meet, with a unit (50ms), of the requests' mean or "
                  "a percentile of them: p90:50ms")
      ->type_name("[STAT:]DURATION")
      ->required()
      ->transform(latency_target(limits::target_seconds));
  sub->add_option("--system", o->systems,
                  "Systems to plan on, comma-separated (see 'icx systems'); default: all")
      ->type_name("IDS")
      ->delimiter(',');
  sub->add_option("--price", o->prices,
                  "A node's price per hour in USD, replacing the catalog's (or giving one it "
                  "lacks): ID=USD, repeatable, e.g. --price dgx-h100=24")
      ->type_name("ID=USD");
  sub->add_option("--max-nodes", o->max_nodes, "Most nodes of one system to try")
      ->type_name("N")
      ->default_str(std::to_string(default_max_nodes))
      ->transform(whole_number(1, limits::max_plan_nodes));
  sub->add_flag(
      "--disaggregate", o->disaggregate,
      "Also plan separate prefill and decode pools, parts of one node or whole nodes (the "
      "KV cache sent between them over NVLink inside a node, else the scale-out link), "
      "taken where they need fewer nodes than sharing the GPUs");
  add_mfu_option(*sub, o->mfu);
  add_engine_options(*sub, o->engine);
  add_emit_option(*sub, o->engine);
  add_explain_option(*sub, o->common);
  add_common_options(*sub, o->common);
  sub->footer("Exit status: 0 with a winner; 3 when no candidate meets the targets (the table "
              "says which target each misses first and by how much); 2 for bad input.\n\n"
              "Examples:\n"
              "  icx plan --model 70b --input 2048 --output 256 --ttft 2s --tpot 50ms --rate 5\n"
              "  icx plan --model 70b --ttft p99:2s --tpot p90:50ms --rate 5\n"
              "  icx plan --model 70b --ttft p99:1s --tpot 30ms --concurrency 64 --input 1000 "
              "--output 1000 --spread 0.2\n"
              "  icx plan --model 8b --ttft 500ms --tpot 20ms --rate 20 --json\n"
              "  icx plan --model 70b --ttft 2s --tpot 50ms --rate 5 --system aws-p5,dgx-h100 "
              "--price dgx-h100=24\n"
              "  icx plan --model deepseek-v3 --ttft 3s --tpot 80ms --rate 2 --price "
              "gb200-nvl72=760 --explain\n"
              "  icx plan --model 70b --input 8192 --output 512 --ttft 3s --tpot 30ms --rate 4 "
              "--disaggregate\n"
              "  icx plan --model 70b --ttft p99:2s --tpot p90:50ms --rate 5 --system aws-p5 "
              "--emit sglang");
  return {sub, [sub, options] { return run_plan(*sub, *options); }};
}

} // namespace icx::cli
