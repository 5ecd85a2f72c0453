#include "icx/util/number_text.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace icx {

std::optional<double> parse_decimal(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  // std::from_chars in its default (general) format reads decimal only: no "0x" prefix.
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> parse_whole(std::string_view text) {
  if (text.empty() || text.front() == '-') {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (error != std::errc() || stop != end) {
    return std::nullopt;
  }
  return value;
}

} // namespace icx
