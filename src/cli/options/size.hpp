// The --size option of message sizes: one size with a unit, or a doubling sweep FROM:TO.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/units.hpp"

namespace icx::cli {

/// One size in bytes: a whole number from 1 B to limits::max_message_bytes with an optional
/// unit, B, KB, MB, GB, TB, PB (powers of 1000), KiB … PiB (powers of 1024), or a bare K, M,
/// G, T as nccl-tests' -b and -e read them (powers of 1024). The prefix takes either case;
/// a lowercase b (bits) is refused. Nothing when `text` is not one.
std::optional<Bytes> size_value(const std::string& text);

/// What a size should look like, for `text` that size_value refused: the spelling to use
/// when `text` ends in a lowercase b, else the units size_value takes.
std::string size_hint(const std::string& text);

/// "FLAG: 'TEXT' is not a size; " + size_hint(text).
std::string size_error(std::string_view flag, const std::string& text);

/// "1GiB" gives one size; "8B:16GiB" every doubling from 8 B up to 16 GiB; "8B:16GiB:x4" or
/// "1MiB:8MiB:1MiB" steps as --sweep does (sweep_values). Each size is a
/// size_value. Throws UsageError naming --size.
std::vector<Bytes> parse_sizes(const std::string& text);

} // namespace icx::cli
