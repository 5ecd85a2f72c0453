#include "output/plot_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace icx::cli {

bool drawable(const PlotSpec& spec, const std::pair<double, double>& point) {
  const auto [x, y] = point;
  return std::isfinite(x) && std::isfinite(y) && (!spec.log_x || x > 0) && (!spec.log_y || y > 0);
}

namespace {

/// "32", "1K", "32M", "1G": a power of two as nccl-tests and the tables print sizes.
std::string binary_label(double bytes) {
  static constexpr std::array<std::string_view, 5> prefixes = {"", "K", "M", "G", "T"};
  std::size_t prefix = 0;
  while (bytes >= 1024 && prefix + 1 < prefixes.size()) {
    bytes /= 1024;
    ++prefix;
  }
  return fmt::format("{:g}{}", bytes, prefixes[prefix]);
}

} // namespace

std::string byte_tics(const PlotSpec& spec) {
  double low = 0;
  double high = 0;
  for (const PlotSeries& series : spec.series) {
    for (const auto& point : series.points) {
      if (drawable(spec, point) && point.first > 0) {
        low = low == 0 ? point.first : std::min(low, point.first);
        high = std::max(high, point.first);
      }
    }
  }
  if (low <= 0) {
    return {};
  }
  constexpr int most_tics = 10;
  constexpr int crowded_step = 5; // 2^5 = 32: 1, 32, 1K, 32K, …
  const int first = static_cast<int>(std::ceil(std::log2(low)));
  const int last = static_cast<int>(std::floor(std::log2(high)));
  const int step = last - first + 1 > most_tics ? crowded_step : 1;
  std::vector<std::string> tics;
  for (int exponent = first; exponent <= last; ++exponent) {
    if (exponent % step == 0) {
      const double value = std::ldexp(1.0, exponent);
      tics.push_back(fmt::format("\"{}\" {:.17g}", binary_label(value), value));
    }
  }
  return tics.empty() ? std::string() : fmt::format("set xtics ({})\n", fmt::join(tics, ", "));
}

PlotSpec scaled_times(PlotSpec spec) {
  if (!spec.y_seconds) {
    return spec;
  }
  double high = 0;
  for (const PlotSeries& series : spec.series) {
    for (const auto& point : series.points) {
      if (drawable(spec, point)) {
        high = std::max(high, std::abs(point.second));
      }
    }
  }
  struct Unit {
    double below;
    double factor;
    std::string_view name;
  };
  static constexpr std::array<Unit, 2> units = {{{1e-3, 1e6, "µs"}, {1, 1e3, "ms"}}};
  const auto unit = std::ranges::find_if(units, [&](const Unit& u) { return high < u.below; });
  if (high <= 0 || unit == units.end()) {
    return spec;
  }
  for (PlotSeries& series : spec.series) {
    for (auto& point : series.points) {
      point.second *= unit->factor;
    }
  }
  for (PlotLevel& level : spec.levels) {
    level.value *= unit->factor;
  }
  if (spec.y_label.ends_with("(s)")) {
    spec.y_label =
        fmt::format("{}({})", spec.y_label.substr(0, spec.y_label.size() - 3), unit->name);
  }
  return spec;
}

PlotSpec merge_identical_series(PlotSpec spec) {
  std::vector<PlotSeries> kept;
  for (PlotSeries& series : spec.series) {
    const auto same = std::ranges::find_if(kept, [&](const PlotSeries& k) {
      return k.style == series.style && k.heavy == series.heavy && k.points == series.points;
    });
    if (same != kept.end() && !series.points.empty()) {
      same->title += ", " + series.title;
    } else {
      kept.push_back(std::move(series));
    }
  }
  spec.series = std::move(kept);
  return spec;
}

} // namespace icx::cli
