#include "output/plot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/limits.hpp"
#include "icx/util/text.hpp"
#include "icx/util/text_file.hpp"
#include "output/plot_data.hpp"
#include "output/settings.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// Okabe and Ito's colour-blind-safe palette (2008), without its black and yellow, which read
/// poorly on white.
constexpr std::array<std::string_view, 6> palette = {"#0072B2", "#D55E00", "#009E73",
                                                     "#CC79A7", "#56B4E9", "#E69F00"};
constexpr std::string_view reference_colour = "#555555";
/// gnuplot point types that read apart (filled circle, square, triangle, inverted triangle,
/// diamond, then star and plus): seven against six colours, so the first 42 series differ in
/// colour or point or both.
constexpr std::array<int, 7> point_types = {7, 5, 9, 11, 13, 3, 1};
/// Dash patterns of solid series, a new one each time the palette comes round: solid,
/// dash-dot, dash-dot-dot, dotted (dashes alone, dt 2, are the headline series').
constexpr std::array<int, 4> dash_types = {1, 4, 5, 3};
/// Line width and point size of a solid series, and of the one drawn heavier (the chosen).
constexpr double line_width = 2;
constexpr double point_size = 0.7;
constexpr double heavy_line_width = 4.5;
constexpr double heavy_point_size = 1.1;

/// Largest picture icx reads back from gnuplot: a chart of 100,000 points is a few MiB.
constexpr std::size_t max_plot_bytes = 64 * limits::mebibyte;

const char* install_hint = "install gnuplot (Debian: sudo apt-get install gnuplot-nox) or leave "
                           "out --plot";

/// A gnuplot string literal: double quotes with \ and " escaped (and no line breaks).
std::string gnuplot_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "\"";
}

std::string style_clause(const PlotSeries& series) {
  const auto index = static_cast<std::size_t>(std::abs(series.colour));
  const std::string_view colour =
      series.style == SeriesStyle::reference ? reference_colour : palette[index % palette.size()];
  switch (series.style) {
  case SeriesStyle::solid:
    return fmt::format("with linespoints lw {} dt {} pt {} ps {} lc rgb '{}'",
                       series.heavy ? heavy_line_width : line_width,
                       dash_types[(index / palette.size()) % dash_types.size()],
                       point_types[index % point_types.size()],
                       series.heavy ? heavy_point_size : point_size, colour);
  case SeriesStyle::dashed:
    return fmt::format("with lines lw 2 dt 2 lc rgb '{}'", colour);
  case SeriesStyle::reference:
    return fmt::format("with lines lw 1.5 dt 3 lc rgb '{}'", colour);
  case SeriesStyle::points:
    return fmt::format("with points pt 6 ps 1.2 lc rgb '{}'", colour);
  }
  return {};
}

std::string terminal_line(PlotFormat format) {
  if (format == PlotFormat::svg) {
    return "set terminal svg size 960,600 dynamic enhanced font 'sans,13' background rgb "
           "'white'\n";
  }
  return "set terminal pngcairo size 1280,800 enhanced font 'sans,12' background rgb 'white'\n";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The first line of gnuplot's complaint, without its leading blanks.
std::string first_complaint(const std::string& errors) {
  std::istringstream lines(errors);
  std::string line;
  std::string last;
  while (std::getline(lines, line)) {
    const auto start = line.find_first_not_of(" \t^");
    if (start != std::string::npos) {
      last = line.substr(start);
    }
  }
  return last.empty() ? "no message" : last;
}

/// A private scratch directory, removed when it goes out of scope.
class ScratchDirectory {
public:
  ScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "icx-plot.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw UsageError("--plot: cannot create a scratch directory in " +
                       std::filesystem::temp_directory_path().string());
    }
    path_ = pattern;
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ScratchDirectory(ScratchDirectory&&) = delete;
  ScratchDirectory& operator=(ScratchDirectory&&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace

std::optional<PlotFormat> plot_format_of(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::ranges::transform(extension, extension.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".svg") {
    return PlotFormat::svg;
  }
  if (extension == ".png") {
    return PlotFormat::png;
  }
  return std::nullopt;
}

bool spans_decades(const std::vector<double>& values) {
  double low = 0;
  double high = 0;
  for (const double v : values) {
    if (std::isfinite(v) && v > 0) {
      low = low == 0 ? v : std::min(low, v);
      high = std::max(high, v);
    }
  }
  // Two decades: a linear axis would squeeze the lower hundredth into one tick.
  return low > 0 && high / low >= 100;
}

std::string gnuplot_script(const PlotSpec& merged_spec, PlotFormat format,
                           const std::string& path) {
  const PlotSpec spec = scaled_times(merge_identical_series(merged_spec));
  std::string script = terminal_line(format);
  script += fmt::format("set output {}\n", gnuplot_string(path));
  script += fmt::format("set title {} noenhanced\n", gnuplot_string(spec.title));
  script += fmt::format("set xlabel {} noenhanced\n", gnuplot_string(spec.x_label));
  script += fmt::format("set ylabel {} noenhanced\n", gnuplot_string(spec.y_label));
  // Solid grid lines (gnuplot's default grid is dotted, and cairo's PNG all but loses it),
  // fainter at the minor ticks.
  script += "set grid xtics ytics mxtics mytics lt 1 lw 1 lc rgb '#d8d8d8', lt 1 lw 0.5 lc rgb "
            "'#eeeeee'\n";
  // The legend outside the plot, to its right, one entry a line with the sample before the
  // title: no entry covers a line or the axis title.
  script += "set key outside right top vertical Left reverse noenhanced nobox\n";
  script += "set border 3\nset tics nomirror\n";
  // Log axes: x ticks with SI prefixes (100, 1k, 10k, 1M for tokens and bytes), y in plain
  // decimals (0.001, 0.01 … seconds and GB/s, where "1m" could read as minutes).
  if (spec.log_x) {
    script += "set logscale x 10\nset format x \"%.0s%c\"\n";
  }
  if (spec.log_y) {
    script += "set logscale y 10\nset format y \"%g\"\n";
  }
  if (spec.x_bytes) {
    script += byte_tics(spec);
  }
  std::vector<std::string> clauses;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& series = spec.series[i];
    std::string block;
    for (const auto& point : series.points) {
      if (drawable(spec, point)) {
        block += fmt::format("{:.9g} {:.9g}\n", point.first, point.second);
      }
    }
    if (block.empty()) {
      continue;
    }
    script += fmt::format("$s{} << EOD\n{}EOD\n", i, block);
    clauses.push_back(fmt::format("$s{} using 1:2 {} title {}", i, style_clause(series),
                                  gnuplot_string(series.title)));
  }
  for (const PlotLevel& level : spec.levels) {
    if (std::isfinite(level.value) && (!spec.log_y || level.value > 0)) {
      clauses.push_back(fmt::format("{:.9g} with lines lw 1.5 dt 4 lc rgb '{}' title {}",
                                    level.value, reference_colour, gnuplot_string(level.title)));
    }
  }
  if (!clauses.empty()) {
    script += "plot ";
    for (std::size_t i = 0; i < clauses.size(); ++i) {
      script += (i == 0 ? "" : ", \\\n     ") + clauses[i];
    }
    script += "\n";
  }
  script += "unset output\n";
  return script;
}

std::optional<std::string> find_gnuplot() {
  if (const char* chosen = process_environment("ICX_GNUPLOT"); chosen != nullptr && *chosen) {
    return ::access(chosen, X_OK) == 0 ? std::optional<std::string>(chosen) : std::nullopt;
  }
  const char* path = process_environment("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? "." : std::string(dir)) / "gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate.string();
    }
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return std::nullopt;
}

void require_plot(const std::string& path) {
  if (!plot_format_of(path)) {
    throw UsageError(fmt::format("--plot {}: give a file name ending in .svg or .png", path));
  }
  if (!find_gnuplot()) {
    throw UsageError(fmt::format("--plot {}: gnuplot was not found; {}", path, install_hint));
  }
}

std::string render_plot(const PlotSpec& spec, PlotFormat format) {
  const std::optional<std::string> gnuplot = find_gnuplot();
  if (!gnuplot) {
    throw UsageError(fmt::format("--plot: gnuplot was not found; {}", install_hint));
  }
  const bool empty = std::ranges::none_of(spec.series, [&](const PlotSeries& series) {
    return std::ranges::any_of(series.points, [&](const auto& p) { return drawable(spec, p); });
  });
  if (empty) {
    throw UsageError("--plot: nothing to draw: no point of the sweep has a value for the chart");
  }
  const ScratchDirectory scratch;
  const std::filesystem::path picture = scratch.path() / "plot";
  const std::filesystem::path script_file = scratch.path() / "plot.gp";
  const std::filesystem::path errors = scratch.path() / "errors.txt";
  {
    std::ofstream out(script_file, std::ios::binary);
    out << gnuplot_script(spec, format, picture.string());
  }
  const std::string command =
      fmt::format("{} {} >/dev/null 2>{}", shell_quoted(*gnuplot),
                  shell_quoted(script_file.string()), shell_quoted(errors.string()));
  const int status = std::system(command.c_str()); // NOLINT(cert-env33-c): a fixed program
  if (status != 0 || !std::filesystem::exists(picture)) {
    throw UsageError(fmt::format("--plot: gnuplot failed: {}", first_complaint(read_file(errors))));
  }
  std::string bytes = read_file(picture);
  if (bytes.empty() || bytes.size() > max_plot_bytes) {
    throw UsageError("--plot: gnuplot wrote no picture");
  }
  return bytes;
}

void write_plot(const PlotSpec& spec, const std::string& path) {
  require_plot(path);
  const std::string bytes = render_plot(spec, *plot_format_of(path));
  try {
    write_text_file_atomically(path, bytes, {});
  } catch (const InputError& error) {
    throw UsageError(fmt::format("--plot {}", error.what()));
  }
}

} // namespace icx::cli
