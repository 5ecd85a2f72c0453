#include "icx/util/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

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

/// `words` filled into lines of at most `width` columns, the first after `first`, the rest
/// after `margin`; a word longer than the room keeps a line to itself.
/// A unit written after a number ("2 B", "45 ms", "31 %"): the two never part at a line end.
bool unit_word(std::string_view word) {
  constexpr std::array<std::string_view, 19> units = {
      "B",   "kB",   "KB",   "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB",
      "B/s", "GB/s", "TB/s", "s",  "ms", "µs", "ns",  "%",   "×"};
  // The unit may end a clause: "45 ms," or "(2 B)".
  while (!word.empty() && std::string_view(",;:.)").find(word.back()) != std::string_view::npos) {
    word.remove_suffix(1);
  }
  return std::ranges::find(units, word) != units.end();
}

/// The end of the word at `at` in `words`: the next space, or the one after it when the word
/// is a number and the next word its unit.
std::size_t word_end(std::string_view words, std::size_t at) {
  const std::size_t end = std::min(words.find(' ', at), words.size());
  if (end == words.size() || end == at ||
      std::isdigit(static_cast<unsigned char>(words[end - 1])) == 0) {
    return end;
  }
  const std::size_t next = std::min(words.find(' ', end + 1), words.size());
  return unit_word(words.substr(end + 1, next - end - 1)) ? next : end;
}

std::string fill(std::string_view first, std::string_view margin, std::string_view words,
                 std::size_t width) {
  std::string out;
  std::string current(first);
  bool empty = true;
  std::size_t at = 0;
  while (at < words.size()) {
    const std::size_t end = word_end(words, at);
    const std::string_view word = words.substr(at, end - at);
    at = end + 1;
    if (empty) {
      current += word;
    } else if (display_width(current) + 1 + display_width(word) <= width) {
      current += ' ' + std::string(word);
    } else {
      out += current + '\n';
      current = std::string(margin) + std::string(word);
    }
    empty = false;
  }
  return out + current;
}

/// Where the text after a line's last gap of two or more spaces starts (its last aligned
/// column), or npos when the line has no gap after its indentation.
std::size_t last_column(std::string_view line, std::size_t indent) {
  const std::size_t gap = line.rfind("  ");
  if (gap == std::string_view::npos || gap < indent) {
    return std::string_view::npos;
  }
  return line.find_first_not_of(' ', gap);
}

/// Columns a hanging last column keeps at least, or the line is left whole.
constexpr std::size_t min_hanging_columns = 24;

std::string wrap_line(std::string_view line, std::size_t width) {
  const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
  if (display_width(line) <= width) {
    return std::string(line);
  }
  const std::size_t column = last_column(line, indent);
  if (column == std::string_view::npos) {
    return fill(line.substr(0, indent), std::string(indent, ' '), line.substr(indent), width);
  }
  // Aligned columns (a table row, a key and its value, a flag and its help): the text after
  // the last gap wraps under itself, if it has room to.
  const std::string_view head = line.substr(0, column);
  const std::string_view tail = line.substr(column);
  const std::size_t hang = display_width(head);
  if (tail.find(' ') == std::string_view::npos || hang + min_hanging_columns > width) {
    return std::string(line);
  }
  return fill(head, std::string(hang, ' '), tail, width);
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

std::string and_list(const std::vector<std::string_view>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += i == 0 ? "" : (i + 1 == items.size() ? " and " : ", ");
    text += items[i];
  }
  return text;
}

std::string counted(std::int64_t count, std::string_view noun) {
  return std::to_string(count) + ' ' + std::string(noun) + (count == 1 ? "" : "s");
}

std::string shorten(std::string_view text, std::size_t width, bool ascii) {
  if (display_width(text) <= width) {
    return std::string(text);
  }
  const std::string_view ellipsis = ascii ? "..." : "…";
  const std::size_t room = width > display_width(ellipsis) ? width - display_width(ellipsis) : 0;
  std::size_t at = 0;
  for (std::size_t kept = 0; at < text.size(); ++at) {
    if (!is_continuation(text[at]) && kept++ == room) {
      break;
    }
  }
  std::string out(text.substr(0, at));
  out.erase(out.find_last_not_of(' ') + 1);
  return out + std::string(ellipsis);
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

namespace {

/// The length of the well-formed UTF-8 sequence at the start of `text`, or 0 (RFC 3629,
/// table 3-7 of the Unicode standard: the second byte's range depends on the first).
std::size_t utf8_sequence(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;
    high = lead == 0xED ? 0x9F : 0xBF;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) {
    return 0;
  }
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) {
      return 0;
    }
  }
  return length;
}

} // namespace

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t length = utf8_sequence(text.substr(at));
    if (length == 0) {
      return at;
    }
    at += length;
  }
  return std::nullopt;
}

std::optional<std::size_t> first_hidden_character(std::string_view text) {
  // UTF-8 spellings of the bidirectional controls.
  constexpr std::array<std::string_view, 12> bidi{"\u061C", "\u200E", "\u200F", "\u202A",
                                                  "\u202B", "\u202C", "\u202D", "\u202E",
                                                  "\u2066", "\u2067", "\u2068", "\u2069"};
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool c0 = byte < 0x20 || byte == 0x7F;
    // C1 controls, U+0080–U+009F: 0xC2 followed by 0x80–0x9F.
    const bool c1 = byte == 0xC2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (c0 || c1 || std::ranges::any_of(bidi, [&](std::string_view b) {
          return text.substr(i).starts_with(b);
        })) {
      return i;
    }
  }
  return std::nullopt;
}

std::string shell_quoted(std::string_view word) {
  constexpr std::string_view safe = "-_./=:,+@%";
  const bool plain = !word.empty() && std::ranges::all_of(word, [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           safe.find(c) != std::string_view::npos || static_cast<unsigned char>(c) >= 0x80;
  });
  if (plain) {
    return std::string(word);
  }
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''"; // close the quotes, an escaped quote, open them again
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

} // namespace icx
