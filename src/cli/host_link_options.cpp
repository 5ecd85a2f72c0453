#include "host_link_options.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/error.hpp"
#include "icx/host_link.hpp"
#include "icx/limits.hpp"
#include "icx/lookup.hpp"
#include "icx/tensor_parallel.hpp"
#include "units_format.hpp"

namespace icx::cli {

void add_weights_options(CLI::App& app, WeightsOptions& options) {
  add_model_options(app, options.model);
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

void check_gpu_count(const ResolvedModel& model, int gpus, const std::string& flag) {
  const ShardShape shape{model.model.layers, model.model.kv_heads};
  if (const auto problem = shard_problem(shape, gpus)) {
    throw UsageError(fmt::format("{}: {}", flag, *problem));
  }
}

namespace {

std::vector<const Link*> host_tier(const Catalog& catalog) {
  std::vector<const Link*> links = fastest_first(catalog.links());
  std::erase_if(links, [](const Link* link) { return link->tier != Tier::host; });
  return links;
}

} // namespace

const Link& host_link(const Catalog& catalog, const std::string& flag, const std::string& id) {
  const Link& link = for_flag(flag, [&]() -> const Link& { return catalog.link(id); });
  if (link.tier != Tier::host) {
    std::vector<std::string> ids;
    for (const Link* host : host_tier(catalog)) {
      ids.push_back(host->id);
    }
    throw InputError(fmt::format("{}: '{}' is a {} link ({}), not a host link; host links: {}",
                                 flag, id, to_string(link.tier), link.name, fmt::join(ids, ", ")));
  }
  return link;
}

std::vector<const Link*> host_links(const Catalog& catalog, const std::string& flag,
                                    const std::vector<std::string>& ids) {
  if (std::ranges::any_of(ids, [](const std::string& id) { return fold_case(id) == "all"; })) {
    return host_tier(catalog);
  }
  std::vector<const Link*> links;
  for (const std::string& id : ids) {
    const Link* link = &host_link(catalog, flag, id);
    if (std::ranges::find(links, link) == links.end()) {
      links.push_back(link);
    }
  }
  return links;
}

std::string describe_weights_model(const ResolvedModel& model) {
  return fmt::format("{}: {} parameters, {} ({} B per element){}", model.model.id,
                     format_params(model.model.total_params), model.dtype.id,
                     model.dtype.bytes_per_element,
                     model.overridden.empty()
                         ? ""
                         : fmt::format(" [overridden: {}]", fmt::join(model.overridden, ", ")));
}

std::string describe_weights(const ResolvedModel& model) {
  return fmt::format("{} parameters × {} B", format_count(model.model.total_params),
                     model.dtype.bytes_per_element);
}

Json weights_model_json(const ResolvedModel& model) {
  Json m = Json::object();
  m["id"] = model.model.id;
  m["total_params"] = json_number(model.model.total_params);
  m["dtype"] = model.dtype.id;
  m["bytes_per_element"] = json_number(model.dtype.bytes_per_element);
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

} // namespace icx::cli
