// How `icx place` shows its report: the cluster and pass, the ranked layouts, the chosen
// layout's splits with their verdicts, and what was assumed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "icx/reports/place.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// The whole report; `top` limits the ranked table (the chosen layout is always shown).
void print_place(const Style& style, const PlaceReport& report, std::size_t top);

/// A launch command (place and plan): a heading, then the script as it is pasted, not
/// indented, so its options file's end marker stays at the start of its line.
void print_launch(const LaunchCommand& command);

/// One row of the ranking: #, layout, fits, batch, compute, memory, comm, TTFT/TPOT, tok/s/GPU
/// and `verdict` as shown (plain or coloured).
std::vector<std::string> ranked_layout_cells(std::size_t rank, const RankedLayout& r,
                                             std::string verdict);

} // namespace icx::cli
