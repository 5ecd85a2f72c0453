// The one JSON writer: documents built from icx/base/json_values.hpp, written whole to stdout, or a
// row at a time for a sweep (the same bytes as the whole document would be).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "icx/base/json_values.hpp"
#include "icx/catalog/json.hpp"

namespace icx::cli {

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

/// Writes `document`, whose "rows" is an empty array, with `count` rows that `row` makes one
/// at a time (row(0), row(1), …): the text print_json writes for the document with them in its
/// rows[], streamed, so the rows are never held together.
void print_json_rows(const Json& document, std::size_t count,
                     const std::function<Json(std::size_t)>& row);

/// The same text given to `write` a piece at a time.
void write_json_rows(const Json& document, std::size_t count,
                     const std::function<Json(std::size_t)>& row,
                     const std::function<void(std::string_view)>& write);

/// A document with a rows[] array, in pieces: the keys before the array and its opening (`head`
/// must not have "rows"), each row (`first` for the first), and the close of the array with
/// the keys after it. Together, the text print_json writes for the whole document. Throws
/// std::logic_error for a figure that is not finite.
std::string json_rows_open(const Json& head);
std::string json_row(const Json& row, bool first);
std::string json_rows_close(const Json& tail, bool any_rows);

} // namespace icx::cli
