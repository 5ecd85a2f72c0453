#include "icx/report_json.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "icx/limits.hpp"

namespace icx {

nlohmann::ordered_json json_number(double value) {
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
