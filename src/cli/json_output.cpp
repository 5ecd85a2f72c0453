#include "json_output.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace icx::cli {

Json json_document(std::string_view schema) {
  Json document = Json::object();
  document["schema"] = schema;
  return document;
}

Json json_number(double value) {
  // Below 2^53 a double holds every whole number exactly.
  constexpr double exact_limit = 9007199254740992.0;
  if (std::isfinite(value) && std::trunc(value) == value && std::abs(value) < exact_limit) {
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
  fmt::print("{}\n", document.dump(2));
}

} // namespace icx::cli
