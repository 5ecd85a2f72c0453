// The report page as HTML: every inserted text escaped, the sections and their tables in
// order, charts inline without their XML prolog, and a note in place of a chart not drawn.
#include <string>

#include <gtest/gtest.h>

#include "page/page.hpp"

namespace icx::cli::unit_report_page {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

ReportPage sample_page() {
  PageSection first{"deployment",   "Deployment <of> \"A & B\"", {"a 'quoted' <b>line</b>"}, {}, {},
                    {"note & more"}};
  first.tables.push_back({"what", {"item", "value"}, {{"model", "<script>x</script>"}}});
  PageSection second{"curves", "Curves", {}, {}, {}, {}};
  PlotSpec spec;
  spec.title = "TTFT <by> tokens";
  spec.x_label = "prompt tokens";
  spec.y_label = "TTFT (s)";
  spec.series.push_back({"TP 8", SeriesStyle::solid, 0, {{256, 0.5}, {512, 1.0}}});
  spec.series.push_back({"TP 4 × PP 2", SeriesStyle::solid, 1, {{512, 2.0}}});
  second.charts.push_back({spec, std::string("<svg width=\"10\"></svg>"), {}});
  second.charts.push_back({spec, std::nullopt, "install gnuplot & retry"});
  PageSection third{"layouts", "Layouts", {}, {}, {}, {}};
  third.tables.push_back({"ranked",
                          {"#", "layout", "TTFT", "verdict"},
                          {{"1", "TP 8", "441 ms", "marginal"}, {"2", "PP 8", "1.2 s", "avoid"}},
                          {"#2 is below: see --top"}});
  PageFooter footer{{"Made by icx."},
                    "icx report --model 70b -o 'a b.html'",
                    {"sources", {"entry", "id", "source"}, {{"GPU", "h100-sxm", "datasheet"}}}};
  return {"Review <1>", "sub & title", {first, second, third}, footer};
}

TEST(HtmlEscape, ReplacesTheFiveSpecialCharacters) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("plain × text"), "plain × text");
  EXPECT_EQ(html_escape(""), "");
}

TEST(InlineSvg, DropsTheXmlPrologAndDoctype) {
  EXPECT_EQ(inline_svg("<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg a=\"1\"></svg>\n"),
            "<svg a=\"1\"></svg>\n");
  EXPECT_EQ(inline_svg("<svg></svg>"), "<svg></svg>");
}

TEST(RenderHtml, EscapesEveryInsertedText) {
  const std::string html = render_html(sample_page());
  EXPECT_EQ(count(html, "<script"), 0U);
  EXPECT_NE(html.find("<td>&lt;script&gt;x&lt;/script&gt;</td>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Deployment &lt;of&gt; &quot;A &amp; B&quot;</h2>"), std::string::npos);
  EXPECT_NE(html.find("<p>a &#39;quoted&#39; &lt;b&gt;line&lt;/b&gt;</p>"), std::string::npos);
  EXPECT_NE(html.find("<title>Review &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("<li>note &amp; more</li>"), std::string::npos);
}

TEST(RenderHtml, HasTheSectionsInOrderAndTheChartsInline) {
  const std::string html = render_html(sample_page());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_EQ(count(html, "<section "), 3U);
  EXPECT_LT(html.find("id=\"deployment\""), html.find("id=\"curves\""));
  // One chart drawn inline, one replaced by its note; both with their data as a table.
  EXPECT_EQ(count(html, "<svg"), 1U);
  EXPECT_NE(html.find("<p class=\"missing\">install gnuplot &amp; retry</p>"), std::string::npos);
  EXPECT_EQ(count(html, "<details>"), 2U);
  // The data table: one row per x, "-" where a series has no point.
  EXPECT_NE(html.find("<tr><td class=\"num\">256</td><td class=\"num\">500 ms</td><td "
                      "class=\"num\">-</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td class=\"num\">512</td><td class=\"num\">1 s</td><td "
                      "class=\"num\">2 s</td></tr>"),
            std::string::npos);
  // Nothing fetched from elsewhere: no script, no external source or link.
  EXPECT_EQ(count(html, "http://"), 0U);
  EXPECT_EQ(count(html, "https://"), 0U);
  EXPECT_EQ(count(html, "<link"), 0U);
}

TEST(RenderHtml, FiguresRightVerdictsAsBadgesRemarksUnderTheTable) {
  const std::string html = render_html(sample_page());
  // "#", "TTFT" are figures in every row; "layout" and "verdict" are words.
  EXPECT_NE(html.find("<tr><td class=\"num\">1</td><td>TP 8</td><td class=\"num\">441 ms</td>"
                      "<td><span class=\"badge marginal\">marginal</span></td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge avoid\">avoid</span>"), std::string::npos);
  EXPECT_LT(
      html.find("<td class=\"num\">1.2 s</td>"),
      html.find("<p class=\"remark\">#2 is below: see <span class=\"flag\">--top</span></p>"));
}

TEST(RenderHtml, EndsWithTheFooter) {
  const std::string html = render_html(sample_page());
  const std::size_t footer = html.find("<footer id=\"provenance\">");
  ASSERT_NE(footer, std::string::npos);
  EXPECT_GT(footer, html.rfind("</section>"));
  EXPECT_NE(html.find("<p>Made by icx.</p>"), std::string::npos);
  // The command as typed, escaped, its flags not wrapped (it is one code element).
  EXPECT_NE(
      html.find("<code class=\"command\">icx report --model 70b -o &#39;a b.html&#39;</code>"),
      std::string::npos);
  EXPECT_NE(html.find("<td>h100-sxm</td><td>datasheet</td>"), std::string::npos);
}

TEST(HtmlText, KeepsEachFlagOnOneLine) {
  EXPECT_EQ(html_text("give --impl nccl or --tp 8"),
            "give <span class=\"flag\">--impl</span> nccl or <span class=\"flag\">--tp</span> 8");
  EXPECT_EQ(html_text("(--act-dtype, --kv-dtype)"),
            "(<span class=\"flag\">--act-dtype</span>, <span class=\"flag\">--kv-dtype</span>)");
  // Not flags: inside a word, a bare "--", and the text around them is still escaped.
  EXPECT_EQ(html_text("a--b -- <c>"), "a--b -- &lt;c&gt;");
  EXPECT_EQ(html_text("--"), "--");
  EXPECT_EQ(html_text(""), "");
}

TEST(PrefixedIds, EveryDefinitionAndReference) {
  EXPECT_EQ(prefixed_ids("<g id=\"a\"><use xlink:href='#gpPt1'/><path id='gpDot' "
                         "fill=\"url(#grad)\"/><a href=\"#a\"/></g>",
                         "c2-"),
            "<g id=\"c2-a\"><use xlink:href='#c2-gpPt1'/><path id='c2-gpDot' "
            "fill=\"url(#c2-grad)\"/><a href=\"#c2-a\"/></g>");
}

TEST(ReportDocument, CarriesTheContentsOfThePage) {
  const Json doc = report_document(sample_page());
  EXPECT_EQ(doc["schema"], "icx.report/1");
  ASSERT_EQ(doc["sections"].size(), 3U);
  EXPECT_EQ(doc["sections"][2]["tables"][0]["remarks"][0], "#2 is below: see --top");
  EXPECT_FALSE(doc.contains("footer"));
  EXPECT_EQ(doc["sections"][0]["id"], "deployment");
  EXPECT_EQ(doc["sections"][0]["tables"][0]["rows"][0][1], "<script>x</script>");
  const Json& series = doc["sections"][1]["charts"][0]["series"];
  ASSERT_EQ(series.size(), 2U);
  EXPECT_EQ(series[0]["title"], "TP 8");
  EXPECT_DOUBLE_EQ(series[0]["points"][1][1].get<double>(), 1.0);
}

} // namespace
} // namespace icx::cli::unit_report_page
