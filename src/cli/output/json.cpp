#include "output/json.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// Spaces a level of a document is indented by.
constexpr unsigned json_indent = 2;

/// Room for a typical row's text (a few hundred bytes), so writing it rarely reallocates.
constexpr std::size_t row_bytes_hint = 1024;

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

/// The document as print_json writes it, indented two spaces a level; under an ASCII-only
/// terminal, other characters are written as \uXXXX escapes.
std::string json_text(const Json& value) {
  if (!all_finite(value)) {
    throw std::logic_error("a JSON figure is not finite");
  }
  return value.dump(static_cast<int>(json_indent), ' ', terminal().ascii);
}

/// The key that json_rows_open and json_rows_close split a document at.
constexpr std::string_view streamed_rows_key = "rows";

/// `value` written as a document's key would write it, then split where its empty rows[] is:
/// the text before "[]" and the text after it.
std::pair<std::string, std::string> split_at_rows(const Json& value) {
  const std::string text = json_text(value);
  const std::string marker = fmt::format("\"{}\": []", streamed_rows_key);
  const std::size_t at = text.find(marker);
  if (at == std::string::npos || text.find(marker, at + 1) != std::string::npos) {
    throw std::logic_error("a streamed document has rows[] in its head or tail");
  }
  const std::size_t bracket = at + marker.size() - 2;
  return {text.substr(0, bracket), text.substr(bracket + 2)};
}

/// `value` appended to `out` as dump() writes it when it starts `depth` spaces in, by
/// nlohmann's own serializer.
void append_serialized(std::string& out, const Json& value, unsigned depth) {
  nlohmann::detail::serializer<Json> serializer(
      nlohmann::detail::output_adapter<char, std::string>(out), ' ');
  serializer.dump(value, true, terminal().ascii, json_indent, depth);
}

} // namespace

void print_json(const Json& document) {
  print_out("{}\n", json_text(document));
}

std::string json_rows_open(const Json& head) {
  Json document = head;
  document[std::string(streamed_rows_key)] = Json::array();
  return split_at_rows(document).first + "[";
}

std::string json_row(const Json& row, bool first) {
  if (!all_finite(row)) {
    throw std::logic_error("a JSON figure is not finite");
  }
  // A row is an element of a top-level key's array: two levels in, four spaces.
  std::string out = first ? "\n    " : ",\n    ";
  out.reserve(row_bytes_hint);
  append_serialized(out, row, 2 * json_indent);
  return out;
}

void write_json_rows(const Json& document, std::size_t count,
                     const std::function<Json(std::size_t)>& row,
                     const std::function<void(std::string_view)>& write) {
  const auto [head, tail] = split_at_rows(document);
  write(head);
  write("[");
  for (std::size_t i = 0; i < count; ++i) {
    write(json_row(row(i), i == 0));
  }
  write(count > 0 ? "\n  ]" : "]");
  write(tail);
  write("\n");
}

void print_json_rows(const Json& document, std::size_t count,
                     const std::function<Json(std::size_t)>& row) {
  stream_stdout();
  write_json_rows(document, count, row, append_stdout);
}

std::string json_rows_close(const Json& tail, bool any_rows) {
  Json document = Json::object();
  document[std::string(streamed_rows_key)] = Json::array();
  for (const auto& [key, value] : tail.items()) {
    document[key] = value;
  }
  return (any_rows ? "\n  ]" : "]") + split_at_rows(document).second + "\n";
}

} // namespace icx::cli
