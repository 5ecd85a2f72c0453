#include "icx/words/place.hpp"
#include "icx/util/text.hpp"

#include <fmt/format.h>

#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/expert_parallel.hpp"
#include "icx/wire/strategies.hpp"
#include "icx/words/engine.hpp"
#include "icx/words/step.hpp"
#include "icx/words/verdict.hpp"

namespace icx {

/// A split's verdict reason; a group pushed off the scale-up link says what that costs.
std::string strategy_reason(const Cluster& cluster, const StrategyCost& cost, Phase phase) {
  if (cost.degree <= 1) {
    return "not used (degree 1)";
  }
  std::string reason = verdict_reason(cost.strategy, cost.wire, cost.verdict, pass_name(phase));
  if (!cost.crosses_domain || cost.wire == cluster.scale_up) {
    return reason;
  }
  const std::string_view boundary = cost.wire == cluster.between_domains
                                        ? "leaves its NVLink domain"
                                        : "crosses the node boundary";
  const std::string inside =
      cost.seconds_on_scale_up
          ? fmt::format("{} on {}", format_seconds(*cost.seconds_on_scale_up), cluster.scale_up->id)
          : fmt::format("{} joins at most {} GPUs", cluster.scale_up->id,
                        cluster.scale_up->max_domain_gpus.value_or(cluster.domain));
  return fmt::format("{} {} onto {}: {} vs {}; {}", name_in(short_names, cost.strategy), boundary,
                     cost.wire->id, format_seconds(cost.verdict.comm), inside, reason);
}

Derivations place_derivations(const Workload& w, const Cluster& cluster, const Placement& p) {
  const Layout& l = p.layout;
  const StepTime& s = p.step;
  Derivations d;
  d.push_back({"weights", weights_formula(*w.model, *w.dtype, w.experts_dtype()), p.weights.value(),
               format_count(p.weights.value()) + " B"});
  d.push_back({"weights per GPU",
               fmt::format("shared part / (tp {} × pp {}) + experts / (tp {} × ep {} × pp {})",
                           l.tp, l.pp, l.tp, l.ep, l.pp),
               p.memory.weights_per_gpu.value(),
               format_count(p.memory.weights_per_gpu.value()) + " B"});
  d.push_back({"KV cache per GPU",
               fmt::format("{} B per token × sequences × length{}, per stage and KV split",
                           format_count(kv_bytes_per_token(*w.model, *w.kv_dtype).value()),
                           w.model->sliding_layers > 0
                               ? fmt::format(" ({} of {} layers at most {} tokens)",
                                             w.model->sliding_layers, w.model->layers,
                                             w.model->sliding_window)
                               : std::string()),
               p.memory.kv_per_gpu.value(), format_count(p.memory.kv_per_gpu.value()) + " B"});
  add_step_terms(d, s, *cluster.gpu, "");
  d.push_back({std::string(latency_name(w.phase)), latency_formula(s, l.pp), s.latency.value(),
               format_seconds(s.latency)});
  return d;
}

namespace {

/// The engine, who runs its all-reduces, and the topology assumed on each link that has one.
void add_engine_lines(const Workload& w, const Cluster& cluster, std::vector<std::string>& lines) {
  if (w.engine != nullptr) {
    lines.push_back(fmt::format("engine: {} ({}; {} and {} override them); its own time: {}",
                                engine_defaults_text(*w.engine, *cluster.gpu), Knob::engine,
                                Knob::max_batch, Knob::prefill_chunk,
                                engine_costs_text(*w.engine)));
  }
  lines.push_back(fmt::format("all-reduces run by {} ({})",
                              implementation_text(w.setup.implementation), Knob::impl));
  const Link* scale_out = cluster.scale_out == cluster.scale_up ? nullptr : cluster.scale_out;
  for (const Link* link : {cluster.scale_up, cluster.between_domains, scale_out}) {
    if (link != nullptr && !link->topologies.empty()) {
      lines.push_back(fmt::format("{} topology: {} ({})", link->id,
                                  topology_text(*link, w.setup.topology), Knob::pcie_topology));
    }
  }
}

/// The speculation a decode step runs: its drafts, acceptance and who pays for what.
std::string speculation_text(const Workload& w) {
  const std::string engine_part =
      w.engine != nullptr && w.engine->speculation
          ? fmt::format(", and the engine adds {} a step and {} a draft (fitted; catalog "
                        "engine '{}')",
                        format_seconds(w.engine->speculation->step),
                        format_seconds(w.engine->speculation->draft), w.engine->id)
          : std::string(", the engine adding nothing of its own (no published figure)");
  return fmt::format(
      "speculative decoding ({}): each decode step checks {} draft{} and emits {:g} tokens a "
      "sequence on average; a draft costs one decoder layer and the LM head{} ({})",
      w.spec->kind, w.spec->draft_tokens, w.spec->draft_tokens == 1 ? "" : "s", w.spec->acceptance,
      engine_part, Knob::spec);
}

} // namespace

std::vector<std::string> place_assumptions(const Workload& w, const Cluster& cluster,
                                           const std::optional<Load>& load) {
  const Gpu& gpu = *cluster.gpu;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("activations cross the wire in {}, the KV cache holds {} "
                              "({}, {})",
                              w.act_dtype->id, w.kv_dtype->id, Knob::act_dtype, Knob::kv_dtype));
  lines.push_back(w.overlap > 0 ? fmt::format("the engine hides {:g} % of the tensor and expert "
                                              "collectives behind compute ({})",
                                              w.overlap * 100, Knob::overlap)
                                : fmt::format("tensor and expert collectives run between the "
                                              "layers' GEMMs, none hidden ({})",
                                              Knob::overlap));
  lines.push_back(fmt::format("HBM reaches {:g} % of {}{} ({})", w.hbm_fraction * 100,
                              format_rate(gpu.hbm_bandwidth), hbm_fraction_origin(w, gpu),
                              Knob::hbm_fraction));
  if (std::optional<std::string> tuning = tuning_text(gpu, w.gpu_tuning, w.tuning)) {
    lines.push_back(*std::move(tuning));
  }
  if (load) {
    lines.push_back(fmt::format(
        "a steady load of {:g} requests/s (Poisson) of {} prompt + {} output tokens, prefilled "
        "in chunks of {} tokens inside the decode steps; decode at their mean context ({}, {}, {}, "
        "{})",
        load->rate, load->input, load->output, load->prefill_chunk, Knob::rate, Knob::input,
        Knob::output, Knob::prefill_chunk));
    lines.push_back(prefix_cache_text(*load));
  }
  lines.push_back(w.batch ? fmt::format("{} in flight across the cluster ({})",
                                        counted(*w.batch, "sequence"),
                                        load ? fmt::format("Little's law at {}, unless {} says",
                                                           Knob::rate, Knob::batch)
                                             : fmt::format("{}", Knob::batch))
                          : fmt::format("each layout at the largest batch its memory holds, at "
                                        "most {} sequences per replica ({}, {})",
                                        w.max_batch, Knob::batch, Knob::max_batch));
  if (w.spec && (w.phase == Phase::decode || load)) {
    lines.push_back(speculation_text(w));
  }
  if (w.model->is_moe()) {
    lines.push_back(fmt::format("tokens route uniformly to {} of {} experts{}; an expert group "
                                "runs attention data-parallel, each rank for its own sequences "
                                "({}, {}, {})",
                                w.model->experts_per_token, w.model->experts,
                                ep_routing_text(w.ep_routing), Knob::skew, Knob::redundant_experts,
                                Knob::max_nodes_per_token));
    lines.push_back(fmt::format("expert-parallel dispatch and combine by {}; dispatch in {}, "
                                "combine in {} ({}, {}, {})",
                                ep_mode_text(w.ep_kernels()), w.dispatch_dtype->id, w.act_dtype->id,
                                Knob::ep_mode, Knob::dispatch_dtype, Knob::act_dtype));
  }
  lines.emplace_back("a pipeline keeps one micro-batch per stage in flight; one request "
                     "passes the stages one after another");
  add_engine_lines(w, cluster, lines);
  return lines;
}

std::string prompt_text(std::int64_t input, double prefix_hit, std::int64_t prefix_block) {
  const std::int64_t cached = prefix_cached(input, prefix_hit, prefix_block);
  return cached == 0 ? fmt::format("{} prompt", input)
                     : fmt::format("{} prompt ({} cached)", input, cached);
}

std::string first_requests_text(std::int64_t count) {
  return count == 1 ? std::string("the first request")
                    : fmt::format("the first {} requests", count);
}

std::string length_draw_text(const LengthDistribution& input) {
  if (input.shape == LengthShape::sharegpt) {
    return "drawn as ShareGPT's: the prompt and output pairs of a published vllm bench serve "
           "run, scaled to the means";
  }
  return fmt::format("drawn {} with spread {:g}", to_string(input.shape), input.spread);
}

std::string prefix_cache_text(const Load& load) {
  const std::int64_t cached = prefix_cached(load.input, load.prefix_hit, load.prefix_block);
  const std::string blocks =
      load.prefix_block > 1
          ? fmt::format(" (whole blocks of {} tokens, the engine's)", load.prefix_block)
          : std::string();
  if (cached == 0) {
    return load.prefix_hit > 0 && load.prefix_block > 1
               ? fmt::format("no prompt token found in the engine's prefix cache: the {} of "
                             "{} tokens at {} {:g} fill no whole block of {}; every prompt "
                             "token is computed",
                             prefix_share(load.input, load.prefix_hit), load.input,
                             Knob::prefix_hit, load.prefix_hit, load.prefix_block)
               : fmt::format("no prompt found in the engine's prefix cache: every prompt token "
                             "is computed ({} F for a shared prefix)",
                             Knob::prefix_hit);
  }
  return fmt::format(
      "{} of each prompt's {} tokens found in the engine's prefix cache{}: prefill "
      "computes the other {}, attending over all {}; each request holds its whole "
      "prompt's KV cache (blocks the engine shares between prompts counted for each), a "
      "preempted one finds its prefix again, and a disaggregated prefill sends "
      "the whole prompt's cache ({})",
      cached, load.input, blocks, load.input - cached, load.input, Knob::prefix_hit);
}

std::string simulation_assumption(const SimulatedLoad& load) {
  const ReplicaModel& m = load.replica;
  const Traffic& t = load.traffic;
  const std::string replicas =
      fmt::format("{} replica{}{}", m.replicas, m.replicas == 1 ? "" : "s",
                  m.lanes == 1 ? std::string()
                               : fmt::format(" × {} pipeline micro-batches in flight, each "
                                             "scheduled alone with its share of the sequences "
                                             "and KV cache",
                                             m.lanes));
  const bool closed = t.arrivals == Arrivals::closed;
  const std::string where =
      closed ? fmt::format("the clients simulated on one scheduler, spread evenly over the {}{}",
                           replicas,
                           load.per_replica.concurrency * m.schedulers() != t.concurrency
                               ? fmt::format(" ({} each, rounded up: the busier schedulers' "
                                             "latencies, the throughput of the {} clients there "
                                             "are)",
                                             load.per_replica.concurrency, t.concurrency)
                               : std::string())
             : fmt::format("the requests simulated on one scheduler, the rate shared evenly by "
                           "the {}",
                           replicas);
  const std::string arrivals =
      closed ? fmt::format("arrivals of the next request the moment the last ends, as a "
                           "benchmark client sends them ({})",
                           Knob::concurrency)
      : t.arrivals == Arrivals::poisson
          ? fmt::format("arrivals at random, exponential gaps at the rate ({}; {} for the closed "
                        "form alone)",
                        Knob::arrivals, Knob::fast)
          : fmt::format("one arrival every 1/rate seconds ({}; {} for the closed form alone)",
                        Knob::arrivals, Knob::fast);
  const std::string warm =
      t.warm_prompts == 0
          ? std::string()
          : fmt::format("; {} with {} whole prompt in the prefix cache, as the benchmark "
                        "client's warm-up leaves it ({})",
                        first_requests_text(t.warm_prompts), t.warm_prompts == 1 ? "its" : "their",
                        Knob::warm_prompts);
  return fmt::format(
      "{}: its engine steps priced by the step model at decode batches 1 to {} (linear "
      "between) and a prompt's marginal cost per token, {} scheduling with {} prompt tokens per "
      "step, a KV cache of {} tokens (what memory holds at the full length) {}; {}{}; lengths, "
      "requests and draws by {}, {}, {}, {}, {}",
      where, m.limits.max_sequences, to_string(m.limits.policy), m.limits.token_budget,
      m.limits.kv_tokens, kv_admission_text(m.limits.kv_admission), arrivals, warm, Knob::spread,
      Knob::lengths, Knob::requests, Knob::warmup, Knob::seed);
}

} // namespace icx
