#include "icx/json.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "icx/limits.hpp"

namespace icx {

Json json_document(std::string_view schema) {
  Json document = Json::object();
  document["schema"] = schema;
  return document;
}

Json json_number(double value) {
  if (!std::isfinite(value)) {
    throw std::logic_error("a JSON figure is not finite");
  }
  if (std::trunc(value) == value && std::abs(value) < limits::max_exact_double) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

} // namespace icx
