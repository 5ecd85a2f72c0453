// The one JSON writer: deterministic key order, base SI units, a schema tag first.
#pragma once

#include <string_view>

#include "icx/catalog.hpp"
#include "icx/json.hpp"
#include "icx/units.hpp"

namespace icx::cli {

// json_document and json_number: icx/json.hpp, shared with the core reports.
using icx::Json;

/// [low, high] in base units.
template <class Q> Json json_range(const Range<Q>& range) {
  return Json::array({json_number(range.low.value()), json_number(range.high.value())});
}

/// The fields every catalog entry prints: id, name, aliases, source.
Json json_entry(const Entry& entry);

/// Writes the complete document to stdout (only ever a whole document).
void print_json(const Json& document);

} // namespace icx::cli
