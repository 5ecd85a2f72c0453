#include "page/page.hpp"

#include <algorithm>
#include <map>

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
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
th { background: #f2f2f2; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
p.missing { background: #fff4d6; border: 1px solid #e0c060; padding: 0.6em; }
ul.notes { color: #555; font-size: 0.9em; }
)";

void append_table(std::string& out, const PageTable& table) {
  out += "<table>";
  if (!table.caption.empty()) {
    out += fmt::format("<caption>{}</caption>", html_escape(table.caption));
  }
  out += "<thead><tr>";
  for (const std::string& header : table.headers) {
    out += fmt::format("<th>{}</th>", html_escape(header));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const std::string& cell : row) {
      out += fmt::format("<td>{}</td>", html_escape(cell));
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
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
    out += fmt::format("<p>{}</p>\n", html_escape(paragraph));
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
      out += fmt::format("<li>{}</li>\n", html_escape(note));
    }
    out += "</ul>\n";
  }
  out += "</section>\n";
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
  out += "</body>\n</html>\n";
  return out;
}

bool draw_charts(ReportPage& page) {
  const bool found = find_gnuplot().has_value();
  for (PageSection& section : page.sections) {
    for (PageChart& chart : section.charts) {
      if (!found) {
        chart.missing = std::string(no_gnuplot_text);
        continue;
      }
      try {
        chart.svg = inline_svg(render_plot(chart.spec, PlotFormat::svg));
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
      tables.push_back(
          {{"caption", table.caption}, {"headers", table.headers}, {"rows", table.rows}});
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
