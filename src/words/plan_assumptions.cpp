// What a plan assumed: the load, the engine, how each layout was priced, the rented nodes and
// their prices, each with the flag that changes it.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "icx/base/knob.hpp"
#include "icx/serving/engine.hpp"
#include "icx/words/engine.hpp"
#include "icx/words/place.hpp"
#include "words/plan.hpp"

namespace icx::detail {

namespace {

/// The load's first line: what arrives, how, and how long each request is.
std::string arrivals_text(const PlanRequest& request) {
  const Load& load = request.load;
  const std::string lengths =
      fmt::format("each with {} prompt and {} output tokens", load.input, load.output);
  if (!request.traffic || request.traffic->arrivals == Arrivals::poisson) {
    return fmt::format("requests arrive at random (Poisson) at {:g}/s over the whole deployment, "
                       "{} ({}, {}, {})",
                       load.rate, lengths, Knob::rate, Knob::input, Knob::output);
  }
  const Traffic& t = *request.traffic;
  if (t.arrivals == Arrivals::constant) {
    return fmt::format("one request every 1/{:g} s over the whole deployment, {} ({}, {}, {}, "
                       "{})",
                       load.rate, lengths, Knob::rate, Knob::arrivals, Knob::input, Knob::output);
  }
  return fmt::format("{} clients over the whole deployment, each sending its next request when "
                     "its last one ends, {} ({}, {}, {})",
                     t.concurrency, lengths, Knob::concurrency, Knob::input, Knob::output);
}

/// How each layout was simulated and which statistic each target holds.
std::string simulation_text(const PlanRequest& request) {
  const Traffic& t = *request.traffic;
  const std::string lengths = t.input.shape == LengthShape::fixed
                                  ? std::string("every request of the nominal lengths")
                                  : "lengths " + length_draw_text(t.input);
  return fmt::format(
      "each layout simulated step by step on one scheduler, the load shared evenly by its "
      "replicas and their pipelines' micro-batches: {} requests, {} left out at each end, seed {}, "
      "{} ({}, {}, {}, {}, {}); the "
      "targets held against the TTFT's {} and the TPOT's {} of the measured requests "
      "({} p99:2s; {} for the closed form's means)",
      t.requests, t.warmup, t.seed, lengths, Knob::requests, Knob::warmup, Knob::seed, Knob::spread,
      Knob::lengths, to_string(request.targets.ttft_statistic),
      to_string(request.targets.tpot_statistic), Knob::ttft, Knob::fast);
}

/// How each layout was priced: simulated (and the scheduler's limits), or by the closed form
/// (its queue and Little's law for a rate or for clients).
void pricing_lines(const PlanRequest& request, const Engine& engine,
                   std::vector<std::string>& lines) {
  const std::string max_batch = scheduler_setting_text(engine, &SchedulerTier::max_batch,
                                                       request.serving.max_batch, "sequences");
  const bool closed = request.traffic && request.traffic->arrivals == Arrivals::closed;
  if (request.traffic && request.simulate) {
    lines.push_back(simulation_text(request));
    lines.push_back(fmt::format(
        "an engine scheduler runs at most {} ({}) in the engine's order ({}); each request "
        "holds its KV cache, {}",
        max_batch, Knob::max_batch, to_string(engine.policy),
        kv_admission_text(engine.kv_admission)));
  } else {
    lines.emplace_back("prefill and decode share the GPUs: a decode step slows by the prefill's "
                       "share of their time, none of it hidden under the step's memory reads; "
                       "prompts wait for those ahead as in an M/D/1 queue");
    lines.push_back(fmt::format("{}, each holding its KV cache at full length; an engine "
                                "scheduler runs at most {} ({}); decode runs at the mean "
                                "context, prompt + half the output",
                                closed ? "the clients send at the rate Little's law gives, "
                                         "clients / (TTFT + output × TPOT), all in flight"
                                       : "requests in flight = rate × (TTFT + output × TPOT) "
                                         "(Little's law)",
                                max_batch, Knob::max_batch));
  }
}

/// The setup each planned GPU with tunings in the catalog runs (--tuning), once a GPU.
void add_tuning_lines(const Catalog& catalog, const PlanRequest& request,
                      std::vector<std::string>& lines) {
  std::vector<std::string> seen;
  for (const System* system : request.systems) {
    const Gpu& gpu = catalog.gpu(system->gpu);
    if (gpu.tunings.empty() || std::ranges::find(seen, gpu.id) != seen.end()) {
      continue;
    }
    seen.push_back(gpu.id);
    if (std::optional<std::string> tuning =
            tuning_text(gpu, gpu_tuning(gpu, request.serving.tuning), request.serving.tuning)) {
      lines.push_back(*std::move(tuning));
    }
  }
  if (seen.empty() && !request.serving.tuning.empty()) {
    lines.push_back(fmt::format("tuning '{}' not applied: none of the planned GPUs has tunings "
                                "in the catalog, their own figures price them ({})",
                                request.serving.tuning, Knob::tuning));
  }
}

} // namespace

std::vector<std::string> plan_assumptions(const Catalog& catalog, const PlanRequest& request) {
  std::vector<std::string> lines;
  lines.push_back(arrivals_text(request));
  lines.push_back(prefix_cache_text(request.load));
  const Engine& engine = engine_of(catalog, request.serving.engine);
  lines.push_back(fmt::format("engine: {}: {} ({})", engine_text(engine), engine_costs_text(engine),
                              Knob::engine));
  lines.push_back(fmt::format(
      "chunked prefill: each engine step prefills prompt tokens beside its decodes, up to {} "
      "({})",
      scheduler_setting_text(engine, &SchedulerTier::prefill_chunk, request.serving.prefill_chunk,
                             "tokens") +
          (request.serving.prefill_chunk ? "" : ", the engine's defaults"),
      Knob::prefill_chunk));
  pricing_lines(request, engine, lines);
  add_tuning_lines(catalog, request, lines);
  lines.push_back(fmt::format("all-reduces run by {} ({}); activations cross the wire in "
                              "{} ({}); collectives are not hidden behind compute "
                              "unless {} says",
                              implementation_text(request.serving.setup.implementation), Knob::impl,
                              activation_dtype(catalog, *request.dtype).id, Knob::act_dtype,
                              Knob::overlap));
  const bool closed = request.traffic && request.traffic->arrivals == Arrivals::closed;
  lines.push_back(fmt::format("whole nodes are rented, {} at most ({}); the cost per "
                              "million output tokens is at {}, not at the layout's peak",
                              request.max_nodes, Knob::max_nodes,
                              closed ? "the throughput the clients reach" : "the offered load"));
  if (request.disaggregate) {
    lines.push_back(fmt::format(
        "disaggregated candidates: prompts prefilled on one pool (a part of a node or whole "
        "nodes) and decoded on another, no prefill sharing its GPUs; each prefill GPU sends its "
        "shard of the KV cache over the node's own links when both pools fit one node (its "
        "scale-up link, or PCIe between its scale-up domains), else over its share of the "
        "NICs (expected model), received as fast as it is sent; "
        "taken where both pools need fewer nodes than sharing ({}){}",
        Knob::disaggregate,
        request.traffic && request.simulate
            ? "; both pools priced by the closed form (means), not simulated"
            : ""));
  }
  lines.push_back(fmt::format("prices are on-demand list prices of the date shown, per "
                              "node-hour; a discount, reservation or other region changes them "
                              "({} ID=USD/h)",
                              Knob::price));
  return lines;
}

} // namespace icx::detail
