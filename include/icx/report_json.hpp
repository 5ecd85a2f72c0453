// What every report's JSON shares: figures in base SI units as plain numbers, whole values
// as integers (byte counts print exactly), absent figures as null.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "icx/units.hpp"

namespace icx {

/// A number as JSON: whole values become integers, others stay floating point. Throws
/// std::logic_error on a non-finite value (no field of the JSON contract allows one).
nlohmann::ordered_json json_number(double value);

/// A quantity in base units, or null when absent.
template <class Q> nlohmann::ordered_json json_number(const std::optional<Q>& quantity) {
  return quantity ? json_number(quantity->value()) : nlohmann::ordered_json(nullptr);
}

/// [low, high] in base units.
template <class Q> nlohmann::ordered_json json_range(const Range<Q>& range) {
  return nlohmann::ordered_json::array(
      {json_number(range.low.value()), json_number(range.high.value())});
}

} // namespace icx
