#include "tp_sweep.hpp"

#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>

#include "common.hpp"
#include "icx/units_format.hpp"

namespace icx::cli {

namespace {

/// `base` with the swept field set to `value`.
TpRequest at_point(const TpRequest& base, SweepParam param, std::int64_t value) {
  TpRequest request = base;
  if (!set_serving_point(param, value, request.serving)) {
    request.gpus = static_cast<int>(value);
  }
  return request;
}

/// One row of the document for a wire at a point, or for a wire the point cannot use.
Json row_of(SweepParam param, std::int64_t value, const TpWire& w) {
  Json row;
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
  return row;
}

Json skipped_row(SweepParam param, std::int64_t value, const Link& link, const std::string& why) {
  Json row;
  row[std::string(to_string(param))] = value;
  row["wire"] = link.id;
  for (const char* key : {"gpu", "gpus", "headline_seconds", "headline_seconds_high",
                          "expected_seconds", "step_seconds", "comm_share", "verdict"}) {
    row[key] = nullptr;
  }
  row["note"] = why;
  return row;
}

/// What bounds a pass without communication: the busier of compute and memory.
Seconds compute_of(const TpWire& w) {
  const StageWork& work = w.judged->placement.step.work;
  return std::max(work.compute, work.memory);
}

} // namespace

SweepResult tp_sweep(const Catalog& catalog, const TpRequest& base, const WireChoice& wires,
                     const Sweep& sweep, bool tabulate) {
  check_sweep_phase(base.serving.phase, sweep);
  const Phase phase = base.serving.phase;
  const std::string param(to_string(sweep.param));
  SweepResult result{sweep_document("tp", sweep),
                     TextTable({{param, Align::right},
                                {"wire", Align::left},
                                {"headline", Align::right},
                                {"expected", Align::right},
                                {phase == Phase::prefill ? "TTFT" : "TPOT", Align::right},
                                {"comm", Align::right},
                                {"verdict", Align::left}}),
                     {},
                     {}};
  result.document["phase"] = phase;
  result.document["model"] = base.model_id;
  Json rows = Json::array();
  // Per wire (in the order given) its expected and headline series; one compute line per
  // distinct group of GPUs.
  std::vector<PlotSeries> expected(wires.usable.size());
  std::vector<PlotSeries> headline(wires.usable.size());
  std::map<std::string, PlotSeries> compute;
  std::vector<double> xs;
  std::vector<double> ys;
  for (const std::int64_t value : sweep.values) {
    const TpRequest request = at_point(base, sweep.param, value);
    const std::string shown = sweep_value_text(sweep.param, value);
    xs.push_back(static_cast<double>(value));
    const WireChoice here = sweep.param == SweepParam::gpus
                                ? wires_for_group(request.gpu, request.gpus, wires.usable)
                                : wires;
    for (const SkippedWire& skipped : here.skipped) {
      rows.push_back(skipped_row(sweep.param, value, *skipped.link, skipped.reason));
      result.table.add_row({shown, skipped.link->id, "-", "-", "-", "-", "-"});
    }
    TpReport report;
    try {
      report = tensor_parallel_figures(catalog, request, here.usable);
    } catch (const GroupError& error) {
      for (const Link* link : here.usable) {
        rows.push_back(skipped_row(sweep.param, value, *link, error.what()));
        result.table.add_row({shown, link->id, "-", "-", "-", "-", "-"});
      }
      result.notes.push_back(fmt::format("{} {}: {}", param, shown, error.what()));
      continue;
    }
    for (const TpWire& w : report.wires) {
      rows.push_back(row_of(sweep.param, value, w));
      if (tabulate) {
        result.table.add_row({shown, w.link->id, format_seconds(w.headline.low),
                              w.expected ? format_seconds(*w.expected) : "-",
                              w.judged ? format_seconds(w.judged->placement.step.latency) : "-",
                              w.judged ? format_share(w.judged->placement.step.exposed_comm,
                                                      w.judged->placement.step.stage)
                                       : "-",
                              w.judged ? std::string(to_string(w.judged->verdict.level)) : "-"});
      }
      const auto index =
          static_cast<std::size_t>(std::ranges::find(wires.usable, w.link) - wires.usable.begin());
      const auto x = static_cast<double>(value);
      headline[index].points.emplace_back(x, w.headline.low.value());
      ys.push_back(w.headline.low.value());
      if (w.expected) {
        expected[index].points.emplace_back(x, w.expected->value());
        ys.push_back(w.expected->value());
      }
      if (w.judged) {
        PlotSeries& line = compute[fmt::format("compute on {} × {}", w.gpus, w.gpu->id)];
        if (line.points.empty() || line.points.back().first != x) {
          line.points.emplace_back(x, compute_of(w).value());
          ys.push_back(compute_of(w).value());
        }
      }
    }
  }
  result.document["rows"] = std::move(rows);

  PlotSpec& plot = result.plot;
  plot.title = fmt::format("{}: tensor-parallel all-reduce time per {}", base.model_id,
                           phase == Phase::prefill ? "prefill pass" : "decode step");
  plot.x_label = serving_axis_label(sweep.param, phase, "GPUs in the tensor-parallel group");
  plot.y_label = fmt::format("time per {} (s)", phase == Phase::prefill ? "pass" : "step");
  plot.log_x = spans_decades(xs);
  plot.log_y = spans_decades(ys);
  for (std::size_t i = 0; i < wires.usable.size(); ++i) {
    const int colour = static_cast<int>(i);
    const std::string& id = wires.usable[i]->id;
    plot.series.push_back({id + " expected", SeriesStyle::solid, colour, expected[i].points});
    plot.series.push_back({id + " headline", SeriesStyle::dashed, colour, headline[i].points});
  }
  for (auto& [title, line] : compute) {
    plot.series.push_back({title, SeriesStyle::reference, 0, std::move(line.points)});
  }
  return result;
}

} // namespace icx::cli
