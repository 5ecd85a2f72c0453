// The page 'icx report' writes: sections of paragraphs, tables and charts, rendered as one
// self-contained HTML file (inline CSS and SVG, nothing fetched) or as the icx.report/1
// document of the same contents.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/json_values.hpp"
#include "output/plot.hpp"

namespace icx::cli {

struct PageTable {
  std::string caption;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  /// Paragraphs under the table about its rows (why one ranks where it does).
  std::vector<std::string> remarks = {};
};

struct PageChart {
  PlotSpec spec;
  /// The SVG gnuplot drew, without its XML prolog; absent: `missing` says why.
  std::optional<std::string> svg;
  std::string missing;
};

struct PageSection {
  /// The anchor, "layouts".
  std::string id;
  std::string heading;
  std::vector<std::string> paragraphs;
  std::vector<PageTable> tables;
  std::vector<PageChart> charts;
  /// Lines under the section: what was assumed, points that could not be computed.
  std::vector<std::string> notes;
};

/// What made the page and what its figures come from (HTML only: the JSON document has the
/// same figures and no build or time, so it stays the same from one build to the next).
struct PageFooter {
  /// "Made by icx 0.1.0 (commit …, catalog …) on 2026-12-05 01:40 UTC.", the config file.
  std::vector<std::string> lines;
  /// The command line that made the page, as a shell reads it back.
  std::string command;
  /// Each catalog entry used: kind, id, source.
  PageTable sources;
};

struct ReportPage {
  std::string title;
  std::string subtitle;
  std::vector<PageSection> sections;
  PageFooter footer;
};

/// `text` with &, <, >, " and ' replaced by their entities.
std::string html_escape(std::string_view text);

/// `svg` from its first "<svg" on: gnuplot's XML prolog and doctype are not valid inside HTML.
std::string inline_svg(std::string_view svg);

/// The whole page: every text escaped, each chart inline or, when it is missing, a note in its
/// place, with its data as a table beneath.
std::string render_html(const ReportPage& page);

/// What a chart shows in its place when gnuplot is not installed.
inline constexpr std::string_view no_gnuplot_text =
    "This chart needs gnuplot, which was not found: install it (Debian: sudo apt-get install "
    "gnuplot-nox) and run icx report again. Its data is in the table below.";

/// `text` escaped for HTML, with each flag ("--impl") kept on one line.
std::string html_text(std::string_view text);

/// `svg` with every id it defines and every reference to one prefixed by `prefix`, so several
/// charts inline in one page do not share ids.
std::string prefixed_ids(std::string_view svg, std::string_view prefix);

/// Draws every chart of `page` with gnuplot as inline SVG; a chart gnuplot cannot draw gets
/// the reason in its place. Returns false when gnuplot is not installed (every chart then
/// says how to install it).
bool draw_charts(ReportPage& page);

/// "icx.report/1": title, subtitle and sections[] {id, heading, paragraphs, tables[] {caption,
/// headers, rows, remarks}, charts[] {title, x_label, y_label, log_x, log_y, series[] {title,
/// points
/// [[x, y]…]}}, notes}.
Json report_document(const ReportPage& page);

} // namespace icx::cli
