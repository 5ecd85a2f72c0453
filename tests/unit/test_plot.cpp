// The gnuplot script icx writes for a chart: checked as text (the picture itself is checked by
// the golden and shell tests that run gnuplot).
#include <string>

#include <gtest/gtest.h>

#include "output/plot.hpp"

namespace icx::cli {
namespace {

PlotSpec two_series() {
  PlotSpec spec;
  spec.title = "a \"quoted\" title";
  spec.x_label = "prompt tokens per sequence";
  spec.y_label = "time per pass (s)";
  spec.log_x = true;
  spec.log_y = false;
  spec.series.push_back({"nvlink4 expected", SeriesStyle::solid, 0, {{256, 1e-3}, {512, 2e-3}}});
  spec.series.push_back({"nvlink4 headline", SeriesStyle::dashed, 0, {{256, 5e-4}, {-1, 2}}});
  spec.series.push_back({"empty", SeriesStyle::points, 1, {}});
  spec.levels.push_back({"budget", 0.5});
  return spec;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(Plot, ScriptHasAxesSeriesAndStyles) {
  const std::string script = gnuplot_script(two_series(), PlotFormat::svg, "/tmp/a'b.svg");
  EXPECT_NE(script.find("set terminal svg"), std::string::npos);
  EXPECT_NE(script.find("set output \"/tmp/a'b.svg\""), std::string::npos);
  EXPECT_NE(script.find("set title \"a \\\"quoted\\\" title\""), std::string::npos);
  EXPECT_NE(script.find("set xlabel \"prompt tokens per sequence\""), std::string::npos);
  EXPECT_NE(script.find("set ylabel \"time per pass (s)\""), std::string::npos);
  EXPECT_NE(script.find("set logscale x 10"), std::string::npos);
  EXPECT_EQ(script.find("set logscale y"), std::string::npos);
  // Two drawn series (the empty one is left out) and the level line.
  EXPECT_EQ(count(script, "<< EOD"), 2U);
  EXPECT_EQ(count(script, "title \""), 3U + 1U); // three clauses and the chart title
  // The headline is dashed in the expected series' colour; the negative x is dropped on the
  // log axis.
  EXPECT_NE(script.find("dt 2 lc rgb '#0072B2' title \"nvlink4 headline\""), std::string::npos);
  EXPECT_EQ(script.find("\n-1 2\n"), std::string::npos);
  EXPECT_NE(script.find("0.5 with lines"), std::string::npos);
}

TEST(Plot, FormatFromTheFileName) {
  EXPECT_EQ(plot_format_of("tp.svg"), PlotFormat::svg);
  EXPECT_EQ(plot_format_of("dir.x/BUSBW.PNG"), PlotFormat::png);
  EXPECT_FALSE(plot_format_of("tp.pdf"));
  EXPECT_FALSE(plot_format_of("svg"));
}

TEST(Plot, DecadesDecideLogAxes) {
  EXPECT_TRUE(spans_decades({256, 65536}));
  EXPECT_FALSE(spans_decades({1, 99}));
  EXPECT_TRUE(spans_decades({0, -3, 1e-6, 1e-4}));
  EXPECT_FALSE(spans_decades({}));
}

} // namespace
} // namespace icx::cli
