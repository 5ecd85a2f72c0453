// Plain text as a terminal shows it: its width in columns, its ASCII form, prose wrapped
// to a width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icx {

/// Width in terminal columns of UTF-8 text (one column per code point; ANSI colour
/// sequences take none).
std::size_t display_width(std::string_view text);

/// `text` in ASCII: × → x, µ → u, – → -, ≤ → <=, → → ->, bar blocks → #, any other
/// non-ASCII character → ?.
std::string to_ascii(std::string_view text);

/// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string_view>& items);

/// "1 sequence", "32 sequences": `count` and `noun`, plural (with an s) unless the count is 1.
std::string counted(std::int64_t count, std::string_view noun);

/// `text` in at most `width` columns: whole if it fits, else its first characters and an
/// ellipsis ("…", or "..." in ASCII). Colour codes are not allowed for (never shorten a
/// coloured cell).
std::string shorten(std::string_view text, std::size_t width, bool ascii);

/// Each line of prose longer than `width` broken at spaces; continuation lines keep the
/// line's indentation. A line with two spaces in a row after its indentation has aligned
/// columns (a table row, a key and its value, a flag and its help): only the text after its
/// last such gap wraps, each continuation starting under it, when that leaves it at least 24
/// columns; else the line is left whole, as is a word longer than `width`.
std::string wrap_prose(std::string_view text, std::size_t width);

/// `word` as a POSIX shell reads it back as one word: as it is when it holds only letters,
/// digits, non-ASCII bytes and -_./=:,+@%, else in single quotes (a ' written as '\'').
std::string shell_quoted(std::string_view word);

/// The offset of the first byte of `text` that does not begin or continue a well-formed UTF-8
/// sequence (overlong forms, surrogates and code points above U+10FFFF are not well formed);
/// nothing when all of `text` is UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

/// The offset of the first character of UTF-8 `text` that a terminal would not show as
/// itself: a C0 or C1 control character (tab and newline among them) or a Unicode
/// bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which can
/// make a name print as another; nothing when there is none.
std::optional<std::size_t> first_hidden_character(std::string_view text);

} // namespace icx
