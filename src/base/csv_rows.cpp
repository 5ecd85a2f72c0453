#include "base/csv_rows.hpp"

#include <fmt/ranges.h>

namespace icx::detail {

std::vector<std::string> split_record(std::string_view line, const std::string& where) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"' && fields.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) {
    throw InputError(where + ": unterminated quoted field");
  }
  return fields;
}

void check_header(const std::vector<std::string>& header, std::span<const char* const> required,
                  const std::string& where) {
  for (const char* column : required) {
    if (std::ranges::find(header, column) == header.end()) {
      throw InputError(fmt::format("{}: header lacks column '{}'; required: {}", where, column,
                                   fmt::join(required, ",")));
    }
  }
  for (auto column = header.begin(); column != header.end(); ++column) {
    if (std::find(header.begin(), column, *column) != column) {
      throw InputError(fmt::format("{}: column '{}' appears twice in the header", where, *column));
    }
  }
}

} // namespace icx::detail
