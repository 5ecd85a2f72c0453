// Plain text as a terminal shows it: its width in columns, its ASCII form, prose wrapped
// to a width.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace icx {

/// Width in terminal columns of UTF-8 text (one column per code point; ANSI colour
/// sequences take none).
std::size_t display_width(std::string_view text);

/// `text` in ASCII: × → x, µ → u, – → -, ≤ → <=, → → ->, bar blocks → #, any other
/// non-ASCII character → ?.
std::string to_ascii(std::string_view text);

/// Each line of prose longer than `width` broken at spaces; continuation lines keep the
/// line's indentation. A line with two spaces in a row after its indentation is a table
/// row (or aligned key and value) and is left whole, as is a word longer than `width`.
std::string wrap_prose(std::string_view text, std::size_t width);

} // namespace icx
