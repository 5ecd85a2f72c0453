// Words, labels and cell checks shared by the topology readers (read.hpp).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/topo/matrix.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/text_file.hpp"
#include "topo/read.hpp"

namespace icx::topo_read {

namespace {

/// The length of the ANSI escape sequence starting at `at` (an ESC byte): CSI "ESC [ params
/// intermediates final" or ESC and one more byte.
std::size_t escape_length(std::string_view line, std::size_t at) {
  if (at + 1 >= line.size()) {
    return 1;
  }
  if (line[at + 1] != '[') {
    return 2;
  }
  std::size_t end = at + 2;
  while (end < line.size() && line[end] >= 0x20 && line[end] <= 0x3f) {
    ++end;
  }
  return std::min(end + 1, line.size()) - at;
}

} // namespace

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/// The words of `line`: runs of characters between blanks, ANSI escapes removed.
std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t at = 0;
  while (at < line.size()) {
    if (is_blank(line[at])) {
      ++at;
      continue;
    }
    if (line[at] == '\x1b') {
      at += escape_length(line, at);
      continue;
    }
    const std::size_t start = at;
    while (at < line.size() && !is_blank(line[at]) && line[at] != '\x1b') {
      ++at;
    }
    words.push_back({line.substr(start, at - start), start + 1});
  }
  return words;
}

/// `text` for a message: printable ASCII as is, other bytes as \xNN, at most 32 characters.
std::string shown(std::string_view text) {
  constexpr std::size_t max_shown = 32;
  std::string text_shown;
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      text_shown += static_cast<char>(byte);
    } else {
      text_shown += fmt::format("\\x{:02x}", byte);
    }
  }
  if (text.size() > max_shown) {
    text_shown += "...";
  }
  return "'" + text_shown + "'";
}

[[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what) {
  throw InputError(fmt::format("line {}, column {}: {}", line, column, what));
}

bool is_numbered(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix) || text.size() == prefix.size() ||
      text.size() > prefix.size() + 4) {
    return false;
  }
  return std::ranges::all_of(text.substr(prefix.size()),
                             [](char c) { return c >= '0' && c <= '9'; });
}

bool is_gpu_label(std::string_view text) {
  return is_numbered(text, "GPU");
}

/// A NIC column: "NIC3", or the device's own name as old drivers print it ("mlx5_0",
/// "mlx4_1", "bnxt_re0"): a letter, then letters, digits and "_.-:", with a digit.
bool is_nic_label(std::string_view text) {
  if (is_numbered(text, "NIC")) {
    return true;
  }
  if (text.empty() || text.size() > 32 || is_gpu_label(text)) {
    return false;
  }
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!letter(text.front())) {
    return false;
  }
  const bool allowed = std::ranges::all_of(text, [&](char c) {
    return letter(c) || digit(c) || c == '_' || c == '.' || c == '-' || c == ':';
  });
  return allowed && std::ranges::any_of(text, digit) && text.back() != ':';
}

/// Checks the cell at (row, column) against the diagonal rule and, below the diagonal,
/// against the mirror cell already read.
void check_cell(const TopoMatrix& matrix, std::size_t row, std::size_t column, const TopoPath& path,
                const std::vector<std::size_t>& row_lines, const Word& word) {
  const std::string& from = matrix.devices[row].label;
  const std::string& to = matrix.devices[column].label;
  const std::size_t line = row_lines[row];
  if (row == column && path.kind != PathKind::self) {
    fail(line, word.column,
         fmt::format("{} to itself is {}; expected 'X'", from, shown(word.text)));
  }
  if (row != column && path.kind == PathKind::self) {
    fail(line, word.column,
         fmt::format("{} to {} is 'X', which only the diagonal may be", from, to));
  }
  if (column < row) {
    const TopoPath& mirror = matrix.path(column, row);
    if (mirror.kind != path.kind || mirror.links != path.links) {
      fail(line, word.column,
           fmt::format("{} to {} is {} but {} to {} on line {} is {}; the matrix is not symmetric",
                       from, to, shown(word.text), to, from, row_lines[column],
                       shown(mirror.token)));
    }
  }
}

} // namespace icx::topo_read
