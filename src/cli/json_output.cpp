#include "json_output.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "terminal.hpp"

namespace icx::cli {

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
