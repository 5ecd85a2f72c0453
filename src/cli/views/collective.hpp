// How `icx collective` shows its report: one table for a size or a sweep, the notes on both
// models, and the --explain derivations.
#pragma once

#include "icx/reports/collective.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// The table (one size, or one row per size of a sweep) and the notes under it.
void print_collective(const Style& style, const CollectiveReport& report);

/// Per size: the headline time, the expected time's three terms and the expected busbw.
Derivations derive_collective(const CollectiveReport& report);

} // namespace icx::cli
