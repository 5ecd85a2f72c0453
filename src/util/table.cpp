#include "icx/util/table.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "icx/util/text.hpp"

namespace icx {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(const std::vector<std::string>& cells) {
  if (cells.size() != columns_.size()) {
    throw std::logic_error("TextTable row has the wrong number of cells");
  }
  for (const std::string& cell : cells) {
    text_ += cell;
    if (text_.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("TextTable holds more than 4 GiB of text");
    }
    ends_.push_back(static_cast<std::uint32_t>(text_.size()));
  }
}

std::string_view TextTable::cell(std::size_t row, std::size_t column) const {
  const std::size_t at = row * columns_.size() + column;
  const std::size_t begin = at == 0 ? 0 : ends_[at - 1];
  return std::string_view(text_).substr(begin, ends_[at] - begin);
}

std::vector<std::size_t> TextTable::shown_columns(const std::vector<std::size_t>& widths,
                                                  std::optional<std::size_t> max_width) const {
  std::size_t total = 0;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    total += widths[c] + (c > 0 ? 2 : 0);
  }
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (!max_width || total <= *max_width || !columns_[c].optional) {
      shown.push_back(c);
    }
  }
  return shown;
}

std::string TextTable::render(std::optional<std::size_t> max_width) const {
  const std::size_t rows = columns_.empty() ? 0 : ends_.size() / columns_.size();
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (std::size_t r = 0; r < rows; ++r) {
      widths[c] = std::max(widths[c], display_width(cell(r, c)));
    }
  }
  const std::vector<std::size_t> shown = shown_columns(widths, max_width);
  std::string out;
  auto append_line = [&](auto cell_of) {
    std::string line;
    for (const std::size_t c : shown) {
      const std::string_view text = cell_of(c);
      const std::string padding(widths[c] - display_width(text), ' ');
      if (c != shown.front()) {
        line += "  ";
      }
      if (columns_[c].align == Align::right) {
        line += padding;
      }
      line += text;
      if (columns_[c].align == Align::left) {
        line += padding;
      }
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + '\n';
  };
  append_line([&](std::size_t c) { return std::string_view(columns_[c].header); });
  const std::string rule(widths.empty() ? 0 : *std::ranges::max_element(widths), '-');
  append_line([&](std::size_t c) { return std::string_view(rule).substr(0, widths[c]); });
  for (std::size_t r = 0; r < rows; ++r) {
    append_line([&](std::size_t c) { return cell(r, c); });
  }
  return out;
}

} // namespace icx
