#include "icx/util/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

namespace icx {

namespace {

/// The most decimal digits an int64 can hold (9223372036854775807).
constexpr std::size_t max_int64_digits = 19;

/// `text` as an int64 in decimal digits (a leading '-' allowed), whole text only.
std::optional<std::int64_t> read_int64(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || error != std::errc() || stop != end) {
    return std::nullopt;
  }
  return value;
}

/// A decimal number as its significant digits and a power of ten: digits × 10^scale.
struct Decimal {
  std::string digits; // no leading zeros; empty for zero
  std::int64_t scale = 0;
};

/// `text`, already known to be a decimal number without a sign, split into digits and scale.
std::optional<Decimal> split_decimal(std::string_view text) {
  const std::size_t e = std::min(text.find_first_of("eE"), text.size());
  std::int64_t exponent = 0;
  if (e < text.size()) {
    std::string_view exponent_text = text.substr(e + 1);
    if (exponent_text.starts_with('+')) {
      exponent_text.remove_prefix(1);
    }
    const std::optional<std::int64_t> read = read_int64(exponent_text);
    if (!read) {
      return std::nullopt; // beyond the int64 range, possible only on a zero
    }
    exponent = *read;
  }
  const std::string_view mantissa = text.substr(0, e);
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::string_view fraction = mantissa.substr(std::min(point + 1, mantissa.size()));
  Decimal decimal{std::string(mantissa.substr(0, point)) + std::string(fraction), 0};
  decimal.digits.erase(0, std::min(decimal.digits.find_first_not_of('0'), decimal.digits.size()));
  if (!decimal.digits.empty()) {
    // A non-zero finite double has an exponent far from the int64 limits.
    decimal.scale = exponent - static_cast<std::int64_t>(fraction.size());
  }
  return decimal;
}

/// The exact value of `decimal` if it is a whole number within the int64 range.
std::optional<std::int64_t> whole_value(Decimal decimal) {
  if (decimal.scale < 0) {
    // The last -scale digits are the fraction: all zeros, or the value is not whole.
    const auto fraction = static_cast<std::uint64_t>(-decimal.scale);
    const std::size_t size = decimal.digits.size();
    if (fraction > size ||
        decimal.digits.find_first_not_of('0', size - fraction) != std::string::npos) {
      return std::nullopt;
    }
    decimal.digits.resize(size - fraction);
  } else if (decimal.digits.size() + static_cast<std::uint64_t>(decimal.scale) > max_int64_digits) {
    return std::nullopt;
  } else {
    decimal.digits.append(static_cast<std::size_t>(decimal.scale), '0');
  }
  return decimal.digits.empty() ? 0 : read_int64(decimal.digits);
}

} // namespace

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
  return read_int64(text);
}

std::optional<std::int64_t> parse_whole_decimal(std::string_view text) {
  // The same texts as parse_decimal, so every number flag reads one notation.
  if (!parse_decimal(text) || text.front() == '-') {
    return std::nullopt;
  }
  const std::optional<Decimal> decimal = split_decimal(text);
  return decimal ? whole_value(*decimal) : std::nullopt;
}

std::optional<std::int64_t> parse_whole_count(std::string_view text) {
  if (text.size() < 2 || (text.back() != 'k' && text.back() != 'M')) {
    return parse_whole_decimal(text);
  }
  // "4k" reads as "4e3": the multiple is an exponent, so "4e3k" (two exponents) is refused.
  const std::string_view number = text.substr(0, text.size() - 1);
  if (number.find_first_of("eE") != std::string_view::npos) {
    return std::nullopt;
  }
  return parse_whole_decimal(std::string(number) + (text.back() == 'k' ? "e3" : "e6"));
}

} // namespace icx
