#include "output/terminal.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sys/ioctl.h>
#include <system_error>
#include <unistd.h>

#include "icx/util/number_text.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text.hpp"

namespace icx::cli {

namespace {

std::string& stdout_buffer() {
  static std::string buffer;
  return buffer;
}

/// Whether stream_stdout was called.
bool& streaming() {
  static bool on = false;
  return on;
}

/// What a streamed stdout collects before it writes: large enough that a write is rare, small
/// beside any memory bound.
constexpr std::size_t stream_chunk_bytes = std::size_t{64} << 10;

/// Writes `text` as flush_stdout does.
void write_out(std::string_view text) {
  write_wrapped(stdout, text);
}

} // namespace

const char* process_environment(const char* name) {
  return std::getenv(name);
}

bool locale_is_utf8(const Environment& env) {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* value = env(name);
    if (value != nullptr && *value != '\0') {
      const std::string folded = fold_case(value);
      return folded.find("utf-8") != std::string::npos || folded.find("utf8") != std::string::npos;
    }
  }
  return false;
}

bool use_color(ColorWhen when, bool stdout_is_tty, const Environment& env) {
  if (when != ColorWhen::automatic) {
    return when == ColorWhen::always;
  }
  const char* no_color = env("NO_COLOR");
  const char* term = env("TERM");
  return stdout_is_tty && (no_color == nullptr || *no_color == '\0') &&
         (term == nullptr || std::string_view(term) != "dumb");
}

std::optional<std::size_t> output_width(std::optional<std::size_t> tty_columns,
                                        const Environment& env) {
  if (tty_columns && *tty_columns > 0) {
    return tty_columns;
  }
  const char* columns = env("COLUMNS");
  if (columns == nullptr) {
    return std::nullopt;
  }
  constexpr std::int64_t max_columns = 9999;
  const std::optional<std::int64_t> value = parse_whole(columns);
  if (!value || *value == 0 || *value > max_columns) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(*value);
}

Terminal& terminal() {
  static Terminal current;
  return current;
}

Terminal detect_terminal() {
  std::optional<std::size_t> tty_columns;
  winsize size{};
  if (isatty(STDOUT_FILENO) == 1 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    tty_columns = size.ws_col;
  }
  Terminal detected;
  detected.ascii = !locale_is_utf8(process_environment);
  detected.width = output_width(tty_columns, process_environment);
  return detected;
}

void append_stdout(std::string_view text) {
  std::string& buffer = stdout_buffer();
  buffer += text;
  if (!streaming() || buffer.size() < stream_chunk_bytes) {
    return;
  }
  const std::size_t lines = buffer.rfind('\n');
  if (lines == std::string::npos) {
    return;
  }
  write_out(std::string_view(buffer).substr(0, lines + 1));
  buffer.erase(0, lines + 1);
}

void flush_stdout() {
  const std::string text = std::move(stdout_buffer());
  stdout_buffer().clear();
  streaming() = false;
  write_out(text);
}

void stream_stdout() {
  streaming() = true;
}

void discard_stdout() {
  stdout_buffer().clear();
  streaming() = false;
}

void write_wrapped(std::FILE* stream, std::string_view text) {
  const Terminal& term = terminal();
  if (!term.wrap || !term.width) {
    write_unwrapped(stream, text);
    return;
  }
  // Wrapped in the form it is printed in: an ASCII stand-in can be wider than its glyph.
  write_unwrapped(stream, wrap_prose(term.ascii ? to_ascii(text) : std::string(text), *term.width));
}

void write_unwrapped(std::FILE* stream, std::string_view text) {
  const std::string out = terminal().ascii ? to_ascii(text) : std::string(text);
  errno = 0;
  if (std::fwrite(out.data(), 1, out.size(), stream) != out.size() || std::fflush(stream) != 0) {
    // Keep the OS reason (ENOSPC, EPIPE, ...) for the one place that reports it.
    throw std::system_error(errno, std::generic_category(), "cannot write output");
  }
}

void print_stderr_line(std::string_view line) noexcept {
  try {
    write_unwrapped(stderr, fmt::format("{}\n", line));
  } catch (...) { // NOLINT(bugprone-empty-catch): nowhere left to report it; the status tells
  }
}

} // namespace icx::cli
