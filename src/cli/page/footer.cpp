// The footer of 'icx report': what made the page (icx's version and build, the command line,
// when, the config file in force) and every catalog entry its figures come from, with the
// entry's source, so a reviewer can check the inputs and make the page again.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/serving/engine.hpp"
#include "options/config.hpp"
#include "output/invocation.hpp"
#include "page/sections.hpp"

namespace icx::cli {

namespace {

/// One row of the sources table; an entry already listed under the same kind is skipped.
void add_source(PageTable& table, const std::string& kind, const Entry* entry) {
  if (entry == nullptr) {
    return;
  }
  for (const auto& row : table.rows) {
    if (row[0] == kind && row[1] == entry->id) {
      return;
    }
  }
  table.rows.push_back({kind, entry->id, entry->source.empty() ? "-" : entry->source});
}

/// The host side of the system and what the cold-start section loads through.
void add_host_sources(PageTable& table, const Catalog& catalog, const System& system) {
  if (!system.host) {
    return;
  }
  const HostSide& host = *system.host;
  table.rows.push_back({"host side", system.id, host.source.empty() ? "-" : host.source});
  add_source(table, "host link", &catalog.link(host.link));
  if (host.nvme_drives >= 1) {
    add_source(table, "storage", &catalog.storage(host.nvme_tier));
  }
  for (const Loader& loader : catalog.loaders()) {
    add_source(table, "loader", &loader);
  }
}

} // namespace

PageFooter provenance_footer(const ReportInputs& in) {
  const PlaceReport& r = in.report;
  const Cluster& c = r.cluster;
  const Workload& w = r.workload;
  PageFooter footer;
  footer.lines.push_back(fmt::format("Made by {} on {}.", version_text(), run_time_text()));
  footer.command = invocation_text();
  if (const auto& config = config_in_force()) {
    footer.lines.push_back(
        fmt::format("Defaults from the config file {} (see 'icx config').", config->path));
  }
  PageTable& sources = footer.sources;
  sources = {"Catalog entries the figures come from", {"entry", "id", "source"}, {}};
  add_source(sources, "model", w.model);
  add_source(sources, "weights dtype", w.dtype);
  add_source(sources, "GPU", c.gpu);
  add_source(sources, "system", r.system);
  add_source(sources, "scale-up wire", c.scale_up);
  add_source(sources, "scale-out wire", c.scale_out);
  add_source(sources, "engine", &engine_of(in.catalog, w.engine));
  if (r.system != nullptr) {
    add_host_sources(sources, in.catalog, *r.system);
  }
  return footer;
}

} // namespace icx::cli
