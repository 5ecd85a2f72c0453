#include "place_sweep.hpp"

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"
#include "icx/units_format.hpp"

namespace icx::cli {

namespace {

/// The swept field of `request` (and of `cluster` for gpus) set to `value`.
void set_point(PlaceRequest& request, ClusterRequest& cluster, SweepParam param,
               std::int64_t value) {
  if (!set_serving_point(param, value, request.serving)) {
    cluster.gpus = static_cast<int>(value);
  }
}

double comm_share(const StepTime& s) {
  return s.stage.value() > 0 ? s.exposed_comm / s.stage : 0.0;
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
  row["comm_share"] = json_number(comm_share(s));
  row["tokens_per_second_per_gpu"] = json_number(s.tokens_per_second_per_gpu);
  row["verdict"] = r.verdict.level;
  row["chosen"] = rank == report.chosen;
  row["note"] = note.empty() ? Json(nullptr) : Json(note);
  return row;
}

Json note_row(SweepParam param, std::int64_t value, const std::string& why) {
  Json row;
  row[std::string(to_string(param))] = value;
  for (const char* key : {"gpus", "layout", "name", "rank", "fits", "batch", "latency_seconds",
                          "comm_share", "tokens_per_second_per_gpu", "verdict", "chosen"}) {
    row[key] = nullptr;
  }
  row["note"] = why;
  return row;
}

} // namespace

SweepResult place_sweep(const Catalog& catalog, const PlaceRequest& base,
                        const ClusterRequest& cluster, const Sweep& sweep, std::size_t top) {
  const Phase phase = base.serving.phase;
  check_sweep_phase(phase, sweep);
  const std::string param(to_string(sweep.param));
  SweepResult result{sweep_document("place", sweep),
                     TextTable({{param, Align::right},
                                {"#", Align::right},
                                {"layout", Align::left},
                                {"fits", Align::left},
                                {phase == Phase::prefill ? "TTFT" : "TPOT", Align::right},
                                {"comm", Align::right},
                                {"tok/s/GPU", Align::right},
                                {"verdict", Align::left}}),
                     {},
                     {}};
  result.document["phase"] = phase;
  result.document["model"] = base.model->id;
  result.document["objective"] = base.serving.objective;
  result.document["top"] = top;
  Json rows = Json::array();
  // Each layout's latency at every point where it fits, charted when it is in the top N at
  // one point at least; series in the order they first enter the top N.
  std::map<std::string, PlotSeries> curves;
  std::vector<std::string> charted;
  std::vector<double> xs;
  std::vector<double> ys;
  for (const std::int64_t value : sweep.values) {
    PlaceRequest request = base;
    ClusterRequest named = cluster;
    set_point(request, named, sweep.param, value);
    const std::string shown = sweep_value_text(sweep.param, value);
    const auto x = static_cast<double>(value);
    PlaceReport report;
    try {
      if (sweep.param == SweepParam::gpus) {
        request.cluster = resolve_cluster(named, catalog.links());
      }
      report = place_report(catalog, request);
    } catch (const InputError& error) {
      rows.push_back(note_row(sweep.param, value, error.what()));
      result.table.add_row({shown, "-", "-", "-", "-", "-", "-", "-"});
      result.notes.push_back(fmt::format("{} {}: {}", param, shown, error.what()));
      continue;
    }
    xs.push_back(x);
    std::string note;
    if (report.ranked.empty() || !report.ranked.front().placement.fits()) {
      note = fmt::format("no layout holds the model on {} × {}", report.cluster.gpus,
                         report.cluster.gpu->id);
      result.notes.push_back(fmt::format("{} {}: {}", param, shown, note));
    }
    for (std::size_t i = 0; i < report.ranked.size(); ++i) {
      const RankedLayout& r = report.ranked[i];
      const std::string name = layout_name(r.placement.layout);
      if (r.placement.fits()) {
        curves[name].points.emplace_back(x, r.placement.step.latency.value());
      }
      if (i >= top && i != report.chosen) {
        continue;
      }
      if (r.placement.fits() && std::ranges::find(charted, name) == charted.end()) {
        charted.push_back(name);
      }
      const StepTime& s = r.placement.step;
      rows.push_back(layout_row(sweep.param, value, report, i, note));
      result.table.add_row({shown, std::to_string(i + 1), name, r.placement.fits() ? "yes" : "no",
                            format_seconds(s.latency), format_share(s.exposed_comm, s.stage),
                            format_scaled(s.tokens_per_second_per_gpu),
                            std::string(to_string(r.verdict.level))});
    }
  }
  result.document["rows"] = std::move(rows);

  PlotSpec& plot = result.plot;
  plot.title = fmt::format("{}: {} of the ranked layouts", base.model->id,
                           phase == Phase::prefill ? "TTFT" : "TPOT");
  plot.x_label = serving_axis_label(sweep.param, phase, "GPUs in the cluster");
  plot.y_label = fmt::format("{} (s)", phase == Phase::prefill ? "TTFT" : "TPOT");
  for (std::size_t i = 0; i < charted.size(); ++i) {
    PlotSeries& line = curves[charted[i]];
    for (const auto& point : line.points) {
      ys.push_back(point.second);
    }
    plot.series.push_back(
        {charted[i], SeriesStyle::solid, static_cast<int>(i), std::move(line.points)});
  }
  plot.log_x = spans_decades(xs);
  plot.log_y = spans_decades(ys);
  return result;
}

} // namespace icx::cli
