// The one JSON writer: deterministic key order, base SI units, a schema tag first.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "icx/catalog.hpp"
#include "icx/report_json.hpp"
#include "icx/units.hpp"

namespace icx::cli {

using Json = nlohmann::ordered_json;

/// A new document whose first key is "schema".
Json json_document(std::string_view schema);

// json_number and json_range (icx/report_json.hpp): one number format for every document.
using icx::json_number;
using icx::json_range;

/// The fields every catalog entry prints: id, name, aliases, source.
Json json_entry(const Entry& entry);

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

} // namespace icx::cli
