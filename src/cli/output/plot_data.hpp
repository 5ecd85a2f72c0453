// What a chart's data becomes before gnuplot draws it: identical series merged, a time axis in
// its best unit, a byte axis's ticks.
#pragma once

#include <string>
#include <utility>

#include "output/plot.hpp"

namespace icx::cli {

/// Whether gnuplot can draw `point` on the chart's axes (finite, and positive on a log axis).
bool drawable(const PlotSpec& spec, const std::pair<double, double>& point);

/// `spec` with a y axis in seconds (y_seconds) drawn in the unit its largest value reads best
/// in: µs below a millisecond, ms below a second; the values, levels and the label's "(s)"
/// changed to match.
PlotSpec scaled_times(PlotSpec spec);

/// The gnuplot xtics of a byte axis (x_bytes): every power of two the data spans, or every
/// 32nd (1, 32, 1K, 32K, 1M …) when that would crowd it; nothing without data.
std::string byte_tics(const PlotSpec& spec);

} // namespace icx::cli
