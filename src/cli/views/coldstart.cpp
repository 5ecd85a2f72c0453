#include "views/coldstart.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/util/table.hpp"
#include "options/host_link.hpp"
#include "output/terminal.hpp"
#include "views/host_link.hpp"

namespace icx::cli {

namespace {

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

void print_stages(const Style& style, const ColdStartReport& report) {
  TextTable table({{"stage", Align::left},
                   {"moves", Align::left, 5, 16},
                   {"headline bandwidth", Align::left, 4},
                   {"headline floor", Align::right},
                   {"expected bandwidth", Align::left, 3, 12},
                   {"expected floor", Align::right}});
  for (const LoadStage& stage : report.load.stages) {
    table.add_row({stage_name(stage.id), stage_moves(report, stage), stage_bandwidth(stage),
                   format_seconds(stage.seconds), expected_bandwidth(stage),
                   stage.expected_seconds ? format_seconds(*stage.expected_seconds) : "-"});
  }
  print_out("{}\n", fit_table(style, table));
}

/// "31.6 GB/s (4 ranks × 7.9 GB/s)", "41 GB/s (the node's rate)", "7 GB/s (the tier)".
std::string read_rate(const ExpectedLoad& load) {
  const LoaderRates& rates = load.warm ? load.loader->warm : load.loader->cold;
  switch (load.read_limit) {
  case LoadLimit::rank:
    return fmt::format("{} ({} rank{} × {})", format_rate(load.read_rate), load.ranks,
                       load.ranks == 1 ? "" : "s", format_rate(rates.rank));
  case LoadLimit::node:
    return fmt::format("{} (the node's rate)", format_rate(load.read_rate));
  case LoadLimit::storage:
  case LoadLimit::host_copy:
    break;
  }
  return fmt::format("{} (the storage tier)", format_rate(load.read_rate));
}

void print_loads(const Style& style, const ColdStartReport& report) {
  TextTable table({{"loader", Align::left, 0, 14},
                   {"path", Align::left},
                   {"node reads at", Align::left, 5, 12},
                   {"read", Align::right},
                   {"host → GPU", Align::right, 4},
                   {"overhead", Align::right, 3},
                   {"expected load", Align::right},
                   {"limit", Align::left}});
  for (const ExpectedLoad& load : report.loads) {
    const bool named = report.load_time && report.load_time->loader == load.loader;
    table.add_row({named ? load.loader->id + " (--loader)" : load.loader->id,
                   std::string(load.warm ? "warm" : "cold"), read_rate(load),
                   format_seconds(load.read), format_seconds(load.copy),
                   format_seconds(load.loader->overhead), format_seconds(load.total),
                   std::string(to_string(load.limit))});
  }
  print_out("Expected load with each loader (rates fitted on published loads: icx validate "
            "--loads):\n{}\n",
            fit_table(style, table));
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
  if (report.load_time) {
    print_out("load     {} expected with {} (limit: {})\n", format_seconds(report.load_time->total),
              report.load_time->loader->id, to_string(report.load_time->limit));
  }
  if (!report.within_budget) {
    return;
  }
  if (report.budget_basis == BudgetBasis::expected_load) {
    print_out("budget   {}: {}\n", format_seconds(*report.budget),
              *report.within_budget
                  ? fmt::format("the expected load with {} fits", report.load_time->loader->id)
                  : fmt::format("over budget: the expected load with {} exceeds it (exit "
                                "status 3)",
                                report.load_time->loader->id));
    return;
  }
  print_out("budget   {}: {}\n", format_seconds(*report.budget),
            *report.within_budget
                ? "the floor fits (necessary, not sufficient: give --loader to gate on an "
                  "expected load)"
                : "over budget: even the floor exceeds it (exit status 3)");
}

} // namespace

void print_coldstart(const Style& style, const ResolvedModel& model,
                     const ColdStartReport& report) {
  const ColdStart& r = report.load;
  print_out("Cold-start load floor: a hard lower bound, excluding filesystem, deserialisation "
            "and HBM-write overhead\n");
  print_out("model    {}\n", describe_weights_model(model));
  print_out("weights  {} = {}; {} per GPU over {} GPU{} in {} node{}\n", format_bytes(r.weights),
            describe_weights(model), format_bytes(r.per_gpu), r.gpus, r.gpus == 1 ? "" : "s",
            r.nodes, r.nodes == 1 ? "" : "s");
  print_out("path     {}\n\n", path_line(report));
  print_stages(style, report);
  if (!report.loads.empty()) {
    print_loads(style, report);
  }
  print_floor(report);
  print_out("\nfloor = the slowest stage's bytes / bandwidth: the stages overlap, so the "
            "slowest one bounds the load.\nheadline: catalog figures (a link counted one way); "
            "expected: measured host-to-device copy bandwidth.\n");
  if (!report.loads.empty()) {
    print_out("expected load = overhead + max(the node's shards / its read rate, one shard / "
              "host → GPU); warm: from host memory, cold: from storage.\n");
  }
  print_out("\n");
  std::vector<const Entry*> sources;
  if (!model.custom()) {
    sources.push_back(report.model);
  }
  if (report.storage != nullptr) {
    sources.push_back(report.storage);
  }
  sources.push_back(report.host_link);
  if (report.load_time) {
    sources.push_back(report.load_time->loader);
  }
  print_out("{}", sources_section(sources));
}

Json coldstart_document(const ResolvedModel& model, const ColdStartReport& report) {
  Json doc = json_document("icx.coldstart/1");
  doc["bound"] = "hard-lower";
  doc["model"] = weights_model_json(model);
  doc.update(Json(report));
  return doc;
}

} // namespace icx::cli
