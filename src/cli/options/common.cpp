#include "options/common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/catalog/hf_config.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/spelling.hpp"
#include "icx/wire/tensor_parallel.hpp"
#include "options/config.hpp"
#include "options/files.hpp"

namespace icx::cli {

void group_options_from(CLI::App& app, std::size_t first, const std::string& group) {
  const std::vector<CLI::Option*> options = app.get_options();
  for (std::size_t i = first; i < options.size(); ++i) {
    if (options[i]->get_group() == "Options") { // CLI11's name for no group
      options[i]->group(group);
    }
  }
}

void add_common_options(CLI::App& app, CommonOptions& options) {
  const std::size_t first = app.get_options().size();
  CLI::Option* json = app.add_flag(
      "--json", options.json,
      "Print one JSON document (base SI units) instead of tables; short for --format json, "
      "so not with --format");
  app.add_option("--format", options.format,
                 "table (default), json (one document, base SI units) or csv (the main table's "
                 "rows, base SI units)")
      ->type_name("FORMAT")
      ->transform(enum_choice<Format>("format"))
      ->excludes(json);
  app.add_option("--color", options.color,
                 "Colour verdicts: auto (when stdout is a terminal, TERM is not 'dumb' and "
                 "NO_COLOR is unset), always or never")
      ->type_name("WHEN")
      ->transform(enum_choice<ColorWhen>("colour choice"));
  app.add_flag("--ascii", options.ascii,
               "Print ASCII only (x, us, - and # bars instead of Unicode); also when the locale is "
               "not UTF-8");
  app.add_flag("--wide", options.wide,
               "Show every column of every table, however wide the terminal (tables otherwise "
               "leave out or shorten columns to fit it; pipes get them whole)");
  app.add_option("--catalog", options.catalogs,
                 "Overlay a catalog JSON file on the shipped one (repeatable; same id "
                 "replaces, new id adds)")
      ->type_name("FILE")
      ->check(input_file("--catalog"))
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group("Catalog and defaults");
  add_config_option(app, options.config);
  app.get_option("--config")->group("Catalog and defaults");
  group_options_from(app, first, "Output");
}

CLI::Validator shown_choices(const std::vector<std::string>& choices) {
  return CLI::Validator([](const std::string& /*text*/) { return std::string(); },
                        fmt::format("{{{}}}", fmt::join(choices, ",")));
}

void add_explain_option(CLI::App& app, CommonOptions& options) {
  const std::size_t first = app.get_options().size();
  app.add_flag("--explain", options.explain,
               "Show every computed figure with its formula and the values substituted");
  group_options_from(app, first, "Output");
}

Catalog load_catalog(const CommonOptions& options) {
  Catalog catalog = Catalog::shipped();
  for (const std::string& file : options.catalogs) {
    try {
      catalog.overlay_file(file);
    } catch (const InputError& error) {
      throw InputError(std::string("--catalog ") + error.what());
    }
  }
  return catalog;
}

std::vector<const Link*> links_named(const Catalog& catalog, const std::string& flag,
                                     const std::vector<std::string>& ids,
                                     std::optional<Tier> tier) {
  std::vector<const Link*> of_tier = fastest_first(catalog.links());
  if (tier) {
    std::erase_if(of_tier, [&](const Link* link) { return link->tier != *tier; });
  }
  if (ids.empty() ||
      std::ranges::any_of(ids, [](const std::string& id) { return fold_case(id) == "all"; })) {
    return of_tier;
  }
  std::vector<const Link*> links;
  for (const std::string& id : ids) {
    const Link* link = &for_flag(flag, [&]() -> const Link& { return catalog.link(id); });
    if (tier && link->tier != *tier) {
      std::vector<std::string> known;
      for (const Link* candidate : of_tier) {
        known.push_back(candidate->id);
      }
      throw InputError(fmt::format("{}: '{}' is a {} link ({}), not a {} link; {} links: {}", flag,
                                   id, to_string(link->tier), link->name, to_string(*tier),
                                   to_string(*tier), fmt::join(known, ", ")));
    }
    if (std::ranges::find(links, link) == links.end()) {
      links.push_back(link);
    }
  }
  return links;
}

std::string unknown_name(std::string_view what, std::string_view text,
                         const std::vector<std::string>& known) {
  const auto suggestion = nearest(text, known);
  return fmt::format("unknown {} '{}'; known: {}{}", what, text, fmt::join(known, ", "),
                     suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion)
                                : std::string());
}

CLI::Option* add_reserve_option(CLI::App& app, double& reserve) {
  return app
      .add_option("--reserve", reserve,
                  "Fraction of each GPU's HBM kept free for activations, runtime buffers and any "
                  "KV cache not counted, e.g. 0.1")
      ->type_name("FRACTION")
      ->default_str(fmt::format("{:g}", default_memory_reserve))
      ->transform(unit_fraction());
}

CLI::Option* add_reserve_option(CLI::App& app, std::optional<double>& reserve) {
  return app
      .add_option("--reserve", reserve,
                  "Fraction of each GPU's memory kept free for activations, runtime buffers and "
                  "any KV cache not counted, in place of the engine's own rule (vLLM's "
                  "gpu_memory_utilization, SGLang's mem_fraction_static, TensorRT-LLM's "
                  "free_gpu_memory_fraction), e.g. 0.1")
      ->type_name("FRACTION")
      ->default_str("the engine's")
      ->transform(unit_fraction());
}

Collective parse_collective(const std::string& name, std::string_view where) {
  if (const auto op = collective_from_name(name)) {
    return *op;
  }
  throw UsageError(
      fmt::format("{}{}", where, unknown_name("operation", name, names<Collective>())));
}

Algorithm parse_algorithm(const std::string& name) {
  if (const auto algorithm = algorithm_from_name(name)) {
    return *algorithm;
  }
  throw UsageError(fmt::format("--algo: {}", unknown_name("algorithm", name, names<Algorithm>())));
}

void require_algorithm(const Link& link, Collective op, Algorithm algorithm) {
  if (const Check check = check_algorithm(link, op, algorithm); !check) {
    throw UsageError(
        fmt::format("--algo {}: {}; use --algo ring", to_string(algorithm), check.reason()));
  }
}

} // namespace icx::cli
