#include "page/page.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "options/common.hpp"

namespace icx::cli {

namespace {

constexpr std::string_view style_sheet = R"(
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { margin-bottom: 0.2em; }
p.subtitle { color: #555; margin-top: 0; }
nav a { margin-right: 1em; }
section { margin-top: 2em; border-top: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 0.5em; border-radius: 0.6em; font-weight: bold; }
.badge.ok { background: #d8f0dc; color: #1b5e20; }
.badge.marginal { background: #fff0c2; color: #6b4e00; }
.badge.avoid { background: #fbd9d9; color: #8b1a1a; }
.flag, code { white-space: nowrap; font-family: monospace; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
p.missing { background: #fff4d6; border: 1px solid #e0c060; padding: 0.6em; }
ul.notes { color: #555; font-size: 0.9em; }
p.remark { margin-top: -0.3em; font-size: 0.9em; max-width: 60em; }
footer { margin-top: 3em; border-top: 2px solid #999; color: #444; font-size: 0.9em; }
footer code { white-space: pre-wrap; word-break: break-all; background: #f4f4f4; padding: 0.1em 0.3em; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  nav { display: none; }
  section { break-before: auto; }
  table, figure, tr { break-inside: avoid; }
  th { background: none; }
}
)";

/// A figure: a number, optionally with a unit or scale ("441 ms", "37 %", "1.2 k", "64 GB/s").
bool figure_cell(const std::string& cell) {
  static const std::regex figure(
      R"(-|[-+]?[0-9][0-9.,]*( ?(%|×|[kMGTP]|[kMGTP]?i?B(/s)?|[µnm]?s))?)");
  return std::regex_match(cell, figure);
}

/// Columns whose every cell is a figure (or "-"), right-aligned; a column of dashes is not.
std::vector<bool> numeric_columns(const PageTable& table) {
  std::vector<bool> numeric(table.headers.size(), !table.rows.empty());
  std::vector<bool> any(table.headers.size(), false);
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size() && i < numeric.size(); ++i) {
      numeric[i] = numeric[i] && figure_cell(row[i]);
      any[i] = any[i] || row[i] != "-";
    }
  }
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    numeric[i] = numeric[i] && any[i];
  }
  return numeric;
}

/// A verdict as a coloured badge; any other cell as text.
std::string cell_html(const std::string& header, const std::string& cell) {
  if (header == "verdict" && (cell == "ok" || cell == "marginal" || cell == "avoid")) {
    return fmt::format("<span class=\"badge {0}\">{0}</span>", cell);
  }
  return html_text(cell);
}

void append_table(std::string& out, const PageTable& table) {
  out += "<table>";
  if (!table.caption.empty()) {
    out += fmt::format("<caption>{}</caption>", html_escape(table.caption));
  }
  const std::vector<bool> numeric = numeric_columns(table);
  const auto cls = [&](std::size_t i) {
    return i < numeric.size() && numeric[i] ? " class=\"num\"" : "";
  };
  out += "<thead><tr>";
  for (std::size_t i = 0; i < table.headers.size(); ++i) {
    out += fmt::format("<th{}>{}</th>", cls(i), html_escape(table.headers[i]));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string& header = i < table.headers.size() ? table.headers[i] : std::string();
      out += fmt::format("<td{}>{}</td>", cls(i), cell_html(header, row[i]));
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  for (const std::string& remark : table.remarks) {
    out += fmt::format("<p class=\"remark\">{}</p>\n", html_text(remark));
  }
}

/// The chart's points as a table: one row per x, one column per series.
PageTable data_table(const PlotSpec& spec) {
  PageTable table{"Data of the chart", {spec.x_label}, {}};
  std::map<double, std::vector<std::string>> rows;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    table.headers.push_back(spec.series[i].title);
    for (const auto& [x, y] : spec.series[i].points) {
      auto& row = rows[x];
      row.resize(spec.series.size(), "-");
      row[i] = format_seconds(Seconds::of(y));
    }
  }
  for (auto& [x, cells] : rows) {
    cells.resize(spec.series.size(), "-");
    std::vector<std::string> row{fmt::format("{:g}", x)};
    row.insert(row.end(), cells.begin(), cells.end());
    table.rows.push_back(std::move(row));
  }
  return table;
}

void append_chart(std::string& out, const PageChart& chart) {
  out += "<figure>\n";
  if (chart.svg) {
    out += *chart.svg;
    out += "\n";
  } else {
    out += fmt::format("<figcaption>{}</figcaption>\n<p class=\"missing\">{}</p>\n",
                       html_escape(chart.spec.title), html_escape(chart.missing));
  }
  out += "<details><summary>data</summary>\n";
  append_table(out, data_table(chart.spec));
  out += "</details></figure>\n";
}

void append_section(std::string& out, const PageSection& section) {
  out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", html_escape(section.id),
                     html_escape(section.heading));
  for (const std::string& paragraph : section.paragraphs) {
    out += fmt::format("<p>{}</p>\n", html_text(paragraph));
  }
  for (const PageTable& table : section.tables) {
    append_table(out, table);
  }
  for (const PageChart& chart : section.charts) {
    append_chart(out, chart);
  }
  if (!section.notes.empty()) {
    out += "<ul class=\"notes\">\n";
    for (const std::string& note : section.notes) {
      out += fmt::format("<li>{}</li>\n", html_text(note));
    }
    out += "</ul>\n";
  }
  out += "</section>\n";
}

void append_footer(std::string& out, const PageFooter& footer) {
  out += "<footer id=\"provenance\">\n<h2>Provenance</h2>\n";
  for (const std::string& line : footer.lines) {
    out += fmt::format("<p>{}</p>\n", html_text(line));
  }
  out += fmt::format("<p>Command: <code class=\"command\">{}</code></p>\n",
                     html_escape(footer.command));
  if (!footer.sources.rows.empty()) {
    append_table(out, footer.sources);
  }
  out += "</footer>\n";
}

} // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string inline_svg(std::string_view svg) {
  const std::size_t start = svg.find("<svg");
  return std::string(start == std::string_view::npos ? svg : svg.substr(start));
}

std::string render_html(const ReportPage& page) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     html_escape(page.title), style_sheet);
  out += fmt::format("<h1>{}</h1>\n<p class=\"subtitle\">{}</p>\n<nav>", html_escape(page.title),
                     html_escape(page.subtitle));
  for (const PageSection& section : page.sections) {
    out += fmt::format("<a href=\"#{}\">{}</a>", html_escape(section.id),
                       html_escape(section.heading));
  }
  out += "</nav>\n";
  for (const PageSection& section : page.sections) {
    append_section(out, section);
  }
  append_footer(out, page.footer);
  out += "</body>\n</html>\n";
  return out;
}

std::string html_text(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t flag = text.find("--", at);
    if (flag == std::string_view::npos) {
      break;
    }
    std::size_t end = flag + 2;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                 text[end] == '-' || text[end] == '_')) {
      ++end;
    }
    const bool word_start =
        flag == 0 || std::isalnum(static_cast<unsigned char>(text[flag - 1])) == 0;
    if (end == flag + 2 || !word_start) {
      out += html_escape(text.substr(at, end - at));
      at = end;
      continue;
    }
    out += html_escape(text.substr(at, flag - at));
    out +=
        fmt::format("<span class=\"flag\">{}</span>", html_escape(text.substr(flag, end - flag)));
    at = end;
  }
  return out + html_escape(text.substr(std::min(at, text.size())));
}

std::string prefixed_ids(std::string_view svg, std::string_view prefix) {
  std::string out(svg);
  // gnuplot quotes its attributes with " or ' (its point symbols: id='gpDot', href='#gpPt3').
  for (const std::string_view opener : {"id=\"", "id='", "href=\"#", "href='#", "url(#"}) {
    std::size_t at = 0;
    while ((at = out.find(opener, at)) != std::string::npos) {
      at += opener.size();
      out.insert(at, prefix);
      at += prefix.size();
    }
  }
  return out;
}

bool draw_charts(ReportPage& page) {
  const bool found = find_gnuplot().has_value();
  std::size_t drawn = 0;
  for (PageSection& section : page.sections) {
    for (PageChart& chart : section.charts) {
      if (!found) {
        chart.missing = std::string(no_gnuplot_text);
        continue;
      }
      try {
        ++drawn;
        chart.svg = prefixed_ids(inline_svg(render_plot(chart.spec, PlotFormat::svg)),
                                 fmt::format("chart{}-", drawn));
      } catch (const UsageError& error) {
        chart.missing = fmt::format("This chart could not be drawn: {}", error.what());
      }
    }
  }
  return found;
}

Json report_document(const ReportPage& page) {
  Json doc = json_document("icx.report/1");
  doc["title"] = page.title;
  doc["subtitle"] = page.subtitle;
  Json sections = Json::array();
  for (const PageSection& section : page.sections) {
    Json s;
    s["id"] = section.id;
    s["heading"] = section.heading;
    s["paragraphs"] = section.paragraphs;
    Json tables = Json::array();
    for (const PageTable& table : section.tables) {
      tables.push_back({{"caption", table.caption},
                        {"headers", table.headers},
                        {"rows", table.rows},
                        {"remarks", table.remarks}});
    }
    s["tables"] = std::move(tables);
    Json charts = Json::array();
    for (const PageChart& chart : section.charts) {
      Json c;
      c["title"] = chart.spec.title;
      c["x_label"] = chart.spec.x_label;
      c["y_label"] = chart.spec.y_label;
      c["log_x"] = chart.spec.log_x;
      c["log_y"] = chart.spec.log_y;
      Json series = Json::array();
      for (const PlotSeries& line : chart.spec.series) {
        Json points = Json::array();
        for (const auto& [x, y] : line.points) {
          points.push_back(Json::array({json_number(x), json_number(y)}));
        }
        series.push_back({{"title", line.title}, {"points", std::move(points)}});
      }
      c["series"] = std::move(series);
      charts.push_back(std::move(c));
    }
    s["charts"] = std::move(charts);
    s["notes"] = section.notes;
    sections.push_back(std::move(s));
  }
  doc["sections"] = std::move(sections);
  return doc;
}

} // namespace icx::cli
