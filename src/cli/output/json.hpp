// The one JSON writer: documents built from icx/base/json_values.hpp, written whole to stdout, or a
// row at a time for a sweep (the same bytes as the whole document would be).
#pragma once

#include <string>
#include <string_view>

#include "icx/base/json_values.hpp"
#include "icx/catalog/json.hpp"

namespace icx::cli {

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

/// A document with a rows[] array, in pieces: the keys before the array and its opening (`head`
/// must not have "rows"), each row (`first` for the first), and the close of the array with
/// the keys after it. Together, the text print_json writes for the whole document. Throws
/// std::logic_error for a figure that is not finite.
std::string json_rows_open(const Json& head);
std::string json_row(const Json& row, bool first);
std::string json_rows_close(const Json& tail, bool any_rows);

} // namespace icx::cli
