// icx config: the config file in force (where it came from) and the flags it sets, for
// which commands.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/commands.hpp"
#include "icx/util/table.hpp"
#include "options/common.hpp"
#include "options/config.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

Json config_document(const std::optional<ConfigFile>& config) {
  Json doc = json_document("icx.config/1");
  doc["path"] = config ? Json(config->path) : Json(nullptr);
  doc["source"] = config ? Json(std::string(to_string(config->source))) : Json(nullptr);
  Json entries = Json::array();
  if (config) {
    for (const ConfigEntry& e : config->entries) {
      entries.push_back({{"section", e.section.empty() ? Json(nullptr) : Json(e.section)},
                         {"key", e.key},
                         {"values", e.values},
                         {"line", e.line},
                         {"commands", e.commands}});
    }
  }
  doc["entries"] = std::move(entries);
  return doc;
}

void print_config(const Style& style, const std::optional<ConfigFile>& config) {
  if (!config) {
    const std::optional<std::string> user = user_config_path();
    print_out("no config file: none given with --config or $ICX_CONFIG{}\n",
              user ? fmt::format(", and {} does not exist", *user) : std::string());
    return;
  }
  print_out("config  {} ({})\n\n", config->path, to_string(config->source));
  TextTable table({{"line", Align::right},
                   {"flag", Align::left},
                   {"value", Align::left, 2, 12},
                   {"for", Align::left, 1, 16}});
  for (const ConfigEntry& e : config->entries) {
    table.add_row(
        {std::to_string(e.line), "--" + e.key, fmt::format("{}", fmt::join(e.values, " ")),
         e.section.empty() ? fmt::format("every command with it ({})", fmt::join(e.commands, ", "))
                           : "icx " + e.section});
  }
  print_out("{}", fit_table(style, table));
  print_out("a flag on the command line wins over the file\n");
}

} // namespace

Command setup_config(CLI::App& app) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* sub = app.add_subcommand(
      "config", "Show the config file in force (--config FILE, else $ICX_CONFIG, else "
                "~/.config/icx/config.toml) and the flags it sets for each command");
  add_common_options(*sub, *options);
  sub->footer("Examples:\n"
              "  icx config\n"
              "  icx config --config my.toml --json\n\n"
              "A config file is TOML: a key at the top sets that flag for every command that has "
              "it, a key under [command] for that command only; a flag on the command line "
              "wins:\n"
              "  system = \"dgx-h100\"\n"
              "  catalog = [\"my-gpus.json\"]\n"
              "  [plan]\n"
              "  price = [\"dgx-h100=24\"]");
  return {sub, [options] {
            const Style style = style_of(*options);
            const std::optional<ConfigFile>& config = config_in_force();
            emit(style, config_document(config), "entries", {},
                 [&] { print_config(style, config); });
            return 0;
          }};
}

} // namespace icx::cli
