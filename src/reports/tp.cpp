#include "icx/reports/tp.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"
#include "icx/host/host_link.hpp"
#include "icx/reports/collective.hpp"
#include "icx/serving/engine.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/comm_time.hpp"
#include "icx/words/engine.hpp"
#include "icx/words/ranking.hpp"
#include "icx/words/step.hpp"
#include "icx/words/verdict.hpp"

namespace icx {

TpRequest tp_request_for(const Model& model, const Dtype& dtype, const Dtype& act_dtype) {
  TpRequest request;
  request.model_id = model.id;
  request.model = &model;
  request.serving.act_dtype = &act_dtype;
  request.shape = {model.hidden, model.layers, act_dtype.bytes_per_element};
  request.attention = attention_shape(model);
  request.total_params = model.total_params;
  request.active_params = model.active_params;
  request.dtype = &dtype;
  return request;
}

std::int64_t TpRequest::tokens() const {
  // A prefill pass of several prompts carries all their tokens.
  return serving.phase == Phase::prefill ? serving.tokens * serving.batch.value_or(1)
                                         : serving.batch.value_or(1);
}

bool TpReport::judged() const {
  return std::ranges::any_of(wires, [](const TpWire& wire) { return wire.judged.has_value(); });
}

WireChoice wires_for_group(const Gpu* gpu, std::optional<int> gpus,
                           std::span<const Link* const> links) {
  WireChoice choice;
  for (const Link* link : links) {
    if (const Check check = check_group_link(gpu, gpus, *link); !check) {
      choice.skipped.push_back({link, check.reason()});
    } else {
      choice.usable.push_back(link);
    }
  }
  return choice;
}

namespace {

/// Appends `item` unless it is already there (legends name each GPU or rate once).
void add_once(std::vector<std::string>& items, std::string item) {
  if (std::ranges::find(items, item) == items.end()) {
    items.push_back(std::move(item));
  }
}

/// The facts the legend quotes: wires without an expected model, GPUs assumed, rates.
TpLegend legend_facts(const TpReport& report) {
  TpLegend legend;
  for (const TpWire& w : report.wires) {
    if (!w.expected) {
      legend.no_expected_model.push_back(w.link->id);
    }
    if (w.kernel) {
      legend.ran.push_back(w.topology ? fmt::format("{} {} over {} ({}; {})", w.link->id,
                                                    to_string(*w.kernel), w.topology->id,
                                                    w.topology->description, Knob::pcie_topology)
                                      : fmt::format("{} {}", w.link->id, to_string(*w.kernel)));
    }
    if (!w.gpu_native) {
      add_once(legend.assumed_gpus, w.gpu->id);
    }
    if (!w.pricing.empty()) {
      add_once(legend.assumed_rates, w.pricing);
    }
  }
  return legend;
}

/// Which GPU computes: the one asked for, else each wire's own (or an assumed one).
std::string gpu_rule(const TpReport& report) {
  if (report.request.gpu != nullptr) {
    return fmt::format("{}, as {} says", report.request.gpu->id, Knob::gpu);
  }
  const std::vector<std::string>& assumed = report.legend.assumed_gpus;
  return fmt::format("the one whose scale-up link is the wire{}",
                     assumed.empty() ? std::string()
                                     : fmt::format(", else {} (change with {})",
                                                   fmt::join(assumed, ", "), Knob::gpu));
}

std::string step_line(const TpReport& report) {
  const TpRequest& request = report.request;
  const std::string overlap =
      request.serving.overlap > 0
          ? fmt::format("{:g} % of them hidden ({})", request.serving.overlap * 100, Knob::overlap)
          : fmt::format("none hidden ({})", Knob::overlap);
  const std::string work =
      request.phase() == Phase::prefill
          ? fmt::format("the GEMMs of {} params × {} tokens (the LM head one token) and "
                        "attention over the GPUs",
                        format_params(request.active_params), request.tokens())
          : fmt::format("the GEMMs of the weights and attention over {} sequences' KV cache at "
                        "{} tokens of context",
                        request.tokens(), request.serving.context);
  return fmt::format("step = {}, one operation after another, each the longer of its FLOPs and "
                     "HBM reads (HBM at its achievable fraction, {}): GEMMs and attention by "
                     "the GPU's measured kernel curves where the catalog has them, else at its "
                     "dense peak × its utilisation (catalog; {} sets every operation to one), "
                     "plus the all-reduces, {}; the GPU is {}\n  assumed: {}",
                     work, Knob::hbm_fraction, Knob::mfu, overlap, gpu_rule(report),
                     fmt::join(report.legend.assumed_rates, "; "));
}

/// The scheduler limit of `serving`: the one given, else the engine's by GPU.
std::string max_batch_text(const ServingRequest& serving) {
  return serving.engine != nullptr
             ? scheduler_setting_text(*serving.engine, &SchedulerTier::max_batch, serving.max_batch,
                                      "sequences")
             : std::string("the engine's limit");
}

std::vector<std::string> legend_lines(const TpReport& report) {
  const TpRequest& request = report.request;
  const std::vector<std::string>& none = report.legend.no_expected_model;
  std::vector<std::string> lines{
      fmt::format("headline = traffic per {} / headline bandwidth (vendor bandwidth, no latency: "
                  "the textbook arithmetic, both directions as the vendor counts them); a range "
                  "gives fast–slow ends.",
                  pass_name(request.phase())),
      fmt::format(
          "expected = {} all-reduces of {} each over the GPUs, by {} ({}); NCCL "
          "runs the fastest of its algorithms and protocols, each a latency plus the "
          "bytes at the per-direction bandwidth × a measured efficiency (see 'icx "
          "collective'); ran: {}{}.",
          report.traffic.allreduces_per_layer * request.shape.layers, format_bytes(report.message),
          implementation_text(request.serving.setup.implementation), Knob::impl,
          fmt::join(report.legend.ran, "; "),
          none.empty() ? "" : fmt::format("; no expected model for {}", fmt::join(none, ", "))),
      "crossover = all-reduce size at which latency and bandwidth terms are equal: smaller "
      "messages are latency-bound."};
  if (!report.judged()) {
    lines.push_back(
        fmt::format("verdicts need the model's parameter count: pass {} N.", Knob::params));
    return lines;
  }
  lines.push_back(step_line(report));
  const Engine* engine = request.serving.engine;
  if (engine != nullptr) {
    lines.push_back(fmt::format("engine: {}: {} ({})", engine_text(*engine),
                                engine_costs_text(*engine), Knob::engine));
  }
  if (!request.serving.batch && request.serving.objective == Objective::throughput) {
    lines.push_back(
        fmt::format("batch: TTFT/TPOT and comm are at the largest batch each wire's GPUs hold, per "
                    "replica at most {} ({}); the traffic, headline and expected columns are "
                    "for one sequence ({} N sets both)",
                    max_batch_text(request.serving), Knob::max_batch, Knob::batch));
  }
  lines.push_back(fmt::format("verdict: the wire's tensor group against every layout of the same "
                              "GPUs on the same wire, for {} ({}); {}",
                              to_string(request.serving.objective), Knob::objective,
                              verdict_thresholds()));
  return lines;
}

std::vector<std::string> legend_short_lines(const TpReport& report) {
  const TpRequest& request = report.request;
  std::vector<std::string> lines{fmt::format(
      "headline: traffic / vendor bandwidth, no latency; expected: {} all-reduces of {} each, "
      "{} {}; crossover: the size where latency and bandwidth take equal time",
      report.traffic.allreduces_per_layer * request.shape.layers, format_bytes(report.message),
      Knob::impl, to_string(request.serving.setup.implementation))};
  if (report.judged()) {
    const Engine* engine = request.serving.engine;
    lines.push_back(fmt::format(
        "{}: the {} on the GPUs shown{}, all-reduces included; verdict: against every layout of "
        "the same GPUs on the same wire, for {} ({})",
        latency_name(request.phase()), pass_name(request.phase()),
        engine != nullptr ? fmt::format(" with {}'s own costs", engine->id) : std::string(),
        to_string(request.serving.objective), Knob::objective));
  }
  return lines;
}

/// The headline all-reduce: 2 · B tokens · H hidden · b bytes per GPU.
std::string per_allreduce_formula(const TpRequest& request) {
  return fmt::format("2 × {} tokens × {} hidden × {} B", request.tokens(), request.shape.hidden,
                     request.shape.bytes_per_element);
}

std::vector<TpTrafficTerm> traffic_terms(const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  return {
      {"per all-reduce", traffic.per_allreduce, per_allreduce_formula(report.request)},
      {"per layer", traffic.per_layer, fmt::format("{} all-reduces", traffic.allreduces_per_layer)},
      {fmt::format("per {}", pass_name(report.request.phase())), traffic.per_pass,
       fmt::format("{} layers", report.request.shape.layers)}};
}

/// The traffic terms: per all-reduce, per layer, per pass.
void derive_traffic(const TpReport& report, Derivations& d) {
  const TpRequest& request = report.request;
  const TensorParallelTraffic& traffic = report.traffic;
  d.push_back({"per all-reduce", per_allreduce_formula(request), traffic.per_allreduce.value(),
               format_count(traffic.per_allreduce.value()) + " B"});
  d.push_back({"per layer",
               fmt::format("{} all-reduces × {} B", traffic.allreduces_per_layer,
                           format_count(traffic.per_allreduce.value())),
               traffic.per_layer.value(), format_count(traffic.per_layer.value()) + " B"});
  d.push_back({fmt::format("per {}", pass_name(request.phase())),
               fmt::format("{} layers × {} B", request.shape.layers,
                           format_count(traffic.per_layer.value())),
               traffic.per_pass.value(), format_count(traffic.per_pass.value()) + " B"});
}

/// The step of the wire's tensor group and what a request sees.
void derive_step(const TpReport& report, const TpWire& w, Derivations& d) {
  const StepTime& step = w.judged->placement.step;
  d.push_back({fmt::format("step on {}", w.link->id),
               fmt::format("{} of operations ({} compute, {} memory alone) + {} exposed "
                           "all-reduce{}",
                           format_seconds(step.work.seconds), format_seconds(step.work.compute),
                           format_seconds(step.work.memory), format_seconds(step.exposed_comm),
                           layer_gaps_term(step)),
               step.stage.value(), format_seconds(step.stage)});
  d.push_back({fmt::format("{} on {}", report.request.phase() == Phase::prefill ? "TTFT" : "TPOT",
                           w.link->id),
               latency_formula(step, w.judged->placement.layout.pp), step.latency.value(),
               format_seconds(step.latency)});
}

Derivations derive(const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  Derivations d;
  derive_traffic(report, d);
  std::vector<std::pair<const Gpu*, int>> kernels_shown;
  for (const TpWire& w : report.wires) {
    d.push_back({fmt::format("headline on {}", w.link->id),
                 fmt::format("{} B / {}", format_count(traffic.per_pass.value()),
                             format_rate(w.link->headline_bandwidth.high)),
                 w.headline.low.value(), format_seconds(w.headline.low)});
    if (w.expected) {
      d.push_back({fmt::format("expected on {}", w.link->id),
                   fmt::format("{} all-reduces × {} all-reduce of {} B over {} GPUs{}",
                               traffic.allreduces_per_layer * report.request.shape.layers,
                               w.kernel ? to_string(*w.kernel) : "expected",
                               format_count(report.message.value()), w.gpus,
                               w.topology ? fmt::format(" ({})", w.topology->id) : ""),
                   w.expected->value(), format_seconds(*w.expected)});
    }
    if (w.judged) {
      // A group's kernels depend on its GPU and size alone: each pair's once.
      const std::pair<const Gpu*, int> group{w.gpu, w.gpus};
      if (std::find(kernels_shown.begin(), kernels_shown.end(), group) == kernels_shown.end()) {
        kernels_shown.push_back(group);
        add_operation_terms(d, w.judged->placement.step, *w.gpu,
                            fmt::format("{} × {}: ", w.gpus, w.gpu->id));
      }
      derive_step(report, w, d);
    }
  }
  return d;
}

/// The group on one wire: its GPU and size. Throws GroupError when it cannot exist there.
TpWire group_on(const Catalog& catalog, const TpRequest& request, const WireTime& time) {
  TpWire wire;
  wire.link = time.link;
  wire.headline = time.seconds;
  wire.gpu = request.gpu;
  if (wire.gpu == nullptr) {
    wire.gpu = &gpu_for_link(catalog, *time.link, wire.gpu_native);
  }
  wire.gpus = request.gpus.value_or(wire.gpu->scale_up_domain);
  Check check = check_tensor_allreduce(request.attention, wire.gpus);
  if (check) {
    check = check_group_link(request.gpu, wire.gpus, *time.link);
  }
  if (!check) {
    throw GroupError(request.gpus ? check.reason()
                                  : fmt::format("{} (the group is the {}-GPU scale-up domain of "
                                                "catalog gpu '{}', scale_up_domain)",
                                                check.reason(), wire.gpus, wire.gpu->id));
  }
  return wire;
}

/// The wire's tensor group as a layout of its GPUs, ranked against the others on the same
/// wire (a decode step at the batch given, a prefill of one prompt).
void step_wire(const Catalog& catalog, const TpRequest& request, TpWire& wire) {
  const Cluster cluster{wire.gpu, wire.gpus, wire.gpus, wire.gpus, wire.link, wire.link, wire.gpus};
  const Workload workload =
      workload_for(catalog, *request.model, *request.dtype, *wire.gpu, request.serving);
  wire.rate = workload.rate;
  wire.pricing = describe_pricing(workload, wire.gpus);
  const Layout tensor{wire.gpus, 1, 1, 1};
  std::vector<RankedLayout> ranked =
      rank_layouts_judging(cluster, workload, request.serving.objective, tensor);
  const std::size_t rank = rank_of(ranked, tensor);
  if (rank < ranked.size()) {
    wire.judged = std::move(ranked[rank]);
    wire.rank = rank + 1;
    wire.layouts = ranked.size();
    if (wire.judged->verdict.compared) {
      const std::size_t at = rank_of(ranked, *wire.judged->verdict.compared);
      if (at < ranked.size()) {
        wire.compared = std::move(ranked[at].placement);
      }
    }
  }
}

/// The expected time, crossover and (with a parameter count) the step and verdict of `wire`.
void judge_wire(const Catalog& catalog, const TpReport& report, const WireTime& time,
                TpWire& wire) {
  const TpRequest& request = report.request;
  // The wire's GPU runs its all-reduces in its tuning's setup, as the step does.
  const CollectiveRequest one{
      Collective::all_reduce, Algorithm::automatic, wire.gpus, report.message,
      tuned_setup(*wire.gpu, request.serving.setup, request.serving.tuning)};
  const CommTime comm = comm_time(*time.link, report.traffic.per_pass, one,
                                  report.traffic.allreduces_per_layer * request.shape.layers);
  if (const Check check = check_expected_model(*time.link, one.algorithm); !check) {
    wire.expected = unexpected(check.reason());
  } else {
    if (comm.expected) {
      wire.expected = *comm.expected;
      wire.kernel = comm.kernel;
      wire.topology = comm.topology;
    }
    wire.crossover = crossover_size(*time.link, one);
  }
  if (request.active_params > 0 && request.dtype != nullptr && request.model != nullptr) {
    step_wire(catalog, request, wire);
  }
}

} // namespace

TpReport tensor_parallel_figures(const Catalog& catalog, const TpRequest& request,
                                 std::span<const Link* const> links) {
  TpReport report;
  report.request = request;
  report.traffic = tensor_parallel_traffic(request.shape, request.tokens());
  report.message = activation_bytes(request.shape, request.tokens());
  for (const WireTime& time : headline_times(report.traffic.per_pass, links)) {
    TpWire wire = group_on(catalog, request, time);
    judge_wire(catalog, report, time, wire);
    report.wires.push_back(std::move(wire));
  }
  return report;
}

TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                std::span<const Link* const> links) {
  TpReport report = tensor_parallel_figures(catalog, request, links);
  for (TpWire& w : report.wires) {
    if (w.judged) {
      w.judged->verdict.reason = layout_reason(*w.judged, w.compared ? &*w.compared : nullptr,
                                               request.serving.phase, request.serving.objective);
    }
  }
  report.traffic_terms = traffic_terms(report);
  report.legend = legend_facts(report);
  report.legend.lines = legend_lines(report);
  report.legend.short_lines = legend_short_lines(report);
  report.derivations = derive(report);
  return report;
}

TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                const WireChoice& wires) {
  TpReport report = tensor_parallel_report(catalog, request, wires.usable);
  report.skipped = wires.skipped;
  return report;
}

} // namespace icx
