#include "json_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "icx/limits.hpp"
#include "terminal.hpp"

namespace icx::cli {

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

Json json_entry(const Entry& entry) {
  Json json = Json::object();
  json["id"] = entry.id;
  json["name"] = entry.name;
  json["aliases"] = entry.aliases;
  json["source"] = entry.source;
  return json;
}

namespace {

/// True when every number in `value` is finite (nlohmann would write the others as null).
bool all_finite(const Json& value) {
  if (value.is_number_float()) {
    return std::isfinite(value.get<double>());
  }
  if (value.is_structured()) {
    return std::ranges::all_of(value, [](const Json& item) { return all_finite(item); });
  }
  return true;
}

} // namespace

void print_json(const Json& document) {
  if (!all_finite(document)) {
    throw std::logic_error("a JSON figure is not finite");
  }
  // Under an ASCII-only terminal, other characters are written as \uXXXX escapes.
  print_out("{}\n", document.dump(2, ' ', terminal().ascii));
}

} // namespace icx::cli
