#include "options/config.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/limits.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text_file.hpp"
#include "options/common.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

constexpr std::string_view config_flag = "--config";

/// The path --config gives on `args` (as "--config FILE" or "--config=FILE").
std::optional<std::string> flag_path(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == config_flag && i + 1 < args.size()) {
      return args[i + 1];
    }
    if (args[i].starts_with(std::string(config_flag) + "=")) {
      return args[i].substr(config_flag.size() + 1);
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<ConfigFile>& config_in_force() {
  static std::optional<ConfigFile> config;
  return config;
}

std::optional<std::string> user_config_path() {
  const char* xdg = process_environment("XDG_CONFIG_HOME");
  const char* home = process_environment("HOME");
  if (xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/icx/config.toml";
  }
  if (home != nullptr && *home != '\0') {
    return std::string(home) + "/.config/icx/config.toml";
  }
  return std::nullopt;
}

namespace {

/// Every subcommand of `app`, parsed or not.
std::vector<const CLI::App*> all_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* /*sub*/) { return true; });
}

/// The line of each key, by its section and name ("" for the top of the file).
std::map<std::pair<std::string, std::string>, int> key_lines(const std::string& text) {
  static const std::regex section(R"re(^\s*\[\s*([^\]\s]+)\s*\]\s*(#.*)?$)re");
  static const std::regex key(R"re(^\s*"?([A-Za-z0-9_.-]+)"?\s*=)re");
  std::map<std::pair<std::string, std::string>, int> lines;
  std::istringstream in(text);
  std::string line;
  std::string current;
  for (int number = 1; std::getline(in, line); ++number) {
    std::smatch match;
    if (std::regex_search(line, match, section)) {
      current = match[1];
    } else if (std::regex_search(line, match, key)) {
      lines.emplace(std::pair{current, match[1].str()}, number);
    }
  }
  return lines;
}

/// The subcommands of `app` that have the flag --key.
std::vector<std::string> commands_with(const CLI::App& app, const std::string& key) {
  std::vector<std::string> out;
  for (const CLI::App* sub : all_subcommands(app)) {
    if (sub->get_option_no_throw("--" + key) != nullptr) {
      out.push_back(sub->get_name());
    }
  }
  return out;
}

/// Every long flag name of every subcommand, without its dashes.
std::vector<std::string> long_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : all_subcommands(app)) {
    for (const CLI::Option* option : sub->get_options()) {
      const auto& names = option->get_lnames();
      out.insert(out.end(), names.begin(), names.end());
    }
  }
  return out;
}

/// The entry of one item of the file, its commands checked.
ConfigEntry entry_of(const CLI::App& app, const CLI::ConfigItem& item, const std::string& path,
                     int line) {
  ConfigEntry entry{item.parents.empty() ? std::string() : item.parents.front(),
                    item.name,
                    item.inputs,
                    line,
                    {}};
  const std::string where = fmt::format("{}: line {}", path, line);
  if (item.parents.size() > 1) {
    throw UsageError(fmt::format("{}: [{}] is nested; a section names one command", where,
                                 fmt::join(item.parents, ".")));
  }
  std::vector<std::string> commands = commands_with(app, entry.key);
  if (entry.section.empty()) {
    if (commands.empty() || entry.key == config_flag.substr(2)) {
      const std::optional<std::string> near = nearest(entry.key, long_names(app));
      throw UsageError(fmt::format("{}: no command has a flag --{}{}; a key is a flag's long "
                                   "name without its dashes (system = \"dgx-h100\")",
                                   where, entry.key,
                                   near ? fmt::format(" (did you mean '{}'?)", *near) : ""));
    }
    entry.commands = std::move(commands);
    return entry;
  }
  const auto subs = all_subcommands(app);
  if (std::ranges::none_of(subs,
                           [&](const CLI::App* s) { return s->get_name() == entry.section; })) {
    throw UsageError(fmt::format("{}: [{}] is not a command; a section names one ('icx --help' "
                                 "lists them)",
                                 where, entry.section));
  }
  if (std::ranges::find(commands, entry.section) == commands.end()) {
    throw UsageError(fmt::format("{}: icx {} has no flag --{} (see 'icx {} --help')", where,
                                 entry.section, entry.key, entry.section));
  }
  entry.commands = {entry.section};
  return entry;
}

/// Whether `args` give the flag `option` itself, by any of its names.
bool given(const CLI::Option& option, const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_lnames()) {
    names.push_back("--" + name);
  }
  for (const std::string& name : option.get_snames()) {
    names.push_back("-" + name);
  }
  return std::ranges::any_of(args, [&](const std::string& arg) {
    return std::ranges::any_of(
        names, [&](const std::string& name) { return arg == name || arg.starts_with(name + "="); });
  });
}

} // namespace

std::optional<ConfigFile> read_config(const CLI::App& app, const std::vector<std::string>& args) {
  ConfigFile config;
  if (const std::optional<std::string> path = flag_path(args)) {
    config = {*path, ConfigSource::flag, {}};
  } else if (const char* env = process_environment("ICX_CONFIG"); env != nullptr && *env != 0) {
    config = {env, ConfigSource::environment, {}};
  } else if (const std::optional<std::string> user = user_config_path();
             user && std::filesystem::exists(*user)) {
    config = {*user, ConfigSource::user_file, {}};
  } else {
    return std::nullopt;
  }
  const std::string text =
      read_text_file(config.path, {"an icx config file (TOML)", limits::max_config_file_bytes});
  return parse_config(app, std::move(config), text);
}

ConfigFile parse_config(const CLI::App& app, ConfigFile config, const std::string& text) {
  std::vector<CLI::ConfigItem> items;
  try {
    std::istringstream in(text);
    items = CLI::ConfigTOML().from_config(in);
  } catch (const CLI::Error& error) {
    throw UsageError(fmt::format("{}: not a TOML config file: {}", config.path, error.what()));
  }
  const auto lines = key_lines(text);
  for (const CLI::ConfigItem& item : items) {
    if (item.name == "++" || item.name == "--") { // CLI11's marks for entering a section
      continue;
    }
    const std::string section = item.parents.empty() ? std::string() : item.parents.front();
    const auto line = lines.find({section, item.name});
    config.entries.push_back(
        entry_of(app, item, config.path, line == lines.end() ? 0 : line->second));
  }
  return config;
}

std::vector<std::string> with_config(const CLI::App& app, const ConfigFile& config,
                                     std::vector<std::string> args) {
  const auto subs = all_subcommands(app);
  const CLI::App* command = nullptr;
  for (const std::string& arg : args) {
    const auto sub =
        std::ranges::find_if(subs, [&](const CLI::App* s) { return s->get_name() == arg; });
    if (sub != subs.end()) {
      command = *sub;
      break;
    }
  }
  if (command == nullptr) {
    return args;
  }
  std::vector<std::string> added;
  for (const ConfigEntry& entry : config.entries) {
    if (std::ranges::find(entry.commands, command->get_name()) == entry.commands.end()) {
      continue;
    }
    const CLI::Option& option = *command->get_option("--" + entry.key);
    if (given(option, args) || given(option, added)) {
      continue;
    }
    if (option.get_expected_max() == 0) { // a flag: on when the value says so
      if (!entry.values.empty() &&
          (entry.values.front() == "true" || entry.values.front() == "1")) {
        added.push_back("--" + entry.key);
      }
      continue;
    }
    for (const std::string& value : entry.values) {
      added.push_back(fmt::format("--{}={}", entry.key, value));
    }
  }
  args.insert(args.end(), added.begin(), added.end());
  return args;
}

void add_config_option(CLI::App& app, std::string& path) {
  app.add_option(std::string(config_flag), path,
                 "Defaults for flags from this TOML file, instead of $ICX_CONFIG or "
                 "~/.config/icx/config.toml ('icx config' shows what is in force)")
      ->type_name("FILE");
}

} // namespace icx::cli
