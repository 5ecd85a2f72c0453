// The tensor-parallel curve of 'icx report' when the chosen layout has a tensor group: its
// all-reduce time per prefill pass over prompt tokens as icx place prices it in that layout on
// the cluster (inside a node, or across nodes over the scale-out wire), so the chart and the
// splits table are one model at the page's prompt length.
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "page/sections.hpp"
#include "sweeps/document.hpp"

namespace icx::cli {

namespace {

/// The chosen layout's tensor split at every swept prompt length; nothing at a length where
/// the layout cannot be priced.
struct TensorCurves {
  PlotSeries expected{"", SeriesStyle::solid, 0, {}};
  PlotSeries headline{"", SeriesStyle::dashed, 0, {}};
  PlotSeries scale_up{"", SeriesStyle::solid, 1, {}};
  PlotSeries compute{"", SeriesStyle::reference, 0, {}};
  std::vector<double> ys;
};

/// The tensor split of `placement`, or nullptr when it has none on a wire.
const StrategyCost* tensor_split(const Placement& placement) {
  const auto tensor =
      std::ranges::find(placement.strategies, Strategy::tensor, &StrategyCost::strategy);
  return tensor == placement.strategies.end() || tensor->wire == nullptr ? nullptr : &*tensor;
}

/// The chosen layout priced at `tokens` prompt tokens, or nothing when it cannot run there.
std::optional<Placement> chosen_at(const ReportInputs& in, const PlaceRequest& prefill,
                                   std::int64_t tokens) {
  PlaceRequest request = prefill;
  const Layout& layout = in.report.placement().layout;
  request.layout = LayoutRequest::of(layout);
  set_serving_point(SweepParam::tokens, tokens, request.serving);
  try {
    return place_figures(in.catalog, request).placement();
  } catch (const InputError&) {
    return std::nullopt;
  }
}

void add_point(TensorCurves& curves, double x, const Placement& placement) {
  const StrategyCost* tensor = tensor_split(placement);
  if (tensor == nullptr) {
    return;
  }
  curves.headline.points.emplace_back(x, tensor->seconds.value());
  curves.ys.push_back(tensor->seconds.value());
  if (tensor->expected_seconds) {
    curves.expected.points.emplace_back(x, tensor->expected_seconds->value());
    curves.ys.push_back(tensor->expected_seconds->value());
  }
  if (tensor->crosses_domain && tensor->seconds_on_scale_up) {
    curves.scale_up.points.emplace_back(x, tensor->seconds_on_scale_up->value());
    curves.ys.push_back(tensor->seconds_on_scale_up->value());
  }
  curves.compute.points.emplace_back(x, placement.step.work.seconds.value());
  curves.ys.push_back(placement.step.work.seconds.value());
}

} // namespace

bool add_tensor_curves(const ReportInputs& in, const PlaceRequest& prefill, const Sweep& sweep,
                       PageSection& section) {
  const Placement& chosen = in.report.placement();
  const int tp = chosen.layout.tp;
  const Cluster& c = in.report.cluster;
  const StrategyCost* tensor = tensor_split(chosen);
  if (tp <= 1 || tensor == nullptr) {
    return false;
  }
  TensorCurves curves;
  const std::string wire = tensor->crosses_domain && tensor->wire != c.scale_up
                               ? fmt::format("{} + {}", c.scale_up->id, tensor->wire->id)
                               : tensor->wire->id;
  curves.expected.title = fmt::format("TP {} expected", tp);
  curves.headline.title = fmt::format("TP {} headline", tp);
  curves.scale_up.title = fmt::format("same traffic on {} alone", c.scale_up->id);
  curves.compute.title = "kernels of a stage";
  for (const std::int64_t tokens : sweep.values) {
    if (const auto placement = chosen_at(in, prefill, tokens)) {
      add_point(curves, static_cast<double>(tokens), *placement);
    }
  }
  PlotSpec spec;
  spec.title = fmt::format("{}: tensor-parallel all-reduce per prefill pass, {} as placed ({})",
                           in.model.model.id, layout_name(chosen.layout), wire);
  spec.x_label = "prompt tokens per sequence";
  spec.y_label = "time per pass (s)";
  spec.y_seconds = true;
  spec.log_x = true;
  spec.log_y = spans_decades(curves.ys);
  for (PlotSeries* series :
       {&curves.expected, &curves.headline, &curves.scale_up, &curves.compute}) {
    if (!series->points.empty()) {
      spec.series.push_back(std::move(*series));
    }
  }
  section.charts.push_back({std::move(spec), std::nullopt, {}});
  return true;
}

} // namespace icx::cli
