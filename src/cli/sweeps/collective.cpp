#include "sweeps/collective.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "options/common.hpp"

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
  for (const CollectiveRow& row : report.rows) {
    const double x = row.size.value();
    xs.push_back(x);
    headline.points.emplace_back(x, row.headline.busbw.value() / bytes_per_gigabyte);
    if (row.expected) {
      expected.points.emplace_back(x, row.expected->busbw.value() / bytes_per_gigabyte);
    }
  }
  plot.series = {std::move(expected), std::move(headline)};
  if (!report.measured_from.empty()) {
    // The log's file name, not its path: a legend entry, not a location.
    PlotSeries measured{"measured: " +
                            std::filesystem::path(report.measured_from).filename().string(),
                        SeriesStyle::points,
                        1,
                        {}};
    for (const auto& [size, cost] : report.measured_points) {
      measured.points.emplace_back(size.value(), cost.busbw.value() / bytes_per_gigabyte);
      xs.push_back(size.value());
    }
    plot.series.push_back(std::move(measured));
  }
  plot.log_x = spans_decades(xs);
  plot.x_bytes = true;
  // busbw on a linear axis, as nccl-tests users read its plateau (it spans decades only in
  // the latency-bound sizes, which a log axis would blow up).
  return plot;
}

namespace {

RowKeys collective_row_keys() {
  return {"gpus",
          "size_bytes",
          "headline.seconds",
          "headline.algbw_bytes_per_s",
          "headline.busbw_bytes_per_s",
          "expected.seconds",
          "expected.algbw_bytes_per_s",
          "expected.busbw_bytes_per_s",
          "expected.algo",
          "expected.protocol",
          "expected.topology",
          "algo",
          "note"};
}

std::vector<std::string> collective_cells_of(int gpus, const CollectiveRow& one) {
  const std::string ran =
      one.expected && one.expected->kernel ? std::string(to_string(*one.expected->kernel)) : "-";
  return {std::to_string(gpus),
          format_seconds(one.headline.time),
          format_rate(one.headline.busbw),
          one.expected ? format_seconds(one.expected->time) : "-",
          one.expected ? format_rate(one.expected->busbw) : "-",
          ran};
}

/// Time against GPUs: expected solid, headline dashed.
struct CollectiveCurves {
  PlotSeries expected{"expected", SeriesStyle::solid, 0, {}};
  PlotSeries headline{"headline", SeriesStyle::dashed, 0, {}};
  std::vector<double> xs;
  std::vector<double> ys;
};

void collective_chart_point(CollectiveCurves& curves, int gpus, const CollectiveRow& one) {
  const auto x = static_cast<double>(gpus);
  curves.xs.push_back(x);
  curves.headline.points.emplace_back(x, one.headline.time.value());
  curves.ys.push_back(one.headline.time.value());
  if (one.expected) {
    curves.expected.points.emplace_back(x, one.expected->time.value());
    curves.ys.push_back(one.expected->time.value());
  }
}

} // namespace

SweepEnd collective_gpus_sweep(const Sweep& sweep,
                               const std::function<CollectiveReport(int gpus)>& at,
                               SweepSink& out) {
  const RowKeys keys = collective_row_keys();
  out.start(sweep_document("collective", sweep),
            {{"gpus", Align::right},
             {"headline time", Align::right},
             {"busbw", Align::right},
             {"expected time", Align::right},
             {"busbw", Align::right},
             {"ran", Align::left}},
            keys);
  SweepEnd end;
  CollectiveCurves curves;
  for (const std::int64_t value : sweep.values) {
    const int gpus = static_cast<int>(value);
    CollectiveReport report;
    try {
      report = at(gpus);
    } catch (const std::runtime_error& error) { // UsageError or InputError: this point only
      Json row = null_row(keys);
      row["gpus"] = gpus;
      row["note"] = error.what();
      out.add(row, out.tabulating()
                       ? std::vector<std::string>{std::to_string(gpus), "-", "-", "-", "-", "-"}
                       : std::vector<std::string>{});
      end.notes.push_back(fmt::format("gpus {}: {}", gpus, error.what()));
      continue;
    }
    const CollectiveRow& one = report.rows.front();
    const Json document = report;
    Json row;
    row["gpus"] = gpus;
    for (const char* key : {"size_bytes", "headline", "expected", "algo"}) {
      row[key] = document.at(key);
    }
    row["note"] = nullptr;
    out.add(row, out.tabulating() ? collective_cells_of(gpus, one) : std::vector<std::string>{});
    collective_chart_point(curves, gpus, one);
    end.tail["op"] = to_string(report.op);
    end.tail["size_bytes"] = json_number(one.size.value());
    end.tail["wire"] = report.link->id;
    end.plot.title =
        chart_title(report, fmt::format("of {} by group size", format_bytes(one.size)));
  }
  end.plot.x_label = "GPUs in the group";
  end.plot.y_label = "time (s)";
  end.plot.y_seconds = true;
  end.plot.log_x = spans_decades(curves.xs);
  end.plot.log_y = spans_decades(curves.ys);
  end.plot.series = {std::move(curves.expected), std::move(curves.headline)};
  return end;
}

} // namespace icx::cli
