#include "sweeps/coldstart.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/units_format.hpp"

namespace icx::cli {

namespace {

/// The series of the floor, beside the loaders' ids.
constexpr const char* floor_series = "floor";

/// Whether the budget holds for this series at this point: only the series it gates on (the
/// named loader, else the floor) is judged.
Json budget_cell(const ColdStartReport& report, const Loader* series) {
  if (!report.within_budget) {
    return nullptr;
  }
  const Loader* gated = report.load_time ? report.load_time->loader : nullptr;
  return gated == series ? Json(*report.within_budget) : Json(nullptr);
}

std::string budget_text(const Json& cell) {
  if (cell.is_null()) {
    return "-";
  }
  return cell.get<bool>() ? "fits" : "over";
}

Json floor_row(int gpus, const ColdStartReport& report) {
  const ColdStart& r = report.load;
  Json row;
  row["gpus"] = gpus;
  row["series"] = floor_series;
  row["nodes"] = r.nodes;
  row["path"] = nullptr;
  row["seconds"] = json_number(r.floor.value());
  row["limit"] = to_string(r.bottleneck);
  row["expected_floor_seconds"] = json_number(r.expected_floor);
  row["within_budget"] = budget_cell(report, nullptr);
  row["note"] = nullptr;
  return row;
}

Json load_row(int gpus, const ColdStartReport& report, const ExpectedLoad& load) {
  Json row;
  row["gpus"] = gpus;
  row["series"] = load.loader->id;
  row["nodes"] = report.load.nodes;
  row["path"] = load.warm ? "warm" : "cold";
  row["seconds"] = json_number(load.total.value());
  row["limit"] = to_string(load.limit);
  row["expected_floor_seconds"] = nullptr;
  row["within_budget"] = budget_cell(report, load.loader);
  row["note"] = nullptr;
  return row;
}

RowKeys coldstart_row_keys() {
  return {"gpus",          "series", "nodes", "path", "seconds", "limit", "expected_floor_seconds",
          "within_budget", "note"};
}

std::vector<Column> columns(const ColdStartRequest& base) {
  std::vector<Column> shown = {{"gpus", Align::right},  {"load", Align::left},
                               {"nodes", Align::right}, {"path", Align::left},
                               {"time", Align::right},  {"limit", Align::left}};
  if (base.budget) {
    shown.push_back({"budget", Align::left});
  }
  return shown;
}

/// The series' name in the table: the named loader marked as the single-point table does.
std::string series_text(const ColdStartRequest& base, const Loader& loader) {
  return &loader == base.loader ? loader.id + " (--loader)" : loader.id;
}

std::string path_words(const ColdStartRequest& base) {
  const std::string link = base.host_link->id;
  return base.storage == nullptr
             ? fmt::format("host memory → {} → GPU", link)
             : fmt::format("{} → host memory → {} → GPU", base.storage->id, link);
}

/// The notes above the points' own: the path, and what the floor, the loaders and the
/// budget are.
std::vector<std::string> coldstart_head_notes(const ColdStartRequest& base) {
  std::vector<std::string> notes = {
      fmt::format("path: {}", path_words(base)),
      "floor: the headline lower bound, the slowest stage's bytes / bandwidth (limit: that "
      "stage).",
      "loaders: expected load = overhead + max(the node's shards / its read rate, one shard / "
      "host → GPU); warm: from host memory, cold: from storage."};
  if (base.budget) {
    notes.push_back(
        fmt::format("budget: {}, judged on {}", format_seconds(*base.budget),
                    base.loader != nullptr
                        ? fmt::format("the expected load with {}", base.loader->id)
                        : std::string("the floor (give --loader to judge an expected load)")));
  }
  return notes;
}

Json coldstart_head_of(const ColdStartRequest& base, const Sweep& sweep) {
  Json head = sweep_document("coldstart", sweep);
  head["model"] = base.model->id;
  head["dtype"] = base.dtype->id;
  head["host_link"] = base.host_link->id;
  head["storage"] = base.storage != nullptr ? Json(base.storage->id) : Json(nullptr);
  head["gpus_per_node"] = base.gpus_per_node ? Json(*base.gpus_per_node) : Json(nullptr);
  head["loader"] = base.loader != nullptr ? Json(base.loader->id) : Json(nullptr);
  head["budget_seconds"] = base.budget ? json_number(base.budget->value()) : Json();
  return head;
}

/// One series per loader, in catalog order, and the floor.
struct ColdstartCurves {
  explicit ColdstartCurves(std::size_t loaders) : loads(loaders) {}
  std::vector<PlotSeries> loads;
  PlotSeries floor;
  std::vector<double> xs;
  std::vector<double> ys;
};

/// A row per series for a count the weights cannot be split over.
void coldstart_add_skipped(SweepSink& out, const ColdStartRequest& base, int gpus,
                           const std::string& why) {
  const RowKeys keys = coldstart_row_keys();
  const std::vector<std::string> dashes(columns(base).size() - 2, "-");
  auto add = [&](const std::string& series, const std::string& text) {
    Json row = null_row(keys);
    row["gpus"] = gpus;
    row["series"] = series;
    row["note"] = why;
    std::vector<std::string> cells = {std::to_string(gpus), text};
    cells.insert(cells.end(), dashes.begin(), dashes.end());
    out.add(row, std::move(cells));
  };
  add(floor_series, floor_series);
  for (const Loader& loader : base.loaders) {
    add(loader.id, series_text(base, loader));
  }
}

/// The floor's row and each loader's at one count.
void coldstart_add_point(SweepSink& out, ColdstartCurves& curves, const ColdStartRequest& base,
                         int gpus, const ColdStartReport& report) {
  const ColdStart& r = report.load;
  const std::string shown = std::to_string(gpus);
  const auto x = static_cast<double>(gpus);
  Json row = floor_row(gpus, report);
  std::vector<std::string> cells = {shown,
                                    floor_series,
                                    std::to_string(r.nodes),
                                    "-",
                                    format_seconds(r.floor),
                                    std::string(to_string(r.bottleneck))};
  if (base.budget) {
    cells.push_back(budget_text(row["within_budget"]));
  }
  out.add(row, std::move(cells));
  curves.floor.points.emplace_back(x, r.floor.value());
  curves.ys.push_back(r.floor.value());
  for (std::size_t i = 0; i < report.loads.size(); ++i) {
    const ExpectedLoad& load = report.loads[i];
    const Json loaded = load_row(gpus, report, load);
    std::vector<std::string> line = {shown,
                                     series_text(base, *load.loader),
                                     std::to_string(r.nodes),
                                     load.warm ? "warm" : "cold",
                                     format_seconds(load.total),
                                     std::string(to_string(load.limit))};
    if (base.budget) {
      line.push_back(budget_text(loaded["within_budget"]));
    }
    out.add(loaded, std::move(line));
    curves.loads[i].points.emplace_back(x, load.total.value());
    curves.ys.push_back(load.total.value());
  }
}

PlotSpec coldstart_chart_of(const ColdStartRequest& base, ColdstartCurves& curves) {
  PlotSpec plot;
  plot.title = fmt::format("{} ({}): time to load the weights, {}", base.model->id, base.dtype->id,
                           path_words(base));
  plot.x_label = "GPUs loading the model";
  plot.y_label = "time to load (s)";
  plot.y_seconds = true;
  plot.log_x = spans_decades(curves.xs);
  if (base.budget) {
    curves.ys.push_back(base.budget->value());
  }
  plot.log_y = spans_decades(curves.ys);
  for (std::size_t i = 0; i < base.loaders.size(); ++i) {
    plot.series.push_back({series_text(base, base.loaders[i]), SeriesStyle::solid,
                           static_cast<int>(i), std::move(curves.loads[i].points)});
  }
  plot.series.push_back({"floor (headline lower bound)", SeriesStyle::dashed,
                         static_cast<int>(base.loaders.size()), std::move(curves.floor.points)});
  if (base.budget) {
    plot.levels.push_back(
        {fmt::format("budget {}", format_seconds(*base.budget)), base.budget->value()});
  }
  return plot;
}

} // namespace

SweepEnd coldstart_sweep(const ColdStartRequest& base, const Sweep& sweep, SweepSink& out) {
  out.start(coldstart_head_of(base, sweep), columns(base), coldstart_row_keys());
  SweepEnd end{Json::object(), coldstart_head_notes(base), {}};
  ColdstartCurves curves(base.loaders.size());
  for (const std::int64_t value : sweep.values) {
    const int gpus = static_cast<int>(value);
    curves.xs.push_back(static_cast<double>(value));
    ColdStartRequest request = base;
    request.gpus = gpus;
    try {
      coldstart_add_point(out, curves, base, gpus, coldstart_report(request));
    } catch (const GroupError& error) {
      coldstart_add_skipped(out, base, gpus, error.what());
      end.notes.push_back(fmt::format("gpus {}: {}", gpus, error.what()));
    }
  }
  if (out.charting()) {
    end.plot = coldstart_chart_of(base, curves);
  }
  return end;
}

} // namespace icx::cli
