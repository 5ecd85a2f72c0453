#include "sweeps/tp.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "options/common.hpp"
#include "sweeps/in_order.hpp"

namespace icx::cli {

namespace {

RowKeys tp_row_keys(SweepParam param) {
  return {std::string(to_string(param)),
          "wire",
          "gpu",
          "gpus",
          "headline_seconds",
          "headline_seconds_high",
          "expected_seconds",
          "step_seconds",
          "comm_share",
          "verdict",
          "note"};
}

std::vector<Column> tp_table_columns(SweepParam param, Phase phase) {
  return {{std::string(to_string(param)), Align::right},
          {"wire", Align::left},
          {"headline", Align::right},
          {"expected", Align::right},
          {std::string(latency_name(phase)), Align::right},
          {"comm", Align::right},
          {"verdict", Align::left}};
}

/// `base` with the swept field set to `value`.
TpRequest tp_at_point(const TpRequest& base, SweepParam param, std::int64_t value) {
  TpRequest request = base;
  if (!set_serving_point(param, value, request.serving)) {
    request.gpus = static_cast<int>(value);
  }
  return request;
}

/// `row` (a copy of the sweep's null_row, so its keys come in the declared order) as the
/// document's row for a wire at a point.
void fill_row(Json& row, SweepParam param, std::int64_t value, const TpWire& w) {
  row[std::string(to_string(param))] = value;
  row["wire"] = w.link->id;
  row["gpu"] = w.gpu->id;
  row["gpus"] = w.gpus;
  row["headline_seconds"] = json_number(w.headline.low.value());
  row["headline_seconds_high"] = json_number(w.headline.high.value());
  row["expected_seconds"] = w.expected ? json_number(w.expected->value()) : Json(nullptr);
  row["step_seconds"] = w.judged ? json_number(w.judged->placement.step.latency.value()) : Json();
  row["comm_share"] = w.judged ? json_number(w.judged->placement.step.exposed_comm.value() /
                                             w.judged->placement.step.stage.value())
                               : Json();
  row["verdict"] = w.judged ? Json(w.judged->verdict.level) : Json();
  row["note"] = nullptr;
}

std::vector<std::string> tp_cells_of(const std::string& shown, const TpWire& w) {
  return {shown,
          w.link->id,
          format_seconds(w.headline.low),
          w.expected ? format_seconds(*w.expected) : "-",
          w.judged ? format_seconds(w.judged->placement.step.latency) : "-",
          w.judged
              ? format_share(w.judged->placement.step.exposed_comm, w.judged->placement.step.stage)
              : "-",
          w.judged ? std::string(to_string(w.judged->verdict.level)) : "-"};
}

/// A row of the document and its table cells (none when not tabulating).
struct TpRow {
  Json row;
  std::vector<std::string> cells;
};

/// A point's output, made on whichever thread computed it: its rows in order, the note of a
/// point none of whose wires could be computed, and (when charting) the wires it priced.
struct TpPoint {
  std::int64_t value = 0;
  std::vector<TpRow> rows;
  std::optional<std::string> note;
  std::vector<TpWire> charted;
};

/// What every point of a sweep shares, read-only.
struct TpSweepInputs {
  const Catalog& catalog;
  const TpRequest& base;
  const WireChoice& wires;
  SweepParam param;
  const Json& empty_row;
  bool tabulating;
  bool charting;
};

/// The row of a wire the point cannot use.
TpRow tp_skipped(const TpSweepInputs& in, std::int64_t value, const Link& link,
                 const std::string& why) {
  TpRow out{in.empty_row, {}};
  out.row[std::string(to_string(in.param))] = value;
  out.row["wire"] = link.id;
  out.row["note"] = why;
  if (in.tabulating) {
    out.cells = {sweep_value_text(in.param, value), link.id, "-", "-", "-", "-", "-"};
  }
  return out;
}

/// What bounds a pass without communication: the busier of compute and memory.
Seconds compute_of(const TpWire& w) {
  const StageWork& work = w.judged->placement.step.work;
  return work.seconds;
}

/// Per wire (in the order given) its expected and headline series; one compute line per
/// distinct group of GPUs.
struct TpCurves {
  explicit TpCurves(std::size_t wires) : expected(wires), headline(wires) {}
  std::vector<PlotSeries> expected;
  std::vector<PlotSeries> headline;
  std::map<std::string, PlotSeries> compute;
  std::vector<double> xs;
  std::vector<double> ys;
};

void chart_wire(TpCurves& curves, std::size_t index, double x, const TpWire& w) {
  curves.headline[index].points.emplace_back(x, w.headline.low.value());
  curves.ys.push_back(w.headline.low.value());
  if (w.expected) {
    curves.expected[index].points.emplace_back(x, w.expected->value());
    curves.ys.push_back(w.expected->value());
  }
  if (w.judged) {
    PlotSeries& line = curves.compute[fmt::format("compute on {} × {}", w.gpus, w.gpu->id)];
    if (line.points.empty() || line.points.back().first != x) {
      line.points.emplace_back(x, compute_of(w).value());
      curves.ys.push_back(compute_of(w).value());
    }
  }
}

PlotSpec tp_chart_of(const TpRequest& base, const WireChoice& wires, SweepParam param,
                     TpCurves& curves) {
  const Phase phase = base.serving.phase;
  PlotSpec plot;
  plot.title = fmt::format("{}: tensor-parallel all-reduce time per {}", base.model_id,
                           phase == Phase::prefill ? "prefill pass" : "decode step");
  plot.x_label = serving_axis_label(param, phase, "GPUs in the tensor-parallel group");
  plot.y_label = fmt::format("time per {} (s)", phase == Phase::prefill ? "pass" : "step");
  plot.y_seconds = true;
  plot.log_x = spans_decades(curves.xs);
  plot.log_y = spans_decades(curves.ys);
  for (std::size_t i = 0; i < wires.usable.size(); ++i) {
    const int colour = static_cast<int>(i);
    const std::string& id = wires.usable[i]->id;
    plot.series.push_back(
        {id + " expected", SeriesStyle::solid, colour, std::move(curves.expected[i].points)});
    plot.series.push_back(
        {id + " headline", SeriesStyle::dashed, colour, std::move(curves.headline[i].points)});
  }
  for (auto& [title, line] : curves.compute) {
    plot.series.push_back({title, SeriesStyle::reference, 0, std::move(line.points)});
  }
  return plot;
}

} // namespace

void check_tp_sweep_size(const Sweep& sweep, const WireChoice& wires) {
  const std::size_t priced = sweep.values.size() * std::max<std::size_t>(wires.usable.size(), 1);
  if (priced > max_sweep_points) {
    throw UsageError(fmt::format("--sweep {}: {} points × {} wires is more than {} wire points; "
                                 "name fewer wires with --wire (e.g. --wire nvlink4) or use a "
                                 "larger STEP or xFACTOR",
                                 sweep.text, sweep.values.size(), wires.usable.size(),
                                 max_sweep_points));
  }
}

namespace {

/// Every wire's row at one point of the sweep.
TpPoint tp_point(const TpSweepInputs& in, std::int64_t value) {
  const TpRequest request = tp_at_point(in.base, in.param, value);
  const WireChoice here = in.param == SweepParam::gpus
                              ? wires_for_group(request.gpu, request.gpus, in.wires.usable)
                              : in.wires;
  TpPoint point;
  point.value = value;
  for (const SkippedWire& skipped : here.skipped) {
    point.rows.push_back(tp_skipped(in, value, *skipped.link, skipped.reason));
  }
  TpReport report;
  try {
    report = tensor_parallel_figures(in.catalog, request, here.usable);
  } catch (const GroupError& error) {
    for (const Link* link : here.usable) {
      point.rows.push_back(tp_skipped(in, value, *link, error.what()));
    }
    point.note = fmt::format("{} {}: {}", to_string(in.param), sweep_value_text(in.param, value),
                             error.what());
    return point;
  }
  for (TpWire& w : report.wires) {
    TpRow out{in.empty_row, {}};
    fill_row(out.row, in.param, value, w);
    if (in.tabulating) {
      out.cells = tp_cells_of(sweep_value_text(in.param, value), w);
    }
    point.rows.push_back(std::move(out));
    if (in.charting) {
      point.charted.push_back(std::move(w));
    }
  }
  return point;
}

/// The point's wires on the chart's curves.
void chart_point(TpCurves& curves, const WireChoice& wires, const TpPoint& point) {
  const auto x = static_cast<double>(point.value);
  curves.xs.push_back(x);
  for (const TpWire& w : point.charted) {
    const auto index =
        static_cast<std::size_t>(std::ranges::find(wires.usable, w.link) - wires.usable.begin());
    chart_wire(curves, index, x, w);
  }
}

} // namespace

SweepEnd tp_sweep(const Catalog& catalog, const TpRequest& base, const WireChoice& wires,
                  const Sweep& sweep, SweepSink& out) {
  check_sweep_phase(base.serving.phase, sweep);
  const RowKeys keys = tp_row_keys(sweep.param);
  Json head = sweep_document("tp", sweep);
  head["phase"] = base.serving.phase;
  head["model"] = base.model_id;
  out.start(std::move(head), tp_table_columns(sweep.param, base.serving.phase), keys);
  SweepEnd end;
  TpCurves curves(wires.usable.size());
  const Json empty_row = null_row(keys);
  const TpSweepInputs inputs{catalog,          base,          wires, sweep.param, empty_row,
                             out.tabulating(), out.charting()};
  for_each_in_order<TpPoint>(
      sweep.values.size(), [&](std::size_t i) { return tp_point(inputs, sweep.values[i]); },
      [&](TpPoint& point) {
        for (TpRow& row : point.rows) {
          out.add(row.row, std::move(row.cells));
        }
        if (point.note) {
          end.notes.push_back(std::move(*point.note));
        }
        chart_point(curves, wires, point);
      });
  if (out.charting()) {
    end.plot = tp_chart_of(base, wires, sweep.param, curves);
  }
  return end;
}

} // namespace icx::cli
