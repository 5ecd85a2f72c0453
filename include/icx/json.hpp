// The JSON shape of core reports: deterministic key order, base SI units as plain numbers,
// a "schema" tag first. Each report type has its nlohmann `to_json` beside it, so its
// document is defined once, here in the core.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace icx {

using Json = nlohmann::ordered_json;

/// A new document whose first key is "schema".
Json json_document(std::string_view schema);

/// A number as JSON: whole values become integers (byte counts print exactly), others stay
/// floating point. Throws std::logic_error for a non-finite value (nlohmann would write null,
/// which no computed figure may be).
Json json_number(double value);

} // namespace icx
