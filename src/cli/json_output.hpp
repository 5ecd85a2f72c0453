// The one JSON writer: documents built from icx/json_values.hpp, written whole to stdout.
#pragma once

#include <string_view>

#include "icx/catalog.hpp"
#include "icx/json_values.hpp"

namespace icx::cli {

/// The fields every catalog entry prints: id, name, aliases, source.
Json json_entry(const Entry& entry);

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

} // namespace icx::cli
