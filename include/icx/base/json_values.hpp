// JSON values as every report writes them: deterministic key order, base SI units as plain
// numbers, a schema tag first.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "icx/base/units.hpp"

namespace icx {

using Json = nlohmann::ordered_json;

/// A new document whose first key is "schema".
Json json_document(std::string_view schema);

/// A number as JSON: whole values become integers (byte counts print exactly), others stay
/// floating point. Throws std::logic_error for a non-finite figure (a bug, never output).
Json json_number(double value);

/// A quantity in base units, or null when absent.
template <class Q> Json json_number(const std::optional<Q>& quantity) {
  return quantity ? json_number(quantity->value()) : Json(nullptr);
}

/// [low, high] in base units.
template <class Q> Json json_range(const Range<Q>& range) {
  return Json::array({json_number(range.low.value()), json_number(range.high.value())});
}

} // namespace icx
