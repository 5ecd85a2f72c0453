#include "icx/base/units_format.hpp"

#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace icx {

namespace {

struct Prefix {
  double scale;
  std::string_view symbol;
};

constexpr std::array prefixes{
    Prefix{1e18, "E"}, Prefix{1e15, "P"}, Prefix{1e12, "T"},  Prefix{1e9, "G"},
    Prefix{1e6, "M"},  Prefix{1e3, "k"},  Prefix{1.0, ""},    Prefix{1e-3, "m"},
    Prefix{1e-6, "µ"}, Prefix{1e-9, "n"}, Prefix{1e-12, "p"},
};

constexpr int significant_digits = 3;

double round_significant(double value) {
  if (value == 0 || !std::isfinite(value)) {
    return value;
  }
  const double magnitude = std::floor(std::log10(std::abs(value)));
  const double scale = std::pow(10.0, significant_digits - 1 - magnitude);
  return std::round(value * scale) / scale;
}

std::string join_range(const std::string& low, const std::string& high) {
  if (low == high) {
    return low;
  }
  const auto low_space = low.rfind(' ');
  const auto high_space = high.rfind(' ');
  if (low_space != std::string::npos && high_space != std::string::npos &&
      low.substr(low_space) == high.substr(high_space)) {
    return low.substr(0, low_space) + "–" + high;
  }
  return low + "–" + high;
}

} // namespace

std::string format_si(double value, std::string_view unit) {
  // Input and catalog ranges keep every derived figure finite; a non-finite one is a bug,
  // never something to print.
  if (!std::isfinite(value)) {
    throw std::logic_error(fmt::format("a figure in {} is not finite", unit));
  }
  const double rounded = round_significant(value);
  if (rounded == 0) {
    return fmt::format("{} {}", rounded, unit);
  }
  const double magnitude = std::abs(rounded);
  const Prefix* chosen = &prefixes.back();
  for (const Prefix& prefix : prefixes) {
    if (magnitude >= prefix.scale * (1 - 1e-12)) {
      chosen = &prefix;
      break;
    }
  }
  const double scaled = round_significant(rounded / chosen->scale);
  return fmt::format("{:.{}g} {}{}", scaled, significant_digits, chosen->symbol, unit);
}

std::string format_scaled(double value) {
  constexpr double thousand = 1e3;
  if (std::abs(value) < thousand) {
    return fmt::format("{:.3g}", round_significant(value));
  }
  std::string text = format_si(value, "");
  while (text.back() == ' ') {
    text.pop_back(); // the space before an empty unit
  }
  return text;
}

std::string format_bytes(Bytes bytes) {
  return format_si(bytes.value(), "B");
}
std::string format_seconds(Seconds seconds) {
  return format_si(seconds.value(), "s");
}
std::string format_rate(BytesPerSecond rate) {
  return format_si(rate.value(), "B/s");
}
std::string format_flops_rate(FlopsPerSecond rate) {
  return format_si(rate.value(), "FLOP/s");
}

std::string format_range(const Range<BytesPerSecond>& range) {
  return join_range(format_rate(range.low), format_rate(range.high));
}

std::string format_range(const Range<Seconds>& range) {
  return join_range(format_seconds(range.low), format_seconds(range.high));
}

std::string format_params(double count) {
  return fmt::format("{:.{}g}B", round_significant(count / giga), significant_digits);
}

std::string format_share(Seconds part, Seconds whole) {
  return fmt::format("{:.0f} %", whole.value() > 0 ? 100 * part / whole : 0.0);
}

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio)) {
    throw std::logic_error("a ratio is not finite");
  }
  const double rounded = round_significant(ratio);
  constexpr double plain_limit = 1e3; // {:g} would switch to an exponent from here on
  return std::abs(rounded) >= plain_limit ? fmt::format("{:.0f}×", rounded)
                                          : fmt::format("{:.{}g}×", rounded, significant_digits);
}

std::string format_count(double value) {
  const std::string digits = fmt::format("{:.0f}", std::abs(value));
  std::string grouped = value < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      grouped += ',';
    }
    grouped += digits[i];
  }
  return grouped;
}

} // namespace icx
