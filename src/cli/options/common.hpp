// What every subcommand shares: the output flags, --catalog, model selection, number
// validation, and the error type for bad usage.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/base/enum_names.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/compute.hpp"
#include "icx/wire/collectives.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

/// The flags every subcommand has: the output's and the --catalog overlays.
struct CommonOptions : OutputOptions {
  std::vector<std::string> catalogs;
};

/// --json, --format, --color, --ascii and --catalog: every subcommand has them.
void add_common_options(CLI::App& app, CommonOptions& options);

/// --explain: for subcommands that compute.
void add_explain_option(CLI::App& app, CommonOptions& options);

/// The shipped catalog with each --catalog file laid over it, in order.
Catalog load_catalog(const CommonOptions& options);

struct ModelOptions {
  std::string model;
  /// A Hugging Face config.json describing the model instead of a catalog id.
  std::string hf_config;
  std::optional<int> hidden;
  std::optional<int> layers;
  std::optional<double> params;
  std::string dtype;
};

void add_model_options(CLI::App& app, ModelOptions& options);

/// A model as the user described it: a catalog model or a Hugging Face config, maybe with
/// fields overridden, or a custom one from --hidden and --layers.
struct ResolvedModel {
  Model model;
  Dtype dtype;
  /// Flags that replaced a catalog model's field, e.g. "--hidden".
  std::vector<std::string> overridden;
  [[nodiscard]] bool custom() const { return model.id == "custom"; }
};

ResolvedModel resolve_model(const Catalog& catalog, const ModelOptions& options);

/// The links named by `flag`, in the order given and each once; "all" (or no id at all):
/// every link fastest first. With `tier`, only links of that tier: "all" keeps those, and
/// naming another is an error that lists them.
std::vector<const Link*> links_named(const Catalog& catalog, const std::string& flag,
                                     const std::vector<std::string>& ids,
                                     std::optional<Tier> tier = std::nullopt);

/// " [overridden: --dtype, --hidden]" after a model's description, or nothing.
std::string overridden_suffix(const ResolvedModel& model);

/// Accepts a whole number in [min, max] written as any number flag is ("4096", "04096",
/// "4.096e3"; no sign or hex, nothing whose value is not whole); the message names the range.
/// Use with `->transform`.
CLI::Validator whole_number(std::int64_t min, std::int64_t max);

/// Accepts a finite decimal number inside `bounds`, e.g. "2.5", "70.6e9". Use with
/// `->transform`.
CLI::Validator decimal_number(const limits::Bounds& bounds);

/// Accepts a duration with a unit, s, ms, us (or µs) or ns ("50ms", "2 s", "1.5s"), inside
/// `bounds` in seconds, and gives it in seconds. Use with `->transform`.
CLI::Validator duration_seconds(const limits::Bounds& bounds);

/// Accepts a decimal fraction from 0 to below 1 (e.g. "0.1"). Use with `->transform`.
CLI::Validator unit_fraction();

/// "unknown {what} '{text}'; known: a, b, c (did you mean 'b'?)".
std::string unknown_name(std::string_view what, std::string_view text,
                         const std::vector<std::string>& known);

/// Binds an option straight to an enum variable: accepts the names in the enum's table
/// (icx/base/enum_names.hpp), matched by `parse` (default: exactly); anything else is rejected
/// with unknown_name. Use with `->transform`, e.g.
///   app.add_option("--format", options.format)->transform(enum_choice<Format>("format"));
template <NamedEnum E>
CLI::Validator enum_choice(std::string what,
                           std::optional<E> (*parse)(std::string_view) = nullptr) {
  return CLI::Validator(
      [what = std::move(what), parse](std::string& text) -> std::string {
        const std::optional<E> value = parse != nullptr ? parse(text) : parse_enum<E>(text);
        if (!value) {
          return unknown_name(what, text, names<E>());
        }
        // CLI11 reads an enum option as its underlying number.
        text = std::to_string(static_cast<std::underlying_type_t<E>>(*value));
        return {};
      },
      "");
}
/// Adds --reserve FRACTION (default default_memory_reserve, icx/memory/hbm.hpp): one flag, one
/// meaning and one help text for every command that checks what fits in HBM.
CLI::Option* add_reserve_option(CLI::App& app, double& reserve);

/// Adds --mfu FRACTION: the achievable fraction of dense peak, for commands that compute.
CLI::Option* add_mfu_option(CLI::App& app, std::optional<double>& mfu);

/// Adds --gpu ID, --mfu FRACTION.
struct ComputeOptions {
  std::string gpu;
  std::optional<double> mfu;
};
void add_compute_options(CLI::App& app, ComputeOptions& options);

/// The compute rate for `gpu` and `dtype`, at --mfu or the GPU's catalog utilisation.
ComputeRate resolve_rate(const Catalog& catalog, const Gpu& gpu, const Dtype& dtype,
                         const ComputeOptions& options);

/// The operation named `name` (collective_from_name); else UsageError "<where>unknown
/// operation 'x'; known: …" with the nearest name.
Collective parse_collective(const std::string& name, std::string_view where);

/// The algorithm named `name` (algorithm_from_name); else UsageError "--algo: unknown
/// algorithm 'x'; known: …" with the nearest name.
Algorithm parse_algorithm(const std::string& name);

/// Throws UsageError naming --algo when `algorithm` cannot run `op` on `link`
/// (check_algorithm).
void require_algorithm(const Link& link, Collective op, Algorithm algorithm);

/// Runs `lookup`, prefixing any LookupError with the flag that named the id.
template <class Lookup> decltype(auto) for_flag(const std::string& flag, Lookup&& lookup) {
  try {
    return lookup();
  } catch (const LookupError& error) {
    throw LookupError(flag + ": " + error.what());
  }
}

} // namespace icx::cli
