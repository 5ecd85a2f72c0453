#include "sweeps/place.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "options/common.hpp"

namespace icx::cli {

namespace {

RowKeys place_row_keys(SweepParam param) {
  return {std::string(to_string(param)),
          "gpus",
          "layout.tp",
          "layout.pp",
          "layout.ep",
          "layout.dp",
          "name",
          "rank",
          "fits",
          "batch",
          "latency_seconds",
          "comm_share",
          "tokens_per_second_per_gpu",
          "verdict",
          "chosen",
          "note"};
}

std::vector<Column> place_table_columns(SweepParam param, Phase phase) {
  return {{std::string(to_string(param)), Align::right},
          {"#", Align::right},
          {"layout", Align::left},
          {"fits", Align::left},
          {std::string(latency_name(phase)), Align::right},
          {"comm", Align::right},
          {"tok/s/GPU", Align::right},
          {"verdict", Align::left}};
}

/// Each layout's latency at every point where it fits, and for the chart: the best rank each
/// layout reached in the top N (in the order layouts first entered it) and the chosen layout
/// at each point.
struct PlaceCurves {
  std::map<std::string, PlotSeries> lines;
  std::vector<std::pair<std::string, std::size_t>> best_ranks;
  std::vector<std::string> chosen_names;
  std::vector<std::pair<double, double>> chosen_points;
  std::vector<double> xs;
};

/// The report at one point, or the reason the point has none.
struct PlacePoint {
  std::optional<PlaceReport> report;
  std::string failed;
};

PlacePoint place_at(const Catalog& catalog, const PlaceRequest& base, const ClusterRequest& cluster,
                    SweepParam param, std::int64_t value) {
  PlaceRequest request = base;
  ClusterRequest named = cluster;
  if (!set_serving_point(param, value, request.serving)) {
    named.gpus = static_cast<int>(value);
  }
  try {
    if (param == SweepParam::gpus) {
      request.cluster = resolve_cluster(named, catalog.links());
    }
    return {place_figures(catalog, request), {}};
  } catch (const InputError& error) {
    return {std::nullopt, error.what()};
  }
}

Json layout_row(SweepParam param, std::int64_t value, const PlaceReport& report, std::size_t rank,
                const std::string& note) {
  const RankedLayout& r = report.ranked[rank];
  const StepTime& s = r.placement.step;
  Json row;
  row[std::string(to_string(param))] = value;
  row["gpus"] = report.cluster.gpus;
  row["layout"] = layout_json(r.placement.layout);
  row["name"] = layout_name(r.placement.layout);
  row["rank"] = rank + 1;
  row["fits"] = r.placement.fits();
  row["batch"] = s.batch.total;
  row["latency_seconds"] = json_number(s.latency.value());
  row["comm_share"] = json_number(s.stage.value() > 0 ? s.exposed_comm / s.stage : 0.0);
  row["tokens_per_second_per_gpu"] = json_number(s.tokens_per_second_per_gpu);
  row["verdict"] = r.verdict.level;
  row["chosen"] = rank == report.chosen;
  row["note"] = note.empty() ? Json(nullptr) : Json(note);
  return row;
}

std::vector<std::string> layout_cells(const std::string& shown, const RankedLayout& r,
                                      std::size_t rank) {
  const StepTime& s = r.placement.step;
  return {shown,
          std::to_string(rank + 1),
          layout_name(r.placement.layout),
          r.placement.fits() ? "yes" : "no",
          format_seconds(s.latency),
          format_share(s.exposed_comm, s.stage),
          format_scaled(s.tokens_per_second_per_gpu),
          std::string(to_string(r.verdict.level))};
}

/// Notes a layout in the top N at rank `rank`: its best rank so far.
void note_rank(PlaceCurves& curves, const std::string& name, std::size_t rank) {
  const auto known =
      std::ranges::find(curves.best_ranks, name, &std::pair<std::string, std::size_t>::first);
  if (known == curves.best_ranks.end()) {
    curves.best_ranks.emplace_back(name, rank);
  } else {
    known->second = std::min(known->second, rank);
  }
}

/// The top `top` layouts of one point (and the chosen one) as rows, and every fitting
/// layout's latency on the chart.
void add_layouts(SweepSink& out, PlaceCurves& curves, SweepParam param, std::int64_t value,
                 const PlaceReport& report, std::size_t top, const std::string& note) {
  const std::string shown = sweep_value_text(param, value);
  const auto x = static_cast<double>(value);
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const RankedLayout& r = report.ranked[i];
    const bool charted = out.charting() && r.placement.fits();
    const std::string name = layout_name(r.placement.layout);
    const double latency = r.placement.step.latency.value();
    if (charted) {
      curves.lines[name].points.emplace_back(x, latency);
    }
    if (charted && i == report.chosen) {
      curves.chosen_names.push_back(name);
      curves.chosen_points.emplace_back(x, latency);
    }
    if (i >= top && i != report.chosen) {
      continue;
    }
    if (charted) {
      note_rank(curves, name, i);
    }
    out.add(layout_row(param, value, report, i, note),
            out.tabulating() ? layout_cells(shown, r, i) : std::vector<std::string>{});
  }
}

/// Whether one layout was chosen at every point that has one.
bool one_layout_chosen(const PlaceCurves& curves) {
  const auto& names = curves.chosen_names;
  return !names.empty() &&
         std::ranges::count(names, names.front()) == static_cast<std::ptrdiff_t>(names.size());
}

/// The chosen layout's series, drawn heavier: the one layout chosen at every point under its
/// name, else the chosen layout of each point joined up.
PlotSeries chosen_series(PlaceCurves& curves) {
  PlotSeries chosen{"chosen layout", SeriesStyle::solid, 0, curves.chosen_points, true};
  if (one_layout_chosen(curves)) {
    chosen.title = curves.chosen_names.front();
    chosen.points = std::move(curves.lines[chosen.title].points);
  }
  return chosen;
}

/// The chosen layout drawn heavier, then at most `top` others: those that reached the best
/// ranks in the top N, in rank order (the order they first entered it among equals).
PlotSpec place_chart_of(const PlaceRequest& base, SweepParam param, std::size_t top,
                        PlaceCurves& curves) {
  const Phase phase = base.serving.phase;
  const std::string_view metric = latency_name(phase);
  PlotSpec plot;
  plot.x_label = serving_axis_label(param, phase, "GPUs in the cluster");
  plot.y_label = fmt::format("{} (s)", metric);
  plot.y_seconds = true;
  PlotSeries chosen = chosen_series(curves);
  plot.title = fmt::format("{}: {} of the ranked layouts", base.model->id, metric);
  if (one_layout_chosen(curves)) {
    plot.title += fmt::format("; heavy line: {}, chosen", curves.chosen_names.front());
  } else if (!chosen.points.empty()) {
    plot.title += "; heavy line: the layout chosen at each point";
  }
  std::ranges::stable_sort(curves.best_ranks, {}, &std::pair<std::string, std::size_t>::second);
  std::vector<double> ys;
  if (!chosen.points.empty()) {
    plot.series.push_back(std::move(chosen));
  }
  std::size_t others = 0;
  for (const auto& [name, rank] : curves.best_ranks) {
    PlotSeries& line = curves.lines[name];
    if (others == top || line.points.empty()) {
      continue; // the chosen series took this layout's points, or the chart is full
    }
    ++others;
    plot.series.push_back(
        {name, SeriesStyle::solid, static_cast<int>(plot.series.size()), std::move(line.points)});
  }
  for (const PlotSeries& series : plot.series) {
    for (const auto& point : series.points) {
      ys.push_back(point.second);
    }
  }
  plot.log_x = spans_decades(curves.xs);
  plot.log_y = spans_decades(ys);
  return plot;
}

} // namespace

SweepEnd place_sweep(const Catalog& catalog, const PlaceRequest& base,
                     const ClusterRequest& cluster, const Sweep& sweep, std::size_t top,
                     SweepSink& out) {
  const Phase phase = base.serving.phase;
  check_sweep_phase(phase, sweep);
  const RowKeys keys = place_row_keys(sweep.param);
  Json head = sweep_document("place", sweep);
  head["phase"] = phase;
  head["model"] = base.model->id;
  head["objective"] = base.serving.objective;
  head["top"] = top;
  out.start(std::move(head), place_table_columns(sweep.param, phase), keys);
  SweepEnd end;
  PlaceCurves curves;
  const std::string param(to_string(sweep.param));
  for (const std::int64_t value : sweep.values) {
    const std::string shown = sweep_value_text(sweep.param, value);
    const PlacePoint point = place_at(catalog, base, cluster, sweep.param, value);
    if (!point.report) {
      Json row = null_row(keys);
      row[param] = value;
      row["note"] = point.failed;
      out.add(row, out.tabulating()
                       ? std::vector<std::string>{shown, "-", "-", "-", "-", "-", "-", "-"}
                       : std::vector<std::string>{});
      end.notes.push_back(fmt::format("{} {}: {}", param, shown, point.failed));
      continue;
    }
    const PlaceReport& report = *point.report;
    if (out.charting()) {
      curves.xs.push_back(static_cast<double>(value));
    }
    std::string note;
    if (report.ranked.empty() || !report.ranked.front().placement.fits()) {
      note = fmt::format("no layout holds the model on {} × {}", report.cluster.gpus,
                         report.cluster.gpu->id);
      end.notes.push_back(fmt::format("{} {}: {}", param, shown, note));
    }
    add_layouts(out, curves, sweep.param, value, report, top, note);
  }
  if (out.charting()) {
    end.plot = place_chart_of(base, sweep.param, top, curves);
  }
  return end;
}

} // namespace icx::cli
