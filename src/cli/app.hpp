// The command-line front end: builds the subcommands, parses argv, runs the chosen one and
// turns every error into one line on stderr and an exit status.
#pragma once

#include <functional>
#include <string_view>

#include <CLI/CLI.hpp>

namespace icx::cli {

/// Exit statuses, documented in the README.
enum ExitCode : int {
  exit_ok = 0,
  exit_internal = 1,
  exit_usage = 2,
  /// A computed floor exceeds the budget the user gave (icx coldstart --budget).
  exit_over_budget = 3,
  /// Computed fine, but a check the command exists for failed (icx validate: rows outside
  /// their bound); the same status as over budget.
  exit_check_failed = 3,
  /// icx plan found no candidate that meets the targets; the same status again.
  exit_targets_unmet = 3,
  /// stdout was closed by its reader (`icx … | head -1`): 128 + SIGPIPE, the status a shell
  /// reports for a program the closed pipe stopped.
  exit_broken_pipe = 141,
};

/// A subcommand: its CLI11 app and what to run when it was chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

int run(int argc, char** argv);

/// Writes `line` and a newline to stderr. Never throws: when stderr cannot take it there is
/// nowhere left to say so, and the exit status still tells.
void print_stderr_line(std::string_view line) noexcept;

} // namespace icx::cli
