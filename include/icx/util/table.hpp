// The one text-table renderer: every human-readable table goes through it, fitted to the
// columns it has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icx {

enum class Align { left, right };

struct Column {
  std::string header;
  Align align = Align::left;
  /// When the table is wider than its space, it gives up columns highest rank first (a bar
  /// chart before a figure the other columns imply): a column with `cut_to` is cut at its
  /// rank (0: last of all), any other left out (0: never).
  int drop = 0;
  /// Text that may be cut, ending in "…", down to this many columns to fit; 0: never cut
  /// (numbers, and every column a colour code may be in).
  std::size_t cut_to = 0;
};

/// How a table is drawn in the space it has.
struct TableFit {
  /// Columns the table may take; nullopt: no limit.
  std::optional<std::size_t> width;
  /// Measure and print the cells as their ASCII forms (to_ascii).
  bool ascii = false;
};

class TextTable {
public:
  explicit TextTable(std::vector<Column> columns);
  /// Adds a row; it must have one cell per column.
  void add_row(const std::vector<std::string>& cells);
  /// Renders the header, a rule and the rows, columns two spaces apart, no trailing spaces.
  /// Wider than `fit.width`, it gives up space column by column in their `drop` order until
  /// it fits; a table that still does not fit is rendered with what it kept (numbers are never
  /// cut).
  [[nodiscard]] std::string render(const TableFit& fit = {}) const;
  /// The headers of the columns render(fit) leaves out, in the table's order.
  [[nodiscard]] std::vector<std::string> dropped(const TableFit& fit) const;
  [[nodiscard]] bool empty() const { return ends_.empty(); }

private:
  /// Which columns are shown and how wide each is.
  struct Layout {
    std::vector<std::size_t> shown;
    std::vector<std::size_t> widths;
  };
  [[nodiscard]] Layout layout(const TableFit& fit) const;
  /// Every column's natural width (its widest cell or header).
  [[nodiscard]] std::vector<std::size_t> natural_widths(bool ascii) const;
  /// The cell at `row`, `column`.
  [[nodiscard]] std::string_view cell(std::size_t row, std::size_t column) const;
  [[nodiscard]] std::size_t rows() const;
  std::vector<Column> columns_;
  /// Every cell's text, row after row, and where each ends: a long sweep's table costs its
  /// text and four bytes a cell, not a string object per cell.
  std::string text_;
  std::vector<std::uint32_t> ends_;
};

} // namespace icx
