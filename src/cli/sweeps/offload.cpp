#include "sweeps/offload.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/util/text.hpp"
#include "options/host_link.hpp"

namespace icx::cli {

namespace {

std::string flag_of(SweepParam param) {
  return fmt::format("--{}", to_string(param));
}

/// `base` with the swept field of its KV load set to `value`.
OffloadRequest offload_at_point(const OffloadRequest& base, SweepParam param, std::int64_t value) {
  OffloadRequest request = base;
  if (param == SweepParam::batch) {
    request.kv->batch = value;
  } else {
    request.kv->context = value;
  }
  return request;
}

std::string x_label(SweepParam param) {
  return param == SweepParam::batch ? "sequences per decode step (batch)"
                                    : "context tokens per sequence";
}

Json point_row(SweepParam param, std::int64_t value, const OffloadReport& report,
               const HostLinkStep& step) {
  const Offload& r = report.result;
  Json row;
  row[std::string(to_string(param))] = value;
  row["host_link"] = step.link->id;
  row["engine"] = to_string(r.engine);
  row["needed_bytes"] = json_number(r.needed.value());
  row["resident_bytes"] = json_number(r.resident.value());
  row["spilled_bytes"] = json_number(r.spilled.value());
  row["all_hbm_seconds"] = json_number(r.step_all_hbm.value());
  row["hbm_part_seconds"] = json_number(r.step_hbm_part.value());
  row["step_seconds"] = json_number(step.step.value());
  row["slowdown"] = json_number(step.slowdown);
  row["expected_step_seconds"] = json_number(step.expected_step);
  row["expected_slowdown"] =
      step.expected_slowdown ? json_number(*step.expected_slowdown) : Json(nullptr);
  row["note"] = nullptr;
  return row;
}

RowKeys offload_row_keys(SweepParam param) {
  return {std::string(to_string(param)),
          "host_link",
          "engine",
          "needed_bytes",
          "resident_bytes",
          "spilled_bytes",
          "all_hbm_seconds",
          "hbm_part_seconds",
          "step_seconds",
          "slowdown",
          "expected_step_seconds",
          "expected_slowdown",
          "note"};
}

std::vector<Column> offload_table_columns(SweepParam param) {
  return {{std::string(to_string(param)), Align::right},
          {"host link", Align::left},
          {"in HBM", Align::right},
          {"spilled", Align::right},
          {"all in HBM", Align::right, 4},
          {"step", Align::right},
          {"slowdown", Align::right, 3},
          {"expected step", Align::right},
          {"slowdown", Align::right}};
}

Json skipped_row(const RowKeys& keys, std::int64_t value, const OffloadReport& report,
                 const Link& link, const std::string& why) {
  const Offload& r = report.result;
  Json row = null_row(keys);
  row[keys.front()] = value;
  row["host_link"] = link.id;
  row["engine"] = to_string(r.engine);
  row["needed_bytes"] = json_number(r.needed.value());
  row["resident_bytes"] = json_number(r.resident.value());
  row["spilled_bytes"] = json_number(r.spilled.value());
  row["note"] = why;
  return row;
}

std::vector<std::string> offload_cells_of(const std::string& shown, const Offload& r,
                                          const HostLinkStep& step) {
  return {shown,
          step.link->id,
          format_bytes(r.resident),
          format_bytes(r.spilled),
          format_seconds(r.step_all_hbm),
          format_seconds(step.step),
          format_ratio(step.slowdown),
          step.expected_step ? format_seconds(*step.expected_step) : "-",
          step.expected_slowdown ? format_ratio(*step.expected_slowdown) : "-"};
}

/// Per host link its expected step solid and its headline step dashed, and the step all in
/// HBM for reference.
struct OffloadCurves {
  explicit OffloadCurves(std::size_t links) : expected(links), headline(links) {}
  std::vector<PlotSeries> expected;
  std::vector<PlotSeries> headline;
  PlotSeries all_hbm;
  std::vector<double> xs;
  std::vector<double> ys;
};

void offload_chart_point(OffloadCurves& curves, double x, const Offload& r) {
  curves.all_hbm.points.emplace_back(x, r.step_all_hbm.value());
  curves.ys.push_back(r.step_all_hbm.value());
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    const HostLinkStep& step = r.links[i];
    curves.headline[i].points.emplace_back(x, step.step.value());
    curves.ys.push_back(step.step.value());
    if (step.expected_step) {
      curves.expected[i].points.emplace_back(x, step.expected_step->value());
      curves.ys.push_back(step.expected_step->value());
    }
  }
}

PlotSpec offload_chart_of(const OffloadRequest& base, SweepParam param, OffloadCurves& curves) {
  PlotSpec plot;
  plot.title =
      fmt::format("{} ({}) on {} × {}: decode step with the spill streamed ({})", base.model->id,
                  base.dtype->id, base.gpus, base.gpu->id, to_string(base.engine));
  plot.x_label = x_label(param);
  plot.y_label = "time per decode step (s)";
  plot.y_seconds = true;
  plot.log_x = spans_decades(curves.xs);
  plot.log_y = spans_decades(curves.ys);
  for (std::size_t i = 0; i < base.host_links.size(); ++i) {
    const int colour = static_cast<int>(i);
    const std::string& id = base.host_links[i]->id;
    plot.series.push_back(
        {id + " expected", SeriesStyle::solid, colour, std::move(curves.expected[i].points)});
    plot.series.push_back(
        {id + " headline", SeriesStyle::dashed, colour, std::move(curves.headline[i].points)});
  }
  plot.series.push_back(
      {"all in HBM (no offload)", SeriesStyle::reference, 0, std::move(curves.all_hbm.points)});
  return plot;
}

/// The notes above the points' own: the step's formula and what each column is.
std::vector<std::string> offload_head_notes(const OffloadRequest& base, SweepParam param) {
  const bool overlap = base.engine == OffloadEngine::prefetch;
  return {fmt::format("{} × {}, {}, --offload-engine {}: step = {}", base.gpus, base.gpu->id,
                      param == SweepParam::batch
                          ? fmt::format("{} tokens of context per sequence", base.kv->context)
                          : counted(base.kv->batch, "sequence"),
                      to_string(base.engine),
                      overlap ? "max(in HBM part, spilled part)" : "in HBM part + spilled part"),
          "all in HBM: the step if HBM held everything (no offload); step: headline host link, "
          "expected step: measured host-to-device copy rate."};
}

Json offload_head_of(const OffloadRequest& base, const Sweep& sweep) {
  Json head = sweep_document("offload", sweep);
  head["model"] = base.model->id;
  head["dtype"] = base.dtype->id;
  head["gpu"] = base.gpu->id;
  head["gpus"] = base.gpus;
  head["engine"] = to_string(base.engine);
  head["system"] = base.system != nullptr ? Json(base.system->id) : Json(nullptr);
  if (sweep.param == SweepParam::batch) {
    head["context"] = base.kv->context;
  } else {
    head["batch"] = base.kv->batch;
  }
  return head;
}

/// Why a point cannot run: its spill does not fit in host memory; empty when it can.
std::string host_memory_short(const OffloadReport& report, const HostMemoryOrigin& origin) {
  const Offload& r = report.result;
  if (!r.fits_host_memory || *r.fits_host_memory) {
    return {};
  }
  return fmt::format("the spill of {} does not fit in {} of host memory ({})",
                     format_bytes(r.spilled), format_bytes(*r.host_memory),
                     origin.words.empty() ? origin.flag : origin.words);
}

} // namespace

void check_offload_sweep(const OffloadOptions& options, const Sweep& sweep) {
  const bool batch = sweep.param == SweepParam::batch;
  const std::optional<std::int64_t>& swept = batch ? options.batch : options.context;
  const std::optional<std::int64_t>& other = batch ? options.context : options.batch;
  if (swept) {
    throw UsageError(fmt::format("--sweep {}: sets {}; drop {} {}", sweep.text,
                                 flag_of(sweep.param), flag_of(sweep.param), *swept));
  }
  if (!other) {
    throw UsageError(fmt::format("--sweep {}: the KV cache needs {} too (e.g. {})", sweep.text,
                                 batch ? "--context" : "--batch",
                                 batch ? "--context 8192" : "--batch 8"));
  }
}

OffloadOptions offload_sweep_base(const OffloadOptions& options, const Sweep& sweep) {
  OffloadOptions base = options;
  (sweep.param == SweepParam::batch ? base.batch : base.context) = sweep.values.front();
  return base;
}

SweepEnd offload_sweep(const OffloadRequest& base, const HostMemoryOrigin& origin,
                       const Sweep& sweep, SweepSink& out) {
  const RowKeys keys = offload_row_keys(sweep.param);
  out.start(offload_head_of(base, sweep), offload_table_columns(sweep.param), keys);
  SweepEnd end{Json::object(), offload_head_notes(base, sweep.param), {}};
  OffloadCurves curves(base.host_links.size());
  for (const std::int64_t value : sweep.values) {
    const OffloadRequest request = offload_at_point(base, sweep.param, value);
    const std::string shown = sweep_value_text(sweep.param, value);
    const auto x = static_cast<double>(value);
    curves.xs.push_back(x);
    const OffloadReport report = for_gpus_flag([&] { return offload_report(request); });
    const Offload& r = report.result;
    const std::string short_of = host_memory_short(report, origin);
    if (!short_of.empty()) {
      for (const HostLinkStep& step : r.links) {
        out.add(skipped_row(keys, value, report, *step.link, short_of),
                {shown, step.link->id, format_bytes(r.resident), format_bytes(r.spilled), "-", "-",
                 "-", "-", "-"});
      }
      end.notes.push_back(fmt::format("{} {}: {}", to_string(sweep.param), shown, short_of));
      continue;
    }
    for (const HostLinkStep& step : r.links) {
      out.add(point_row(sweep.param, value, report, step), offload_cells_of(shown, r, step));
    }
    if (out.charting()) {
      offload_chart_point(curves, x, r);
    }
  }
  if (out.charting()) {
    end.plot = offload_chart_of(base, sweep.param, curves);
  }
  return end;
}

} // namespace icx::cli
