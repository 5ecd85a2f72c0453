#include "icx/util/table.hpp"

#include <algorithm>
#include <stdexcept>

#include "icx/util/text.hpp"

namespace icx {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) {
    throw std::logic_error("TextTable row has the wrong number of cells");
  }
  rows_.push_back(std::move(cells));
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
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  const std::vector<std::size_t> shown = shown_columns(widths, max_width);
  std::string out;
  auto append_line = [&](auto cell_of) {
    std::string line;
    for (const std::size_t c : shown) {
      const std::string cell = cell_of(c);
      const std::string padding(widths[c] - display_width(cell), ' ');
      if (c != shown.front()) {
        line += "  ";
      }
      line += columns_[c].align == Align::right ? padding + cell : cell + padding;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + '\n';
  };
  append_line([&](std::size_t c) { return columns_[c].header; });
  append_line([&](std::size_t c) { return std::string(widths[c], '-'); });
  for (const auto& row : rows_) {
    append_line([&](std::size_t c) { return row[c]; });
  }
  return out;
}

} // namespace icx
