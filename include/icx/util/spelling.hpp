// Comparing words as people type them: case folding, edit distance, and the nearest known
// word to a typo ("did you mean").
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace icx {

/// Case-folded form used to compare ids and aliases.
std::string fold_case(std::string_view text);

/// fold_case(a) == fold_case(b), without building either.
bool equal_folded(std::string_view a, std::string_view b);

/// Levenshtein edit distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `query`, if it is close enough to be a likely typo.
std::optional<std::string> nearest(std::string_view query, std::span<const std::string> candidates);

} // namespace icx
