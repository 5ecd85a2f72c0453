#include "json_output.hpp"

#include <cmath>
#include <cstdint>

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
  if (std::isfinite(value) && std::trunc(value) == value &&
      std::abs(value) < limits::max_exact_double) {
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

void print_json(const Json& document) {
  // Under an ASCII-only terminal, other characters are written as \uXXXX escapes.
  print_out("{}\n", document.dump(2, ' ', terminal().ascii));
}

} // namespace icx::cli
