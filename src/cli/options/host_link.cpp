#include "options/host_link.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/words/step.hpp"

namespace icx::cli {

void add_weights_options(CLI::App& app, WeightsOptions& options) {
  const std::size_t first = app.get_options().size();
  add_model_options(app, options.model);
  group_options_from(app, first, "Weights");
}

ResolvedModel resolve_weights_model(const Catalog& catalog, const WeightsOptions& options) {
  ResolvedModel resolved = resolve_model(catalog, options.model);
  if (resolved.custom() && !options.model.params) {
    throw UsageError("--params: missing: a custom model (--hidden, --layers) has no parameter "
                     "count; give --params N (e.g. --params 70.55e9) or a catalog model with "
                     "--model");
  }
  return resolved;
}

namespace {

std::string host_link_help(bool several) {
  const std::string each = "Host link of each GPU, by id or alias (see 'icx links': tier host)";
  return several ? each + "; several space- or comma-separated, or 'all': every host link, "
                          "fastest first"
                 : each;
}

} // namespace

CLI::Option* add_host_link_option(CLI::App& app, std::optional<std::string>& id) {
  return app.add_option("--host-link", id, host_link_help(false))
      ->type_name("ID")
      ->default_str(std::string(default_host_link));
}

CLI::Option* add_host_link_option(CLI::App& app, std::vector<std::string>& ids) {
  return app.add_option("--host-link", ids, host_link_help(true))
      ->type_name("ID")
      ->default_str(std::string(default_host_link))
      ->delimiter(',');
}

std::vector<const Link*> host_links(const Catalog& catalog, const std::string& flag,
                                    const std::vector<std::string>& ids) {
  return links_named(catalog, flag,
                     ids.empty() ? std::vector<std::string>{std::string(default_host_link)} : ids,
                     Tier::host);
}

std::string describe_weights_model(const ResolvedModel& model) {
  const std::string experts =
      model.expert_dtype.id == model.dtype.id
          ? std::string()
          : fmt::format(", experts {} ({} B per element)", model.expert_dtype.id,
                        model.expert_dtype.bytes_per_element);
  return fmt::format("{}: {} parameters, {} ({} B per element){}{}", model.model.id,
                     format_params(model.model.total_params), model.dtype.id,
                     model.dtype.bytes_per_element, experts, overridden_suffix(model));
}

std::string describe_weights(const ResolvedModel& model) {
  return weights_formula(model.model, model.dtype, model.expert_dtype);
}

Json weights_model_json(const ResolvedModel& model) {
  Json m = Json::object();
  m["id"] = model.model.id;
  m["total_params"] = json_number(model.model.total_params);
  m["dtype"] = model.dtype.id;
  m["bytes_per_element"] = json_number(model.dtype.bytes_per_element);
  if (model.expert_dtype.id != model.dtype.id) {
    m["expert_dtype"] = model.expert_dtype.id;
    m["expert_bytes_per_element"] = json_number(model.expert_dtype.bytes_per_element);
  }
  m["overridden"] = model.overridden;
  return m;
}

std::string sources_section(const std::vector<const Entry*>& entries) {
  std::string text = "Sources:\n";
  std::vector<const Entry*> seen;
  for (const Entry* entry : entries) {
    if (std::ranges::find(seen, entry) == seen.end()) {
      seen.push_back(entry);
      text += fmt::format("  {}: {}\n", entry->id, entry->source);
    }
  }
  return text;
}

CLI::Option* add_host_system_option(CLI::App& app, std::string& id) {
  return app
      .add_option("-s,--system", id,
                  "Catalog system (see 'icx systems') whose host side to use: host link, GPUs "
                  "per node and per switch uplink, DRAM, local drives")
      ->type_name("ID");
}

const System* host_system(const Catalog& catalog, const std::string& id) {
  if (id.empty()) {
    return nullptr;
  }
  const System& system =
      for_flag("--system", [&]() -> const System& { return catalog.system(id); });
  if (!system.host) {
    std::vector<std::string> described;
    for (const System& s : catalog.systems()) {
      if (s.host) {
        described.push_back(s.id);
      }
    }
    throw UsageError(fmt::format("--system {}: the catalog does not describe its host side; give "
                                 "--host-link (and --gpus-per-node) instead, or one of: {}",
                                 system.id, fmt::join(described, ", ")));
  }
  return &system;
}

} // namespace icx::cli
