// What the terminal can show (its width, colour, UTF-8 or only ASCII), decided once per run
// from the flags and the environment. Every line icx prints passes through here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "icx/base/enum_names.hpp"

namespace icx::cli {

/// Reads an environment variable (nullptr when unset): std::getenv, or a table in tests.
using Environment = std::function<const char*(const char*)>;

/// The process environment.
const char* process_environment(const char* name);

/// Whether the first of LC_ALL, LC_CTYPE and LANG that is set names UTF-8 (none set: no).
bool locale_is_utf8(const Environment& env);

/// --color WHEN.
enum class ColorWhen { automatic, always, never };

constexpr std::array<EnumName<ColorWhen>, 3> enum_names(ColorWhen /*unused*/) {
  return {
      {{ColorWhen::automatic, "auto"}, {ColorWhen::always, "always"}, {ColorWhen::never, "never"}}};
}

/// Always, never, or automatic: stdout is a terminal, TERM is not "dumb" and NO_COLOR is
/// unset or empty.
bool use_color(ColorWhen when, bool stdout_is_tty, const Environment& env);

/// Columns to fit output in: the terminal's (`tty_columns`, when stdout is one), else
/// $COLUMNS when it is a whole number from 1 to 9999; nullopt: no limit (pipes, files).
std::optional<std::size_t> output_width(std::optional<std::size_t> tty_columns,
                                        const Environment& env);

struct Terminal {
  /// Print ASCII only (--ascii, or the locale is not UTF-8).
  bool ascii = false;
  /// Columns to fit tables and prose in; nullopt: no limit.
  std::optional<std::size_t> width;
  /// Wrap prose to `width` (tables yes; JSON and CSV never).
  bool wrap = true;
};

/// This run's terminal: set up from the environment when icx starts, refined by the
/// output flags (style_of).
Terminal& terminal();

/// The terminal as the process environment and stdout describe it.
Terminal detect_terminal();

/// Collects text for stdout; written, fitted to the terminal, by flush_stdout.
void append_stdout(std::string_view text);

template <class... Args> void print_out(fmt::format_string<Args...> format, Args&&... args) {
  append_stdout(fmt::format(format, std::forward<Args>(args)...));
}

/// Writes what was collected for stdout (wrapped if the terminal asks, ASCII if it must).
void flush_stdout();

/// From now on, writes what was collected for stdout each time it passes a chunk (whole lines
/// only), so a long JSON or CSV sweep holds one chunk, not its whole output. Call it only
/// once every flag was checked: what was written stays written if the command then fails.
void stream_stdout();

/// Drops what was collected for stdout (the command failed: only its error is shown).
void discard_stdout();

/// Writes `text` to `stream` now, in ASCII if the terminal must, its prose wrapped to the
/// terminal's width when it has one.
void write_wrapped(std::FILE* stream, std::string_view text);

/// Writes `text` to `stream` now, in ASCII if the terminal must, never wrapped.
void write_unwrapped(std::FILE* stream, std::string_view text);

/// Writes `line` and a newline to stderr. Never throws: when stderr cannot take it there is
/// nowhere left to say so, and the exit status still tells.
void print_stderr_line(std::string_view line) noexcept;

} // namespace icx::cli
