// What every command's output is asked for (--json, --format, --color, --ascii, --explain,
// --wide),
// the error a mistake in how icx was called becomes, and the exit statuses.
#pragma once

#include <array>
#include <stdexcept>

#include "icx/base/enum_names.hpp"
#include "output/terminal.hpp"

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

/// A mistake in how icx was called; printed as one line, exit status 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Format { table, json, csv };

constexpr std::array<EnumName<Format>, 3> enum_names(Format /*unused*/) {
  return {{{Format::table, "table"}, {Format::json, "json"}, {Format::csv, "csv"}}};
}

struct OutputOptions {
  bool json = false;
  Format format = Format::table;
  ColorWhen color = ColorWhen::automatic;
  bool ascii = false;
  bool explain = false;
  /// --wide: tables keep every column however wide the terminal.
  bool wide = false;
};

} // namespace icx::cli
