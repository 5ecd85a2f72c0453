// The gnuplot script icx writes for a chart: checked as text (the picture itself is checked by
// the golden and shell tests that run gnuplot).
#include <string>

#include <gtest/gtest.h>

#include "output/plot.hpp"
#include "output/plot_data.hpp"

namespace icx::cli::unit_plot {
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

TEST(Plot, SolidSeriesDifferInColourPointOrDashes) {
  PlotSpec spec;
  // Thirteen solid series: the palette has six colours, so series 0, 6 and 12 share one and
  // must differ by point type (seven of them) and, past the palette, dash pattern.
  for (int i = 0; i < 13; ++i) {
    spec.series.push_back(
        {"layout " + std::to_string(i), SeriesStyle::solid, i, {{1, 1.0 + i}, {2, 2.0 + i}}});
  }
  const std::string script = gnuplot_script(spec, PlotFormat::svg, "x.svg");
  EXPECT_NE(script.find("dt 1 pt 7 ps 0.7 lc rgb '#0072B2' title \"layout 0\""), std::string::npos);
  EXPECT_NE(script.find("dt 4 pt 1 ps 0.7 lc rgb '#0072B2' title \"layout 6\""), std::string::npos);
  EXPECT_NE(script.find("dt 5 pt 3 ps 0.7 lc rgb '#0072B2' title \"layout 12\""),
            std::string::npos);
}

TEST(Plot, IdenticalSeriesAreDrawnOnceUnderBothNames) {
  PlotSpec spec;
  spec.series.push_back({"TP 8", SeriesStyle::solid, 0, {{1, 2}, {2, 3}}});
  spec.series.push_back({"TP 4 × DP 2", SeriesStyle::solid, 1, {{1, 2.5}}});
  spec.series.push_back({"PP 8", SeriesStyle::solid, 2, {{1, 2}, {2, 3}}});
  const PlotSpec merged = merge_identical_series(spec);
  ASSERT_EQ(merged.series.size(), 2U);
  EXPECT_EQ(merged.series[0].title, "TP 8, PP 8");
  EXPECT_EQ(merged.series[1].title, "TP 4 × DP 2");
}

TEST(Plot, TimesAreDrawnInTheUnitTheirRangeNeeds) {
  PlotSpec spec;
  spec.y_label = "time per pass (s)";
  spec.y_seconds = true;
  spec.series.push_back({"a", SeriesStyle::solid, 0, {{1, 2e-5}, {2, 4e-4}}});
  spec.levels.push_back({"budget", 5e-4});
  const PlotSpec micro = scaled_times(spec);
  EXPECT_EQ(micro.y_label, "time per pass (µs)");
  EXPECT_DOUBLE_EQ(micro.series[0].points[1].second, 400);
  EXPECT_DOUBLE_EQ(micro.levels[0].value, 500);
  spec.series[0].points.emplace_back(3, 0.25);
  EXPECT_EQ(scaled_times(spec).y_label, "time per pass (ms)");
  spec.series[0].points.emplace_back(4, 3);
  EXPECT_EQ(scaled_times(spec).y_label, "time per pass (s)");
}

TEST(Plot, ByteAxesTickAtPowersOfTwoAsNcclTestsPrintsThem) {
  PlotSpec spec;
  spec.log_x = true;
  spec.x_bytes = true;
  // 8 B to 8 GiB: 31 powers of two, so every 32nd (2^5): 32, 1K, 32K, 1M, 32M, 1G.
  spec.series.push_back({"busbw", SeriesStyle::solid, 0, {{8, 1}, {8.0 * (1U << 30U), 400}}});
  EXPECT_EQ(byte_tics(spec), "set xtics (\"32\" 32, \"1K\" 1024, \"32K\" 32768, \"1M\" "
                             "1048576, \"32M\" 33554432, \"1G\" 1073741824)\n");
  // 1 KiB to 64 KiB: every power of two.
  spec.series[0].points = {{1024, 1}, {65536, 2}};
  EXPECT_EQ(byte_tics(spec), "set xtics (\"1K\" 1024, \"2K\" 2048, \"4K\" 4096, \"8K\" 8192, "
                             "\"16K\" 16384, \"32K\" 32768, \"64K\" 65536)\n");
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
} // namespace icx::cli::unit_plot
