#include "sweeps/place.hpp"

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
          {phase == Phase::prefill ? "TTFT" : "TPOT", Align::right},
          {"comm", Align::right},
          {"tok/s/GPU", Align::right},
          {"verdict", Align::left}};
}

/// Each layout's latency at every point where it fits, charted when it is in the top N at one
/// point at least; series in the order they first enter the top N.
struct PlaceCurves {
  std::map<std::string, PlotSeries> lines;
  std::vector<std::string> charted;
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

/// The top `top` layouts of one point (and the chosen one) as rows, and every fitting
/// layout's latency on the chart.
void add_layouts(SweepSink& out, PlaceCurves& curves, SweepParam param, std::int64_t value,
                 const PlaceReport& report, std::size_t top, const std::string& note) {
  const std::string shown = sweep_value_text(param, value);
  const auto x = static_cast<double>(value);
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const RankedLayout& r = report.ranked[i];
    const bool charted = out.charting() && r.placement.fits();
    if (charted) {
      curves.lines[layout_name(r.placement.layout)].points.emplace_back(
          x, r.placement.step.latency.value());
    }
    if (i >= top && i != report.chosen) {
      continue;
    }
    const std::string name = layout_name(r.placement.layout);
    if (charted && std::ranges::find(curves.charted, name) == curves.charted.end()) {
      curves.charted.push_back(name);
    }
    out.add(layout_row(param, value, report, i, note),
            out.tabulating() ? layout_cells(shown, r, i) : std::vector<std::string>{});
  }
}

PlotSpec place_chart_of(const PlaceRequest& base, SweepParam param, PlaceCurves& curves) {
  const Phase phase = base.serving.phase;
  PlotSpec plot;
  plot.title = fmt::format("{}: {} of the ranked layouts", base.model->id,
                           phase == Phase::prefill ? "TTFT" : "TPOT");
  plot.x_label = serving_axis_label(param, phase, "GPUs in the cluster");
  plot.y_label = fmt::format("{} (s)", phase == Phase::prefill ? "TTFT" : "TPOT");
  plot.y_seconds = true;
  std::vector<double> ys;
  for (std::size_t i = 0; i < curves.charted.size(); ++i) {
    PlotSeries& line = curves.lines[curves.charted[i]];
    for (const auto& point : line.points) {
      ys.push_back(point.second);
    }
    plot.series.push_back(
        {curves.charted[i], SeriesStyle::solid, static_cast<int>(i), std::move(line.points)});
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
    end.plot = place_chart_of(base, sweep.param, curves);
  }
  return end;
}

} // namespace icx::cli
