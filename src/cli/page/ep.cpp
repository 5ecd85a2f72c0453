// The expert-parallel curve of 'icx report' for an MoE model: one MoE layer's dispatch and
// combine time per GPU over the tokens each GPU dispatches, as icx ep prices them, for the
// chosen layout's expert group (one scale-up domain when it has none).
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "icx/serving/step_model.hpp"
#include "icx/wire/expert_parallel.hpp"
#include "page/sections.hpp"
#include "sweeps/place.hpp"

namespace icx::cli {

namespace {

/// The tokens per GPU the curve sweeps: from DeepEP's low-latency benchmark setting to its
/// high-throughput one (default_tokens_per_gpu).
constexpr std::string_view ep_curve_sweep = "tokens=128:4096:x2";

/// The expert-parallel group of the chosen layout: its GPUs, fabric, mode and dtypes.
EpRequest chosen_ep_request(const ReportInputs& in, int gpus, int span) {
  const Cluster& c = in.report.cluster;
  const ServingRequest& serving = in.request.serving;
  const Dtype& activations = activation_dtype(in.catalog, in.model.dtype);
  EpRequest request;
  request.model = &in.model.model;
  request.gpus = gpus;
  request.fabric =
      span <= c.domain ? Fabric{c.scale_up, gpus, nullptr, 1} : group_fabric(c, gpus, span);
  request.mode = serving.ep_mode.value_or(EpMode::normal);
  request.dispatch_dtype = serving.dispatch_dtype != nullptr
                               ? serving.dispatch_dtype
                               : &default_dispatch_dtype(in.catalog, request.mode, activations);
  request.combine_dtype = &activations;
  request.routing = serving.ep_routing;
  return request;
}

/// Dispatch and combine per MoE layer over the sweep's tokens per GPU, expected and headline.
PlotSpec ep_curves(EpRequest request, const Sweep& sweep) {
  PlotSpec spec;
  spec.title = fmt::format("{}: expert-parallel dispatch and combine per MoE layer, EP {} ({})",
                           request.model->id, request.gpus, ep_mode_text(request.mode));
  spec.x_label = "tokens per GPU";
  spec.y_label = "time per MoE layer (s)";
  spec.y_seconds = true;
  spec.log_x = true;
  PlotSeries dispatch_expected{"dispatch expected", SeriesStyle::solid, 0, {}};
  PlotSeries dispatch_headline{"dispatch headline", SeriesStyle::dashed, 0, {}};
  PlotSeries combine_expected{"combine expected", SeriesStyle::solid, 1, {}};
  PlotSeries combine_headline{"combine headline", SeriesStyle::dashed, 1, {}};
  std::vector<double> ys;
  for (const std::int64_t tokens : sweep.values) {
    request.tokens_per_gpu = static_cast<double>(tokens);
    const EpLayerCost cost = ep_layer_cost(request);
    const auto x = static_cast<double>(tokens);
    for (auto [kernel, expected, headline] :
         {std::tuple{&cost.dispatch, &dispatch_expected, &dispatch_headline},
          std::tuple{&cost.combine, &combine_expected, &combine_headline}}) {
      headline->points.emplace_back(x, kernel->headline.value());
      ys.push_back(kernel->headline.value());
      if (kernel->expected) {
        expected->points.emplace_back(x, kernel->expected->value());
        ys.push_back(kernel->expected->value());
      }
    }
  }
  spec.log_y = spans_decades(ys);
  spec.series = {dispatch_expected, dispatch_headline, combine_expected, combine_headline};
  return spec;
}

} // namespace

void add_ep_curves(const ReportInputs& in, PageSection& section) {
  if (!in.model.model.is_moe()) {
    return;
  }
  const Cluster& c = in.report.cluster;
  const Layout& layout = in.report.placement().layout;
  const int gpus = layout.ep > 1 ? layout.ep : std::min(c.domain, c.gpus);
  const int span = layout.ep > 1 ? layout.tp * layout.ep : gpus;
  const EpRequest request = chosen_ep_request(in, gpus, span);
  if (const Check check = check_ep(request); !check) {
    section.notes.push_back(
        fmt::format("expert-parallel dispatch not shown for EP {}: {}", gpus, check.reason()));
    return;
  }
  const Sweep sweep = parse_sweep(std::string(ep_curve_sweep), place_sweep_params);
  section.charts.push_back({ep_curves(request, sweep), std::nullopt, {}});
  section.paragraphs.push_back(fmt::format(
      "Expert-parallel dispatch and combine of one MoE layer per GPU over {} to {} tokens per "
      "GPU for a group of {} GPUs ({} the scale-up domain), expected solid and headline dashed "
      "(icx ep --tokens-per-gpu).",
      sweep.values.front(), sweep.values.back(), gpus, span <= c.domain ? "inside" : "across"));
}

} // namespace icx::cli
