// Numbers written as text, on the command line and in logs and CSV files: always decimal.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace icx {

/// `text` as a finite decimal number, if all of it is one: digits with an optional sign,
/// point and exponent ("70.6e9", "-1", "010" = 10). Hex, "inf" and "nan" are not numbers.
std::optional<double> parse_decimal(std::string_view text);

/// `text` as a whole number in decimal digits, if all of it is one: no sign, point, exponent
/// or hex; leading zeros are decimal ("01024" = 1024). Nothing beyond the int64 range.
std::optional<std::int64_t> parse_whole(std::string_view text);

} // namespace icx
