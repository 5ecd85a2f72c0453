// Defaults for flags from a TOML file: --config FILE, else $ICX_CONFIG, else
// $XDG_CONFIG_HOME/icx/config.toml (~/.config/icx/config.toml). A key at the top applies to
// every command that has that flag ("system = \"dgx-h100\""), a key in a [command] section
// to that command only; a flag on the command line wins. Read with CLI11's TOML reader.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/base/enum_names.hpp"

namespace icx::cli {

/// Where the config file in force came from.
enum class ConfigSource { flag, environment, user_file };

constexpr std::array<EnumName<ConfigSource>, 3> enum_names(ConfigSource /*unused*/) {
  return {{{ConfigSource::flag, "--config"},
           {ConfigSource::environment, "$ICX_CONFIG"},
           {ConfigSource::user_file, "the user's config file"}}};
}

/// One key of the config file.
struct ConfigEntry {
  /// The command its section names; empty at the top of the file.
  std::string section;
  std::string key;
  std::vector<std::string> values;
  int line = 0;
  /// The commands whose flag --key it sets.
  std::vector<std::string> commands;
};

struct ConfigFile {
  std::string path;
  ConfigSource source = ConfigSource::user_file;
  std::vector<ConfigEntry> entries;
};

/// The config file in force for `args` (argv without the program name): --config FILE
/// anywhere on the line, else $ICX_CONFIG, else the user's file when it exists; nothing when
/// there is none. Throws UsageError for a key no command has, a section that is not a
/// command, a key its section's command does not have, or a file that is not TOML, each
/// with the file and line.
std::optional<ConfigFile> read_config(const CLI::App& app, const std::vector<std::string>& args);

/// `config` (its path and source given) with the entries of `text`, its content; throws as
/// read_config does.
ConfigFile parse_config(const CLI::App& app, ConfigFile config, const std::string& text);

/// `args` with the flags `config` sets for the command args name appended, but only those the
/// command line does not give itself.
std::vector<std::string> with_config(const CLI::App& app, const ConfigFile& config,
                                     std::vector<std::string> args);

/// The config file this run read, for icx config to show.
std::optional<ConfigFile>& config_in_force();

/// Where icx looks for a config file when neither --config nor $ICX_CONFIG names one.
std::optional<std::string> user_config_path();

/// --config FILE on `app`, for its help (read_config reads it before the command line is
/// parsed).
void add_config_option(CLI::App& app, std::string& path);

} // namespace icx::cli
