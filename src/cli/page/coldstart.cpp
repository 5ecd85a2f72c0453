// The cold-start section of 'icx report': icx coldstart's floor stages and each loader's
// expected load of one replica's weights, read from the system's local drives (or host memory)
// over its host links.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/host/weight_loading.hpp"
#include "icx/reports/coldstart.hpp"
#include "page/sections.hpp"
#include "views/host_link.hpp"

namespace icx::cli {

namespace {

PageTable stages_table(const ColdStartReport& report) {
  PageTable table{
      "Floor stages",
      {"stage", "moves", "headline bandwidth", "floor", "expected bandwidth", "expected floor"},
      {}};
  for (const LoadStage& stage : report.load.stages) {
    table.rows.push_back({stage_name(stage.id), stage_moves(report, stage), stage_bandwidth(stage),
                          format_seconds(stage.seconds), expected_bandwidth(stage),
                          stage.expected_seconds ? format_seconds(*stage.expected_seconds) : "-"});
  }
  return table;
}

PageTable loads_table(const ColdStartReport& report) {
  PageTable table{"Expected load with each loader",
                  {"loader", "path", "node reads at", "read", "host → GPU", "overhead",
                   "expected load", "limit"},
                  {}};
  for (const ExpectedLoad& load : report.loads) {
    table.rows.push_back({load.loader->id, std::string(load.warm ? "warm" : "cold"),
                          format_rate(load.read_rate), format_seconds(load.read),
                          format_seconds(load.copy), format_seconds(load.loader->overhead),
                          format_seconds(load.total), std::string(to_string(load.limit))});
  }
  return table;
}

} // namespace

PageSection coldstart_section(const ReportInputs& in) {
  PageSection section{"coldstart", "Cold start", {}, {}, {}, {}};
  const System* system = in.report.system;
  if (system == nullptr || !system->host) {
    section.paragraphs.emplace_back(
        "No host side to load from: give --system with one (see 'icx systems'), or run icx "
        "coldstart with --host-link.");
    return section;
  }
  const HostSide& host = *system->host;
  const Layout& layout = in.report.placement().layout;
  ColdStartRequest request;
  request.model = &in.model.model;
  request.dtype = &in.model.dtype;
  request.expert_dtype = &in.model.expert_dtype;
  request.gpus = layout.tp * layout.pp * layout.ep;
  request.gpus_per_node = in.report.cluster.gpus_per_node;
  request.gpus_per_uplink = host.gpus_per_uplink;
  request.host_link = &in.catalog.link(host.link);
  std::optional<StorageTier> drives;
  if (host.nvme_drives >= 1) {
    drives = node_nvme(host, in.catalog.storage(host.nvme_tier));
    request.storage = &*drives;
  }
  request.loaders = in.catalog.loaders();
  ColdStartReport report;
  try {
    report = coldstart_report(request);
  } catch (const InputError& error) {
    section.paragraphs.push_back(fmt::format("No cold-start floor: {}", error.what()));
    return section;
  }
  const ColdStart& load = report.load;
  section.paragraphs.push_back(fmt::format(
      "One replica of {}: {} of weights, {} per GPU over {} GPU{} in {} node{}, read from {} "
      "over {} ({}).",
      layout_name(layout), format_bytes(load.weights), format_bytes(load.per_gpu), load.gpus,
      load.gpus == 1 ? "" : "s", load.nodes, load.nodes == 1 ? "" : "s",
      report.storage != nullptr ? report.storage->name : std::string("host memory"),
      report.host_link->id, report.host_link->name));
  section.paragraphs.push_back(
      fmt::format("Floor: {} headline (bottleneck: {}){}.", format_seconds(load.floor),
                  stage_name(load.bottleneck),
                  load.expected_floor ? fmt::format("; {} expected (bottleneck: {})",
                                                    format_seconds(*load.expected_floor),
                                                    stage_name(*load.expected_bottleneck))
                                      : "; no expected floor: " + report.expected_unavailable));
  section.tables.push_back(stages_table(report));
  if (!report.loads.empty()) {
    section.tables.push_back(loads_table(report));
  }
  section.notes.emplace_back(
      "floor = the slowest stage's bytes / bandwidth: the stages overlap, so "
      "the slowest one bounds the load; a hard lower bound, excluding "
      "filesystem, deserialisation and HBM-write overhead.");
  section.notes.emplace_back(
      "expected load = overhead + max(the node's shards / its read rate, one "
      "shard / host → GPU); warm: from host memory, cold: from storage.");
  return section;
}

} // namespace icx::cli
