// How a result reaches the user: the format (table, JSON, CSV), colour, bar charts and the
// --explain derivations. Decided once from the flags and the environment.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/util/table.hpp"
#include "icx/wire/verdict.hpp"
#include "output/json.hpp"
#include "output/settings.hpp"

namespace icx::cli {

struct Style {
  Format format = Format::table;
  bool color = false;
  bool ascii = false;
  bool explain = false;
  /// Columns prose and tables may take (the terminal's width); nullopt: no limit.
  std::optional<std::size_t> width;
  /// --wide: tables keep every column, wider than `width` if they must.
  bool wide = false;
};

/// The style the flags ask for (see use_color for colour "auto"); ASCII with --ascii or
/// when the locale is not UTF-8; tables fitted to the terminal's width.
Style style_of(const OutputOptions& options);

/// Prints the result in the chosen format: `table()` for a table; the document for JSON
/// (with an "explain" array when asked); the array at `rows_key` as CSV.
void emit(const Style& style, Json document, std::string_view rows_key,
          const Derivations& derivations, const std::function<void()>& table);

/// `table` fitted to the style's width (--wide: every column) and, when columns were left
/// out to fit, one line saying which and that --wide shows them.
std::string fit_table(const Style& style, const TextTable& table);

/// A verdict level, coloured green/yellow/red when colour is on.
std::string paint(const Style& style, Level level);

/// Columns of the bar a table draws beside a time (icx tp's wires, icx collective's rows).
inline constexpr int bar_width = 16;

/// A horizontal bar `width` columns long at `value` = `max`, in eighths of a column
/// (Unicode blocks) or in whole '#' columns with ASCII.
std::string bar(const Style& style, double value, double max, int width);

/// The same on a logarithmic scale from `min` (one eighth of a column) to `max` (`width`
/// columns), for values spanning orders of magnitude.
std::string log_bar(const Style& style, double value, double min, double max, int width);

/// Rows of objects as CSV (RFC 4180): nested objects flatten to dotted columns, arrays to
/// "a;b"; the header is every key in order of first appearance.
std::string to_csv(const Json& rows);

/// The CSV header of the columns `keys` ("key", or "key.field" for a nested object's field).
std::string csv_header(const std::vector<std::string>& keys);

/// One CSV line of `row` in the columns `keys`; a null where `keys` has the object's fields
/// leaves them empty. Throws std::logic_error for a value with no column.
std::string csv_line(const Json& row, const std::vector<std::string>& keys);

} // namespace icx::cli
