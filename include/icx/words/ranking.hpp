// How a ranked layout's verdict reads: the one place that turns a VerdictBasis and its
// figures into the reason printed beside the layout and written to JSON.
#pragma once

#include <string>
#include <vector>

#include "icx/serving/ranking.hpp"
#include "icx/serving/serving.hpp"

namespace icx {

/// e.g. "best of 7 fitting layouts for latency (TTFT 479 ms); all-reduce takes 12 % of the
/// step", or "does not fit: 70 GB of weights + …". `compared` is the placement of the layout
/// the verdict names (nullptr when it names none).
std::string layout_reason(const RankedLayout& ranked, const Placement* compared, Phase phase,
                          Objective objective);

/// One sentence per cause of `inversions`: the layouts that rank below one they beat on the
/// objective, each with its figure and the one above it, and the rule that put them there.
std::vector<std::string> inversion_sentences(const std::vector<RankedLayout>& ranked,
                                             const std::vector<RankInversion>& inversions,
                                             Phase phase, Objective objective);

/// Writes the reason of every judged layout of `ranked` (the rest keep an empty one).
void write_reasons(std::vector<RankedLayout>& ranked, Phase phase, Objective objective);

} // namespace icx
