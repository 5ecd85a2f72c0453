#include "output/output.hpp"

#include <cmath>
#include <unistd.h>

#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "output/terminal.hpp"

namespace icx::cli {

namespace {

void flatten(const Json& value, const std::string& prefix, Json& into) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      flatten(item, prefix.empty() ? key : prefix + "." + key, into);
    }
  } else {
    into[prefix] = value;
  }
}

std::string csv_cell(const Json& value) {
  std::string text;
  if (value.is_null()) {
    return "";
  }
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_array()) {
    for (const Json& item : value) {
      text +=
          (text.empty() ? "" : ";") + (item.is_string() ? item.get<std::string>() : item.dump());
    }
  } else {
    text = value.dump();
  }
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

Json derivations_json(const Derivations& derivations) {
  Json array = Json::array();
  for (const Derivation& d : derivations) {
    array.push_back(
        {{"quantity", d.quantity}, {"formula", d.formula}, {"value", json_number(d.value)}});
  }
  return array;
}

} // namespace

Style style_of(const OutputOptions& options) {
  Style style;
  style.format = options.json ? Format::json : options.format;
  Terminal& term = terminal();
  term.ascii = term.ascii || options.ascii;
  term.wrap = style.format == Format::table;
  style.color = style.format == Format::table &&
                use_color(options.color, isatty(STDOUT_FILENO) == 1, process_environment);
  style.ascii = term.ascii;
  style.width = term.wrap ? term.width : std::nullopt;
  style.explain = options.explain;
  style.wide = options.wide;
  return style;
}

std::string fit_table(const Style& style, const TextTable& table) {
  const TableFit fit{style.wide ? std::nullopt : style.width, style.ascii};
  std::string out = table.render(fit);
  std::vector<std::string> dropped = table.dropped(fit);
  std::erase(dropped, std::string()); // a bar chart's column has no name to give
  if (!dropped.empty()) {
    out += fmt::format("left out to fit {} columns: {} (--wide shows {})\n", *fit.width,
                       fmt::join(dropped, ", "), dropped.size() == 1 ? "it" : "them");
  }
  return out;
}

void emit(const Style& style, Json document, std::string_view rows_key,
          const Derivations& derivations, const std::function<void()>& table) {
  switch (style.format) {
  case Format::json:
    if (style.explain) {
      document["explain"] = derivations_json(derivations);
    }
    print_json(document);
    return;
  case Format::csv:
    print_out("{}", to_csv(document.at(std::string(rows_key))));
    return;
  case Format::table:
    table();
    if (style.explain && !derivations.empty()) {
      print_out("\nHow each figure was computed:\n");
      for (const Derivation& d : derivations) {
        print_out("  {} = {} = {}\n", d.quantity, d.formula, d.shown);
      }
    }
    return;
  }
}

std::string paint(const Style& style, Level level) {
  std::string text(to_string(level));
  if (!style.color) {
    return text;
  }
  const fmt::terminal_color color = level == Level::ok         ? fmt::terminal_color::green
                                    : level == Level::marginal ? fmt::terminal_color::yellow
                                                               : fmt::terminal_color::red;
  return fmt::format("{}", fmt::styled(text, fmt::fg(color) | fmt::emphasis::bold));
}

std::string bar(const Style& style, double value, double max, int width) {
  if (!(max > 0) || !(value > 0)) {
    return "";
  }
  constexpr int eighths = 8;
  const double fraction = std::min(value / max, 1.0);
  if (style.ascii) {
    const auto columns = static_cast<int>(std::lround(fraction * width));
    return std::string(static_cast<std::size_t>(std::max(columns, 1)), '#');
  }
  static constexpr std::string_view partial[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  const auto total = std::max(static_cast<int>(std::lround(fraction * width * eighths)), 1);
  std::string out;
  for (int i = 0; i < total / eighths; ++i) {
    out += "█";
  }
  out += partial[total % eighths];
  return out;
}

std::string log_bar(const Style& style, double value, double min, double max, int width) {
  if (!(min > 0) || !(max > min) || !(value > 0)) {
    return bar(style, value, max, width);
  }
  // One eighth of a column at `min`, the full width at `max`.
  constexpr double eighth = 1.0 / 8;
  const double fraction = std::log(value / min) / std::log(max / min);
  return bar(style, eighth / width + fraction * (1.0 - eighth / width), 1.0, width);
}

std::string to_csv(const Json& rows) {
  std::vector<Json> flat;
  std::vector<std::string> header;
  for (const Json& row : rows) {
    Json cells = Json::object();
    flatten(row, "", cells);
    for (const auto& [key, value] : cells.items()) {
      if (std::find(header.begin(), header.end(), key) == header.end()) {
        header.push_back(key);
      }
    }
    flat.push_back(std::move(cells));
  }
  std::string out = csv_header(header);
  for (const Json& cells : flat) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      out += i > 0 ? "," : "";
      if (cells.contains(header[i])) {
        out += csv_cell(cells.at(header[i]));
      }
    }
    out += "\r\n";
  }
  return out;
}

std::string csv_header(const std::vector<std::string>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out += (i > 0 ? "," : "") + csv_cell(keys[i]);
  }
  return out + "\r\n";
}

std::string csv_line(const Json& row, const std::vector<std::string>& keys) {
  Json cells = Json::object();
  flatten(row, "", cells);
  for (const auto& [key, value] : cells.items()) {
    const bool column = std::ranges::find(keys, key) != keys.end();
    const std::string fields_of = key + ".";
    const bool fields = value.is_null() && std::ranges::any_of(keys, [&](const std::string& k) {
                          return k.starts_with(fields_of);
                        });
    if (!column && !fields) {
      throw std::logic_error(fmt::format("a CSV row has \"{}\", which is not a column", key));
    }
  }
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out += i > 0 ? "," : "";
    if (cells.contains(keys[i])) {
      out += csv_cell(cells.at(keys[i]));
    }
  }
  return out + "\r\n";
}

} // namespace icx::cli
