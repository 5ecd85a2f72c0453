// The --size option of message sizes: one size with a unit, or a doubling sweep FROM:TO.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "icx/units.hpp"

namespace icx::cli {

/// One size in bytes: a whole number from 1 B to limits::max_message_bytes with an optional
/// unit, B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024),
/// case-insensitive (CLI11's AsSizeValue); nothing when `text` is not one.
std::optional<Bytes> size_value(const std::string& text);

/// "1GiB" gives one size; "8B:16GiB" every doubling from 8 B up to 16 GiB; "8B:16GiB:x4" or
/// "1MiB:8MiB:1MiB" steps as --sweep does (sweep_values). Each size is a
/// whole number of bytes from 1 B to limits::max_message_bytes with an optional unit, B, KB,
/// MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), case-insensitive
/// (CLI11's AsSizeValue). Throws UsageError naming --size.
std::vector<Bytes> parse_sizes(const std::string& text);

} // namespace icx::cli
