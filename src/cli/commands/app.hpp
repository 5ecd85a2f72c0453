// The command-line front end: builds the subcommands, parses argv, runs the chosen one and
// turns every error into one line on stderr and an exit status.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "output/settings.hpp"

namespace icx::cli {

/// A subcommand: its CLI11 app and what to run when it was chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Every subcommand, added to `app`.
std::vector<Command> add_commands(CLI::App& app);

int run(int argc, char** argv);

} // namespace icx::cli
