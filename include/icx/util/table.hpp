// The one text-table renderer: every human-readable table goes through it.
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
  /// Left out when the table is wider than the space it has (a bar chart, say).
  bool optional = false;
};

class TextTable {
public:
  explicit TextTable(std::vector<Column> columns);
  /// Adds a row; it must have one cell per column.
  void add_row(const std::vector<std::string>& cells);
  /// Renders the header, a rule and the rows, columns two spaces apart, no trailing spaces.
  /// Wider than `max_width`, the table loses its optional columns; if still too wide it is
  /// rendered whole (numbers are never cut).
  [[nodiscard]] std::string render(std::optional<std::size_t> max_width = std::nullopt) const;
  [[nodiscard]] bool empty() const { return ends_.empty(); }

private:
  /// Every column, or without the optional ones when all would exceed `max_width`.
  [[nodiscard]] std::vector<std::size_t> shown_columns(const std::vector<std::size_t>& widths,
                                                       std::optional<std::size_t> max_width) const;
  /// The cell at `row`, `column`.
  [[nodiscard]] std::string_view cell(std::size_t row, std::size_t column) const;
  std::vector<Column> columns_;
  /// Every cell's text, row after row, and where each ends: a long sweep's table costs its
  /// text and four bytes a cell, not a string object per cell.
  std::string text_;
  std::vector<std::uint32_t> ends_;
};

} // namespace icx
