#include "terminal.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sys/ioctl.h>
#include <system_error>
#include <unistd.h>

#include "icx/lookup.hpp"
#include "icx/number_text.hpp"
#include "table.hpp"

namespace icx::cli {

namespace {

struct Glyph {
  std::string_view utf8;
  std::string_view ascii;
};

/// Every non-ASCII character icx prints, with its ASCII stand-in.
constexpr std::array glyphs{
    Glyph{"×", "x"},  Glyph{"µ", "u"},  Glyph{"–", "-"},  Glyph{"—", "--"},  Glyph{"−", "-"},
    Glyph{"≤", "<="}, Glyph{"≥", ">="}, Glyph{"→", "->"}, Glyph{"…", "..."}, Glyph{"±", "+/-"},
    Glyph{"÷", "/"},  Glyph{"·", "*"},  Glyph{"≈", "~"},  Glyph{"²", "^2"},  Glyph{"█", "#"},
    Glyph{"▉", "#"},  Glyph{"▊", "#"},  Glyph{"▋", "#"},  Glyph{"▌", "#"},   Glyph{"▍", ""},
    Glyph{"▎", ""},   Glyph{"▏", ""},   Glyph{"‘", "'"},  Glyph{"’", "'"},   Glyph{"“", "\""},
    Glyph{"”", "\""}};

bool is_continuation(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0U) == 0x80U;
}

std::string wrap_line(std::string_view line, std::size_t width) {
  const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
  const std::string_view body = line.substr(indent);
  if (display_width(line) <= width || body.find("  ") != std::string_view::npos) {
    return std::string(line);
  }
  const std::string margin(indent, ' ');
  std::string out;
  std::string current;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t end = std::min(body.find(' ', at), body.size());
    const std::string_view word = body.substr(at, end - at);
    at = end + 1;
    if (current.empty()) {
      current = margin + std::string(word);
    } else if (display_width(current) + 1 + display_width(word) <= width) {
      current += ' ' + std::string(word);
    } else {
      out += current + '\n';
      current = margin + std::string(word);
    }
  }
  return out + current;
}

std::string& stdout_buffer() {
  static std::string buffer;
  return buffer;
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

std::string to_ascii(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80U) {
      out += text[i++];
      continue;
    }
    const auto glyph = std::ranges::find_if(
        glyphs, [&](const Glyph& g) { return text.substr(i).starts_with(g.utf8); });
    out += glyph != glyphs.end() ? glyph->ascii : "?";
    for (++i; i < text.size() && is_continuation(text[i]); ++i) {
    }
  }
  return out;
}

std::string wrap_prose(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) {
      return out + wrap_line(text.substr(at), width);
    }
    out += wrap_line(text.substr(at, end - at), width) + '\n';
    at = end + 1;
  }
  return out;
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
  stdout_buffer() += text;
}

void flush_stdout() {
  std::string text = std::move(stdout_buffer());
  stdout_buffer().clear();
  const Terminal& term = terminal();
  write_unwrapped(stdout, term.wrap && term.width ? wrap_prose(text, *term.width) : text);
}

void discard_stdout() {
  stdout_buffer().clear();
}

void write_unwrapped(std::FILE* stream, std::string_view text) {
  const std::string out = terminal().ascii ? to_ascii(text) : std::string(text);
  errno = 0;
  if (std::fwrite(out.data(), 1, out.size(), stream) != out.size() || std::fflush(stream) != 0) {
    // Keep the OS reason (ENOSPC, EPIPE, ...) for the one place that reports it.
    throw std::system_error(errno, std::generic_category(), "cannot write output");
  }
}

} // namespace icx::cli
