#include "icx/util/table.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "icx/util/text.hpp"

namespace icx {

namespace {

/// Columns between two cells.
constexpr std::size_t gap = 2;

std::size_t total_width(const std::vector<std::size_t>& shown,
                        const std::vector<std::size_t>& widths) {
  std::size_t total = shown.empty() ? 0 : gap * (shown.size() - 1);
  for (const std::size_t c : shown) {
    total += widths[c];
  }
  return total;
}

/// Takes `excess` columns from the widest of the `cuttable` columns, one at a time, none below
/// its floor; returns what could not be taken.
std::size_t cut_widths(const std::vector<Column>& columns, const std::vector<std::size_t>& cuttable,
                       std::vector<std::size_t>& widths, std::size_t excess) {
  while (excess > 0) {
    std::optional<std::size_t> widest;
    for (const std::size_t c : cuttable) {
      if (widths[c] > columns[c].cut_to && (!widest || widths[c] > widths[*widest])) {
        widest = c;
      }
    }
    if (!widest) {
      return excess;
    }
    --widths[*widest];
    --excess;
  }
  return 0;
}

/// The order a table gives up space in: each column's `drop` rank, highest first (left to
/// right among equals); a column that may be cut is cut at its rank (0: once nothing is left
/// to drop), one that may not is left out at its rank (0: never).
std::vector<std::size_t> fitting_steps(const std::vector<Column>& columns) {
  std::vector<std::size_t> steps;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].drop > 0 || columns[c].cut_to > 0) {
      steps.push_back(c);
    }
  }
  std::ranges::stable_sort(steps, std::ranges::greater{},
                           [&](std::size_t c) { return columns[c].drop; });
  return steps;
}

} // namespace

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

std::size_t TextTable::rows() const {
  return columns_.empty() ? 0 : ends_.size() / columns_.size();
}

std::string_view TextTable::cell(std::size_t row, std::size_t column) const {
  const std::size_t at = row * columns_.size() + column;
  const std::size_t begin = at == 0 ? 0 : ends_[at - 1];
  return std::string_view(text_).substr(begin, ends_[at] - begin);
}

std::vector<std::size_t> TextTable::natural_widths(bool ascii) const {
  const auto width_of = [ascii](std::string_view text) {
    return ascii ? display_width(to_ascii(text)) : display_width(text);
  };
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = width_of(columns_[c].header);
    for (std::size_t r = 0; r < rows(); ++r) {
      widths[c] = std::max(widths[c], width_of(cell(r, c)));
    }
  }
  return widths;
}

TextTable::Layout TextTable::layout(const TableFit& fit) const {
  Layout out;
  out.widths = natural_widths(fit.ascii);
  out.shown.resize(columns_.size());
  std::iota(out.shown.begin(), out.shown.end(), std::size_t{0});
  if (!fit.width) {
    return out;
  }
  std::vector<std::size_t> cuttable;
  for (const std::size_t step : fitting_steps(columns_)) {
    const std::size_t total = total_width(out.shown, out.widths);
    if (total <= *fit.width) {
      return out;
    }
    if (columns_[step].cut_to > 0) {
      cuttable.push_back(step);
      cut_widths(columns_, cuttable, out.widths, total - *fit.width);
    } else {
      std::erase(out.shown, step);
    }
  }
  return out;
}

std::vector<std::string> TextTable::dropped(const TableFit& fit) const {
  const Layout kept = layout(fit);
  std::vector<std::string> out;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (std::ranges::find(kept.shown, c) == kept.shown.end()) {
      out.push_back(columns_[c].header);
    }
  }
  return out;
}

std::string TextTable::render(const TableFit& fit) const {
  const Layout kept = layout(fit);
  std::string out;
  auto append_line = [&](auto cell_of) {
    std::string line;
    for (const std::size_t c : kept.shown) {
      const std::string_view raw = cell_of(c);
      const std::string text =
          shorten(fit.ascii ? to_ascii(raw) : std::string(raw), kept.widths[c], fit.ascii);
      const std::string padding(kept.widths[c] - display_width(text), ' ');
      if (c != kept.shown.front()) {
        line += std::string(gap, ' ');
      }
      line += columns_[c].align == Align::right ? padding + text : text + padding;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + '\n';
  };
  append_line([&](std::size_t c) { return std::string_view(columns_[c].header); });
  const std::size_t widest = kept.widths.empty() ? 0 : *std::ranges::max_element(kept.widths);
  const std::string rule(widest, '-');
  append_line([&](std::size_t c) { return std::string_view(rule).substr(0, kept.widths[c]); });
  for (std::size_t r = 0; r < rows(); ++r) {
    append_line([&](std::size_t c) { return cell(r, c); });
  }
  return out;
}

} // namespace icx
