#include "coldstart_sweep.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/error.hpp"
#include "icx/units_format.hpp"

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

Json skipped_row(int gpus, const std::string& series, const std::string& why) {
  Json row;
  row["gpus"] = gpus;
  row["series"] = series;
  for (const char* key :
       {"nodes", "path", "seconds", "limit", "expected_floor_seconds", "within_budget"}) {
    row[key] = nullptr;
  }
  row["note"] = why;
  return row;
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

} // namespace

SweepResult coldstart_sweep(const ColdStartRequest& base, const Sweep& sweep) {
  SweepResult result{sweep_document("coldstart", sweep), TextTable(columns(base)), {}, {}};
  result.document["model"] = base.model->id;
  result.document["dtype"] = base.dtype->id;
  result.document["host_link"] = base.host_link->id;
  result.document["storage"] = base.storage != nullptr ? Json(base.storage->id) : Json(nullptr);
  result.document["gpus_per_node"] = base.gpus_per_node ? Json(*base.gpus_per_node) : Json(nullptr);
  result.document["loader"] = base.loader != nullptr ? Json(base.loader->id) : Json(nullptr);
  result.document["budget_seconds"] = base.budget ? json_number(base.budget->value()) : Json();
  Json rows = Json::array();
  // One series per loader, in catalog order, and the floor.
  std::vector<PlotSeries> loads(base.loaders.size());
  PlotSeries floor;
  std::vector<double> xs;
  std::vector<double> ys;
  for (const std::int64_t value : sweep.values) {
    const int gpus = static_cast<int>(value);
    const std::string shown = sweep_value_text(sweep.param, value);
    const auto x = static_cast<double>(value);
    xs.push_back(x);
    ColdStartRequest request = base;
    request.gpus = gpus;
    ColdStartReport report;
    try {
      report = coldstart_report(request);
    } catch (const GroupError& error) {
      const std::vector<std::string> dashes(columns(base).size() - 2, "-");
      auto add = [&](const std::string& series, const std::string& text) {
        rows.push_back(skipped_row(gpus, series, error.what()));
        std::vector<std::string> cells = {shown, text};
        cells.insert(cells.end(), dashes.begin(), dashes.end());
        result.table.add_row(std::move(cells));
      };
      add(floor_series, floor_series);
      for (const Loader& loader : base.loaders) {
        add(loader.id, series_text(base, loader));
      }
      result.notes.push_back(fmt::format("gpus {}: {}", shown, error.what()));
      continue;
    }
    const ColdStart& r = report.load;
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
    result.table.add_row(std::move(cells));
    rows.push_back(std::move(row));
    floor.points.emplace_back(x, r.floor.value());
    ys.push_back(r.floor.value());
    for (std::size_t i = 0; i < report.loads.size(); ++i) {
      const ExpectedLoad& load = report.loads[i];
      Json loaded = load_row(gpus, report, load);
      std::vector<std::string> line = {shown,
                                       series_text(base, *load.loader),
                                       std::to_string(r.nodes),
                                       load.warm ? "warm" : "cold",
                                       format_seconds(load.total),
                                       std::string(to_string(load.limit))};
      if (base.budget) {
        line.push_back(budget_text(loaded["within_budget"]));
      }
      result.table.add_row(std::move(line));
      rows.push_back(std::move(loaded));
      loads[i].points.emplace_back(x, load.total.value());
      ys.push_back(load.total.value());
    }
  }
  result.document["rows"] = std::move(rows);
  result.notes.insert(
      result.notes.begin(),
      {fmt::format("path: {}", path_words(base)),
       "floor: the headline lower bound, the slowest stage's bytes / bandwidth (limit: that "
       "stage).",
       "loaders: expected load = overhead + max(the node's shards / its read rate, one shard / "
       "host → GPU); warm: from host memory, cold: from storage."});
  if (base.budget) {
    result.notes.insert(
        result.notes.begin() + 3,
        fmt::format("budget: {}, judged on {}", format_seconds(*base.budget),
                    base.loader != nullptr
                        ? fmt::format("the expected load with {}", base.loader->id)
                        : std::string("the floor (give --loader to judge an expected load)")));
  }

  PlotSpec& plot = result.plot;
  plot.title = fmt::format("{} ({}): time to load the weights, {}", base.model->id, base.dtype->id,
                           path_words(base));
  plot.x_label = "GPUs loading the model";
  plot.y_label = "time to load (s)";
  plot.log_x = spans_decades(xs);
  if (base.budget) {
    ys.push_back(base.budget->value());
  }
  plot.log_y = spans_decades(ys);
  for (std::size_t i = 0; i < base.loaders.size(); ++i) {
    const Loader& loader = base.loaders[i];
    plot.series.push_back({&loader == base.loader ? loader.id + " (--loader)" : loader.id,
                           SeriesStyle::solid, static_cast<int>(i), std::move(loads[i].points)});
  }
  plot.series.push_back({"floor (headline lower bound)", SeriesStyle::dashed,
                         static_cast<int>(base.loaders.size()), std::move(floor.points)});
  if (base.budget) {
    plot.levels.push_back(
        {fmt::format("budget {}", format_seconds(*base.budget)), base.budget->value()});
  }
  return result;
}

} // namespace icx::cli
