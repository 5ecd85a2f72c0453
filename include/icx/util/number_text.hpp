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
/// or hex; leading zeros are decimal ("01024" = 1024). Nothing beyond the int64 range. For
/// formats and variables that hold digits only.
std::optional<std::int64_t> parse_whole(std::string_view text);

/// `text` as a whole number written as parse_decimal reads numbers, without a sign: digits
/// with an optional point and exponent, whose exact value is whole ("4096", "04096", "1e3" =
/// 1000, "4.096e3" = 4096, "8.0" = 8; not "2.5", "1e-3" or "-1"). Nothing beyond the int64
/// range. For command-line flags, so a count reads like every other number.
std::optional<std::int64_t> parse_whole_decimal(std::string_view text);

/// The same, or with a decimal multiple after it: "4k" = 4000, "1.5M" = 1500000 (thousands and
/// millions, never powers of two: a count is not a size).
std::optional<std::int64_t> parse_whole_count(std::string_view text);

} // namespace icx
