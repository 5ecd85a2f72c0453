// What every subcommand shares: the output flags and --catalog, names of enums and links as
// flags take them, and (through options/model.hpp and options/numbers.hpp) the model and
// number flags.
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
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/enum_names.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/compute.hpp"
#include "icx/wire/collectives.hpp"
#include "options/model.hpp"
#include "options/numbers.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

/// The flags every subcommand has: the output's and the --catalog overlays.
struct CommonOptions : OutputOptions {
  std::vector<std::string> catalogs;
  /// --config FILE: read before the command line is parsed (options/config.hpp).
  std::string config;
};

/// Shows the options `app` got from its `first` on under `group` in --help (CLI11's option
/// groups: Model, Cluster, Load, Output…); an option already in a group of its own keeps it.
void group_options_from(CLI::App& app, std::size_t first, const std::string& group);

/// --json, --format, --color, --ascii and --catalog: every subcommand has them.
void add_common_options(CLI::App& app, CommonOptions& options);

/// --explain: for subcommands that compute.
void add_explain_option(CLI::App& app, CommonOptions& options);

/// The shipped catalog with each --catalog file laid over it, in order.
Catalog load_catalog(const CommonOptions& options);

/// The links named by `flag`, in the order given and each once; "all" (or no id at all):
/// every link fastest first. With `tier`, only links of that tier: "all" keeps those, and
/// naming another is an error that lists them.
std::vector<const Link*> links_named(const Catalog& catalog, const std::string& flag,
                                     const std::vector<std::string>& ids,
                                     std::optional<Tier> tier = std::nullopt);

/// "unknown {what} '{text}'; known: a, b, c (did you mean 'b'?)".
std::string unknown_name(std::string_view what, std::string_view text,
                         const std::vector<std::string>& known);

/// Binds an option straight to an enum variable: accepts the names in the enum's table
/// (icx/base/enum_names.hpp), matched by `parse` (default: exactly); anything else is rejected
/// with unknown_name; --help lists the names. Use with `->transform`, e.g.
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
      // Shown after the option's type in --help ("GOAL:{latency,throughput}"), where the shell
      // completions read the choices.
      fmt::format("{{{}}}", fmt::join(names<E>(), ",")));
}
/// A check that accepts anything and shows `choices` after the option's type in --help
/// ("OP:{all-reduce,all-gather}"), where the shell completions read them: for options whose
/// text is parsed later, with its own error.
CLI::Validator shown_choices(const std::vector<std::string>& choices);

/// Adds --reserve FRACTION (default default_memory_reserve, icx/memory/hbm.hpp): one flag, one
/// meaning and one help text for every command that checks what fits in HBM.
CLI::Option* add_reserve_option(CLI::App& app, double& reserve);

/// Adds --reserve FRACTION for the commands that price serving: absent, the engine's own
/// memory rule (icx/serving/engine_memory.hpp) sizes the KV cache.
CLI::Option* add_reserve_option(CLI::App& app, std::optional<double>& reserve);

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
