// icx place: a layout of a model on a cluster (recommended, or the one given), with each
// split's traffic, wire, time and verdict.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/reports/place.hpp"
#include "options/common.hpp"
#include "options/load.hpp"
#include "options/place.hpp"
#include "options/serving.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "sweeps/place.hpp"
#include "views/place.hpp"

namespace icx::cli {

namespace {

struct PlaceCommandOptions {
  PlaceOptions place;
  SweepOptions sweep;
  LoadOptions load;
  SimulationOptions simulation;
};

/// The flags a load replaces: it sets the phase (decode) and the context (its mean).
void check_load_flags(const CLI::App& app, const PlaceCommandOptions& options) {
  check_simulation_flags(app, options.load, options.simulation);
  const bool closed_loop = options.simulation.concurrency.has_value();
  const char* load_flag = closed_loop ? "--concurrency" : "--rate";
  if (!options.load.rate && !closed_loop) {
    for (const char* flag : {"--input", "--output", "--prefix-hit", "--prefill-chunk"}) {
      if (app.count(flag) > 0) {
        throw UsageError(fmt::format("{} describes a load: give --rate N (requests per second) "
                                     "or --concurrency N (clients) with it",
                                     flag));
      }
    }
    return;
  }
  for (const char* flag : {"--phase", "--tokens", "--context", "--objective"}) {
    if (app.count(flag) > 0) {
      throw UsageError(fmt::format("{} with {}: a load sets the step (a decode step at "
                                   "--input + half of --output tokens); drop {}",
                                   flag, load_flag, flag));
    }
  }
  if (!options.sweep.sweep.empty()) {
    throw UsageError(fmt::format("--sweep with {}: sweep the load with 'icx plan', or drop {}",
                                 load_flag, load_flag));
  }
}

int run_place(const CLI::App& app, const PlaceCommandOptions& options) {
  check_load_flags(app, options);
  const PlaceOptions& o = options.place;
  const Style style = style_of(o.common);
  check_sweep_flags(options.sweep, style, !options.sweep.sweep.empty(),
                    "--sweep tokens=256:32768:x2");
  const std::optional<Sweep> sweep = sweep_of(options.sweep, place_sweep_params);
  if (sweep && sweep->param == SweepParam::gpus && o.gpus) {
    throw UsageError(
        fmt::format("--sweep {}: sets the cluster size; drop --gpus {}", sweep->text, *o.gpus));
  }
  const Catalog catalog = load_catalog(o.common);
  const ResolvedModel model = resolve_model(catalog, o.model);
  ClusterRequest cluster;
  PlaceRequest request = place_request(catalog, o, model, &cluster);
  request.load = load_of(options.load);
  request.serving.prefill_chunk = options.load.prefill_chunk;
  request.traffic = traffic_of(options.load, options.simulation);
  request.emit = emits_launch(o.serving, model);
  if (request.traffic && request.traffic->arrivals == Arrivals::closed) {
    // The closed loop's lengths; its rate is what the simulation finds.
    request.load = load_lengths_of(options.load);
  }
  if (sweep) {
    SweepWriter out(style, options.sweep);
    out.finish(place_sweep(catalog, request, cluster, *sweep, o.top, out));
    return 0;
  }
  const PlaceReport report = place_report_of(catalog, request);
  emit(style, report, "layouts", style.explain ? report.derivations : Derivations{},
       [&] { print_place(style, report, o.top); });
  return 0;
}

} // namespace

Command setup_place(CLI::App& app) {
  auto options = std::make_shared<PlaceCommandOptions>();
  PlaceOptions* o = &options->place;
  CLI::App* sub = app.add_subcommand(
      "place", "Rank every layout of a model on a cluster by a serving step model (TTFT, "
               "TPOT, tokens/s per GPU) and judge the best or the one given");
  add_place_options(*sub, *o);
  add_sweep_options(*sub, options->sweep, place_sweep_params);
  add_load_options(*sub, options->load, false);
  add_simulation_options(*sub, options->simulation);
  add_emit_option(*sub, o->serving);
  add_explain_option(*sub, o->common);
  add_common_options(*sub, o->common);
  sub->footer("Examples:\n"
              "  icx place --model 70b --system dgx-h100 --phase decode --batch 32 --context 2048\n"
              "  icx place --model 405b --system dgx-h200 --objective throughput\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16 --tp 16 --dp 1\n"
              "  icx place --model deepseek-v3 --system gb200-nvl72 --json\n"
              "  icx place --model 70b --system l40s-8 --pcie-topology switch\n"
              "  icx place --model 405b --gpu h100 --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr\n"
              "  icx place --model 70b --system dgx-h100 --sweep tokens=256:32768:x2 --plot "
              "place.svg\n"
              "  icx place --model 405b --system dgx-h100 --sweep gpus=8:64:x2 --top 3\n"
              "  icx place --model 70b --system aws-p5 --tp 8 --rate 5 --input 2048 --output 256\n"
              "  icx place --model 70b --system dgx-h100 --tp 8 --concurrency 64 --input 1000 "
              "--output 1000 --spread 0.2\n"
              "  icx place --model 70b --system dgx-h100 --rate 5 --input 2048 --output 256 "
              "--emit vllm");
  return {sub, [sub, options] { return run_place(*sub, *options); }};
}

} // namespace icx::cli
