// The one text-table renderer: every human-readable table goes through it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace icx::cli {

enum class Align { left, right };

struct Column {
  std::string header;
  Align align = Align::left;
};

class TextTable {
public:
  explicit TextTable(std::vector<Column> columns);
  /// Adds a row; it must have one cell per column.
  void add_row(std::vector<std::string> cells);
  /// Renders the header, a rule and the rows, columns two spaces apart, no trailing spaces.
  [[nodiscard]] std::string render() const;
  [[nodiscard]] bool empty() const { return rows_.empty(); }

private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// Width in terminal columns of UTF-8 text (one column per code point; ANSI colour
/// sequences take none).
std::size_t display_width(std::string_view text);

} // namespace icx::cli
