// The one unit formatter for text people read (tables, reasons, derivations): SI decimal
// prefixes (1 MB = 10^6 B, as the textbook and vendors quote), three significant digits,
// trailing zeros dropped.
#pragma once

#include <string>
#include <string_view>

#include "icx/base/units.hpp"

namespace icx {

/// `value` in `unit` with an SI prefix and 3 significant digits, e.g. "134 MB", "11.9 ms".
std::string format_si(double value, std::string_view unit);

std::string format_bytes(Bytes bytes);
std::string format_seconds(Seconds seconds);
std::string format_rate(BytesPerSecond rate);
std::string format_flops_rate(FlopsPerSecond rate);

/// "25–50 GB/s" for a range whose ends share a unit, "a–b" otherwise, one value if equal.
std::string format_range(const Range<BytesPerSecond>& range);
std::string format_range(const Range<Seconds>& range);

/// A parameter count in billions, as model cards quote it: "70.6B".
std::string format_params(double count);

/// A ratio with 3 significant digits and a times sign, e.g. "52.3×", "1230×".
std::string format_ratio(double ratio);

/// The share `part` takes of `whole` in whole percent, "45 %"; "0 %" when `whole` is zero.
std::string format_share(Seconds part, Seconds whole);

/// A count or rate without a unit, 3 significant digits, a k/M/G prefix from a thousand up:
/// "0.625", "395", "1.18 k".
std::string format_scaled(double value);

/// A whole number with thousands separators, e.g. "134,217,728".
std::string format_count(double value);

} // namespace icx
