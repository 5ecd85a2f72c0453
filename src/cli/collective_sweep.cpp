#include "collective_sweep.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"
#include "icx/units_format.hpp"

namespace icx::cli {

namespace {

/// Charts show rates in GB/s, as nccl-tests prints them.
constexpr double bytes_per_gigabyte = 1e9;

std::string chart_title(const CollectiveReport& r, const std::string& what) {
  return fmt::format("{} {} on {}", to_string(r.op), what, r.link->id);
}

} // namespace

PlotSpec collective_size_plot(const CollectiveReport& report) {
  PlotSpec plot;
  plot.title = chart_title(report, fmt::format("over {} GPUs", report.gpus));
  plot.x_label = "message size S (bytes)";
  plot.y_label = "busbw (GB/s)";
  PlotSeries expected{"expected busbw", SeriesStyle::solid, 0, {}};
  PlotSeries headline{"headline busbw", SeriesStyle::dashed, 0, {}};
  std::vector<double> xs;
  std::vector<double> ys;
  for (const CollectiveRow& row : report.rows) {
    const double x = row.size.value();
    xs.push_back(x);
    headline.points.emplace_back(x, row.headline.busbw.value() / bytes_per_gigabyte);
    ys.push_back(headline.points.back().second);
    if (row.expected) {
      expected.points.emplace_back(x, row.expected->busbw.value() / bytes_per_gigabyte);
      ys.push_back(expected.points.back().second);
    }
  }
  plot.series = {std::move(expected), std::move(headline)};
  if (!report.measured_from.empty()) {
    PlotSeries measured{"measured: " + report.measured_from, SeriesStyle::points, 1, {}};
    for (const auto& [size, cost] : report.measured_points) {
      measured.points.emplace_back(size.value(), cost.busbw.value() / bytes_per_gigabyte);
      xs.push_back(size.value());
      ys.push_back(measured.points.back().second);
    }
    plot.series.push_back(std::move(measured));
  }
  plot.log_x = spans_decades(xs);
  plot.log_y = spans_decades(ys);
  return plot;
}

SweepResult collective_gpus_sweep(const Sweep& sweep,
                                  const std::function<CollectiveReport(int gpus)>& at) {
  SweepResult result{sweep_document("collective", sweep),
                     TextTable({{"gpus", Align::right},
                                {"headline time", Align::right},
                                {"busbw", Align::right},
                                {"expected time", Align::right},
                                {"busbw", Align::right},
                                {"ran", Align::left}}),
                     {},
                     {}};
  Json rows = Json::array();
  PlotSeries expected{"expected", SeriesStyle::solid, 0, {}};
  PlotSeries headline{"headline", SeriesStyle::dashed, 0, {}};
  std::vector<double> xs;
  std::vector<double> ys;
  std::optional<CollectiveReport> last;
  for (const std::int64_t value : sweep.values) {
    const int gpus = static_cast<int>(value);
    Json row;
    row["gpus"] = gpus;
    CollectiveReport report;
    try {
      report = at(gpus);
    } catch (const std::runtime_error& error) { // UsageError or InputError: this point only
      for (const char* key : {"size_bytes", "headline", "expected", "algo"}) {
        row[key] = nullptr;
      }
      row["note"] = error.what();
      rows.push_back(std::move(row));
      result.table.add_row({std::to_string(gpus), "-", "-", "-", "-", "-"});
      result.notes.push_back(fmt::format("gpus {}: {}", gpus, error.what()));
      continue;
    }
    const CollectiveRow& one = report.rows.front();
    const Json document = report;
    row["size_bytes"] = document.at("size_bytes");
    row["headline"] = document.at("headline");
    row["expected"] = document.at("expected");
    row["algo"] = document.at("algo");
    row["note"] = nullptr;
    rows.push_back(std::move(row));
    const std::string ran =
        one.expected && one.expected->kernel ? std::string(to_string(*one.expected->kernel)) : "-";
    result.table.add_row({std::to_string(gpus), format_seconds(one.headline.time),
                          format_rate(one.headline.busbw),
                          one.expected ? format_seconds(one.expected->time) : "-",
                          one.expected ? format_rate(one.expected->busbw) : "-", ran});
    const auto x = static_cast<double>(gpus);
    xs.push_back(x);
    headline.points.emplace_back(x, one.headline.time.value());
    ys.push_back(one.headline.time.value());
    if (one.expected) {
      expected.points.emplace_back(x, one.expected->time.value());
      ys.push_back(one.expected->time.value());
    }
    last = std::move(report);
  }
  result.document["rows"] = std::move(rows);
  if (last) {
    result.document["op"] = to_string(last->op);
    result.document["size_bytes"] = json_number(last->rows.front().size.value());
    result.document["wire"] = last->link->id;
    result.plot.title = chart_title(
        *last, fmt::format("of {} by group size", format_bytes(last->rows.front().size)));
  }
  result.plot.x_label = "GPUs in the group";
  result.plot.y_label = "time (s)";
  result.plot.log_x = spans_decades(xs);
  result.plot.log_y = spans_decades(ys);
  result.plot.series = {std::move(expected), std::move(headline)};
  return result;
}

} // namespace icx::cli
