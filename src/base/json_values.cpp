#include "icx/base/json_values.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "icx/base/limits.hpp"

namespace icx {

Json json_document(std::string_view schema) {
  Json document = Json::object();
  document["schema"] = schema;
  return document;
}

Json json_number(double value) {
  // nlohmann writes a non-finite number as null, which no field of the JSON contract allows
  // for a computed figure: a bug, reported as one rather than printed.
  if (!std::isfinite(value)) {
    throw std::logic_error("a JSON figure is not finite");
  }
  if (std::trunc(value) == value && std::abs(value) < limits::max_exact_double) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

} // namespace icx
