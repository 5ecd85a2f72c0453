// Charts of sweeps, drawn by gnuplot (an optional dependency: Debian's gnuplot-nox has the SVG
// and cairo PNG terminals). icx writes a gnuplot script with the data inline and runs it; the
// axes, ticks, legend and rendering are gnuplot's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace icx::cli {

enum class PlotFormat { svg, png };

enum class SeriesStyle {
  /// The expected model: a solid line with points.
  solid,
  /// The headline model: a dashed line of the same colour as its expected series.
  dashed,
  /// A reference such as compute time: a dotted grey line.
  reference,
  /// Measurements: points only.
  points,
};

struct PlotSeries {
  std::string title;
  SeriesStyle style = SeriesStyle::solid;
  /// Series with the same colour index share a colour (a wire's headline and expected).
  int colour = 0;
  std::vector<std::pair<double, double>> points;
  /// The series the command chose (the layout place ranks first): drawn with a heavier line.
  bool heavy = false;
};

/// A horizontal line across the chart: a verdict threshold or a budget.
struct PlotLevel {
  std::string title;
  double value = 0;
};

struct PlotSpec {
  std::string title;
  /// Axis titles with their units: "prompt tokens per pass", "time per step (s)".
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  /// x is a size in bytes: ticks at powers of two as nccl-tests prints them (32, 1K, 1M, 1G).
  bool x_bytes = false;
  /// y is a time in seconds: drawn in the unit its largest value reads best in (µs, ms or s),
  /// the label's "(s)" changed to match.
  bool y_seconds = false;
  std::vector<PlotSeries> series;
  std::vector<PlotLevel> levels;
};

/// `spec` with every series whose style and points equal an earlier one's folded into it
/// (titles joined: "TP 8, TP 4 × DP 2"), so a legend entry never hides under another line.
PlotSpec merge_identical_series(PlotSpec spec);

/// The format the file name asks for; nothing for another extension.
std::optional<PlotFormat> plot_format_of(const std::string& path);

/// True when the values span at least two decades (a log axis reads better).
bool spans_decades(const std::vector<double>& values);

/// The gnuplot script that draws `spec` into `path`: data inline as datablocks, one plot
/// clause per series in order. Series with no points are left out.
std::string gnuplot_script(const PlotSpec& spec, PlotFormat format, const std::string& path);

/// The gnuplot program icx runs: $ICX_GNUPLOT when set, else "gnuplot" on the PATH; nothing
/// when it cannot be found.
std::optional<std::string> find_gnuplot();

/// Checks that --plot can be honoured before anything is computed: a .svg or .png name and
/// gnuplot installed. Throws UsageError naming --plot and what to do instead.
void require_plot(const std::string& path);

/// The picture gnuplot draws of `spec`: SVG text or PNG bytes. Throws UsageError naming --plot
/// when gnuplot is missing or fails (with its last line of complaint), or nothing is drawable.
std::string render_plot(const PlotSpec& spec, PlotFormat format);

/// Draws `spec` into `path` with gnuplot, whole or not at all. Throws UsageError naming --plot when
/// gnuplot fails (with its first line of complaint) or the file cannot be written.
void write_plot(const PlotSpec& spec, const std::string& path);

} // namespace icx::cli
