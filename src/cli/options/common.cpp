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
#include "options/files.hpp"

namespace icx::cli {

void add_common_options(CLI::App& app, CommonOptions& options) {
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
  app.add_option("--catalog", options.catalogs,
                 "Overlay a catalog JSON file on the shipped one (repeatable; same id "
                 "replaces, new id adds)")
      ->type_name("FILE")
      ->check(input_file("--catalog"))
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_explain_option(CLI::App& app, CommonOptions& options) {
  app.add_flag("--explain", options.explain,
               "Show every computed figure with its formula and the values substituted");
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

void add_model_options(CLI::App& app, ModelOptions& options) {
  CLI::Option* model =
      app.add_option("-m,--model", options.model, "Catalog model id or alias (see 'icx models')")
          ->type_name("ID");
  app.add_option("--hf-config", options.hf_config,
                 "Hugging Face config.json describing the model (instead of --model); "
                 "parameters are counted from its architecture")
      ->type_name("PATH")
      ->check(input_file("--hf-config"))
      ->excludes(model);
  app.add_option("--hidden", options.hidden,
                 "Hidden size; with --layers describes a custom model, with --model overrides it")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_hidden));
  app.add_option("--layers", options.layers, "Transformer layers (custom model or override)")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_layers));
  app.add_option("--params", options.params,
                 "Parameter count (e.g. 70.6e9); needed for compute time with a custom model, "
                 "overrides a catalog model's")
      ->type_name("N")
      ->transform(decimal_number(limits::params));
  app.add_option("--dtype", options.dtype,
                 "Element type of the weights (see 'icx dtypes'); default: the model's, bf16 "
                 "for a custom model")
      ->type_name("ID");
}

namespace {

Model read_hf_config_flag(const ModelOptions& options) {
  try {
    Model model = read_hf_config_file(options.hf_config);
    if (model.default_dtype.empty() && options.dtype.empty()) {
      throw UsageError(fmt::format("--hf-config {}: the config names no dtype (torch_dtype or "
                                   "dtype); give --dtype ID, e.g. --dtype bf16",
                                   options.hf_config));
    }
    return model;
  } catch (const InputError& error) {
    throw InputError(std::string("--hf-config ") + error.what());
  }
}

} // namespace

ResolvedModel resolve_model(const Catalog& catalog, const ModelOptions& options) {
  ResolvedModel resolved;
  if (!options.hf_config.empty()) {
    resolved.model = read_hf_config_flag(options);
  } else if (!options.model.empty()) {
    resolved.model = for_flag("--model", [&] { return catalog.model(options.model); });
  } else if (options.hidden && options.layers) {
    resolved.model.id = "custom";
    resolved.model.name = "custom model";
    resolved.model.default_dtype = "bf16";
  } else {
    throw UsageError("no model given: use --model ID (e.g. --model 70b; see 'icx models'), "
                     "--hf-config PATH, or --hidden N --layers N for a custom model");
  }
  if (options.hidden) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--hidden");
    }
    resolved.model.hidden = *options.hidden;
  }
  if (options.layers) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--layers");
    }
    resolved.model.layers = *options.layers;
  }
  if (options.params) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--params");
    }
    resolved.model.set_total_params(*options.params);
  }
  const std::string dtype = options.dtype.empty() ? resolved.model.default_dtype : options.dtype;
  resolved.dtype = for_flag("--dtype", [&] { return catalog.dtype(dtype); });
  if (!options.dtype.empty() && !resolved.custom()) {
    resolved.overridden.emplace_back("--dtype");
  }
  return resolved;
}

void add_compute_options(CLI::App& app, ComputeOptions& options) {
  app.add_option("--gpu", options.gpu,
                 "GPU that computes (see 'icx gpus'); default: the catalog GPU whose scale-up "
                 "link is the wire, else the reference GPU")
      ->type_name("ID");
  add_mfu_option(app, options.mfu);
}

CLI::Option* add_mfu_option(CLI::App& app, std::optional<double>& mfu) {
  return app
      .add_option("--mfu", mfu,
                  "Achievable fraction of dense peak for prefill; default: the GPU's catalog "
                  "figure")
      ->type_name("FRACTION")
      ->transform(decimal_number(limits::utilisation));
}

ComputeRate resolve_rate(const Catalog& catalog, const Gpu& gpu, const Dtype& dtype,
                         const ComputeOptions& options) {
  return compute_rate(gpu, dtype, catalog.dtypes(), options.mfu.value_or(gpu.achievable_mfu));
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

std::string overridden_suffix(const ResolvedModel& model) {
  return model.overridden.empty()
             ? std::string()
             : fmt::format(" [overridden: {}]", fmt::join(model.overridden, ", "));
}

std::string unknown_name(std::string_view what, std::string_view text,
                         const std::vector<std::string>& known) {
  const auto suggestion = nearest(text, known);
  return fmt::format("unknown {} '{}'; known: {}{}", what, text, fmt::join(known, ", "),
                     suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion)
                                : std::string());
}

// Every number on the command line is decimal. CLI11 reads "010" as octal and "0x10" as hex
// when it converts an option, so each validator here is a transform: it parses the text
// itself and hands CLI11 the canonical decimal spelling ("01024" becomes "1024").

CLI::Validator whole_number(std::int64_t min, std::int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        const std::optional<std::int64_t> value = parse_whole_decimal(text);
        if (!value || *value < min || *value > max) {
          return fmt::format("expected a whole number from {} to {} (digits, or decimal notation "
                             "such as 4.096e3), got '{}'",
                             min, max, text);
        }
        text = std::to_string(*value);
        return {};
      },
      "");
}

namespace {

CLI::Validator decimal_in(const limits::Bounds& bounds, bool below_max, const char* what) {
  return CLI::Validator(
      [bounds, below_max, what](std::string& text) -> std::string {
        const std::optional<double> value = parse_decimal(text);
        const bool inside = value && *value >= bounds.min &&
                            (below_max ? *value < bounds.max : *value <= bounds.max);
        if (!inside) {
          return fmt::format("expected a decimal {} from {:g} to {}{:g}, got '{}'", what,
                             bounds.min, below_max ? "below " : "", bounds.max, text);
        }
        text = fmt::format("{}", *value);
        return {};
      },
      "");
}

} // namespace

CLI::Validator decimal_number(const limits::Bounds& bounds) {
  return decimal_in(bounds, false, "number");
}

CLI::Validator unit_fraction() {
  return decimal_in(limits::Bounds{0, 1}, true, "fraction");
}

CLI::Validator duration_seconds(const limits::Bounds& bounds) {
  return CLI::Validator(
      [bounds](std::string& text) -> std::string {
        // Seconds per unit; the longest suffix is tried first so "ms" is not read as "s".
        static constexpr std::array<std::pair<std::string_view, double>, 5> units{
            {{"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}, {"s", 1}}};
        const std::string_view whole = text;
        for (const auto& [unit, scale] : units) {
          if (whole.size() > unit.size() && whole.ends_with(unit)) {
            std::string number(whole.substr(0, whole.size() - unit.size()));
            while (!number.empty() && number.back() == ' ') {
              number.pop_back();
            }
            const std::optional<double> value = parse_decimal(number);
            if (value && *value * scale >= bounds.min && *value * scale <= bounds.max) {
              text = fmt::format("{}", *value * scale);
              return {};
            }
            break;
          }
        }
        return fmt::format("expected a duration with a unit (s, ms, us) from {} to {} s, e.g. "
                           "50ms or 2s, got '{}'",
                           format_seconds(Seconds::of(bounds.min)), bounds.max, text);
      },
      "");
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
