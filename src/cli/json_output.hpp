// The one JSON writer: documents built from icx/json_values.hpp, written whole to stdout.
#pragma once

#include <string_view>

#include "icx/catalog_json.hpp"
#include "icx/json_values.hpp"

namespace icx::cli {

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

} // namespace icx::cli
