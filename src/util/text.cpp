#include "icx/util/text.hpp"

#include <algorithm>
#include <array>

namespace icx {

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

} // namespace

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      // An ANSI colour sequence, ESC [ parameters final-byte, takes no columns.
      i += 2;
      while (i < text.size() && (text[i] < '@' || text[i] > '~')) {
        ++i;
      }
      continue;
    }
    width += (static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U ? 1U : 0U;
  }
  return width;
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

} // namespace icx
