// libFuzzer target for the config file reader: any text is read into flags for the commands
// that have them, or refused with one message naming the file; the flags it sets append to a
// command line without throwing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "commands/app.hpp"
#include "options/config.hpp"
#include "output/settings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static CLI::App app{"icx", "icx"};
  static const std::vector<icx::cli::Command> commands = icx::cli::add_commands(app);
  const std::string text(reinterpret_cast<const char*>(data), size);
  icx::cli::ConfigFile config;
  try {
    config = icx::cli::parse_config(app, {"fuzz.toml", icx::cli::ConfigSource::flag, {}}, text);
  } catch (const icx::cli::UsageError& error) {
    if (std::string(error.what()).rfind("fuzz.toml: ", 0) != 0) {
      __builtin_trap();
    }
    return 0;
  }
  for (const icx::cli::ConfigEntry& entry : config.entries) {
    if (entry.commands.empty()) {
      __builtin_trap();
    }
  }
  (void)icx::cli::with_config(app, config, {"tp", "--model", "70b"});
  return 0;
}
