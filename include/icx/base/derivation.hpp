// How a figure was computed, as --explain shows it and JSON carries it: the formula with
// its values substituted, and the result.
#pragma once

#include <string>
#include <vector>

namespace icx {

/// "per all-reduce = 2 × 4096 × 8192 × 2 B = 134,217,728 B".
struct Derivation {
  std::string quantity;
  /// The formula with the values substituted.
  std::string formula;
  /// The result in base units (bytes, seconds, bytes/s, FLOP) for JSON.
  double value = 0;
  /// The result as printed, with its unit.
  std::string shown;
};

using Derivations = std::vector<Derivation>;

} // namespace icx
