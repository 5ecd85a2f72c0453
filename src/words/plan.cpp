#include "words/plan.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"
#include "icx/host/host_link.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/strategies.hpp"
#include "icx/words/engine.hpp"
#include "icx/words/step.hpp"

namespace icx {

std::string target_label(std::string_view latency, Statistic statistic) {
  return statistic == Statistic::mean ? std::string(latency)
                                      : fmt::format("{} {}", latency, to_string(statistic));
}

} // namespace icx

namespace icx::detail {

namespace {

/// One part of a latency, and what it is.
struct Part {
  Seconds time;
  std::string what;
};

/// The parts of one pass through `p`'s stages: the bound of compute and memory, and each
/// split's exposed communication, over all the stages.
std::vector<Part> pass_parts(const Placement& p) {
  const double stages = p.layout.pp;
  const StageWork& work = p.step.work;
  std::vector<Part> parts;
  parts.push_back(work.memory >= work.compute
                      ? Part{work.memory * stages,
                             fmt::format("reading {} per stage from HBM", format_bytes(work.read))}
                      : Part{work.compute * stages, "compute"});
  for (const StrategyCost& cost : p.strategies) {
    if (cost.degree <= 1 || cost.wire == nullptr) {
      continue;
    }
    const bool pipeline = cost.strategy == Strategy::pipeline;
    parts.push_back({pipeline ? cost.verdict.comm : cost.verdict.comm * stages,
                     fmt::format("{} {} over {}", name_in(short_names, cost.strategy),
                                 cost.strategy == Strategy::tensor   ? "all-reduce"
                                 : cost.strategy == Strategy::expert ? "dispatch and combine"
                                                                     : "sends",
                                 cost.wire->id)});
  }
  return parts;
}

/// "X is N % of it": the largest part of `whole`.
std::string largest(std::vector<Part> parts, Seconds whole) {
  const auto top =
      std::ranges::max_element(parts, [](const Part& a, const Part& b) { return a.time < b.time; });
  return fmt::format("{} is {} of it", top->what, format_share(top->time, whole));
}

std::string tpot_cause(const LoadedStep& step) {
  std::vector<Part> parts = pass_parts(step.decode);
  parts.push_back(
      {step.tpot - step.decode.step.latency,
       fmt::format("prefill sharing the GPUs ({:.0f} % of their time)", step.prefill_share * 100)});
  return largest(std::move(parts), step.tpot);
}

std::string ttft_cause(const LoadedStep& step) {
  std::vector<Part> parts = pass_parts(step.prefill);
  parts.push_back({step.prefill_service - step.prefill.step.latency,
                   "the decode steps its prompt's chunks ride with"});
  parts.push_back({step.ttft - step.prefill_service, "waiting behind other prompts"});
  return largest(std::move(parts), step.ttft);
}

/// Why a step does not serve the load: the simulation's falling behind, else the closed
/// form's limit.
std::string limit_text(const LoadedStep& step, const SimulatedLoad* simulated, const Load& load) {
  if (simulated != nullptr && simulated->result.saturated) {
    const SimulationResult& r = simulated->result;
    return fmt::format("falls behind: while requests come at {:.3g}/s a replica finishes "
                       "{:.2g}/s, so its queue grows for as long as they come",
                       r.offered_rate, r.served_rate);
  }
  return load_limit_reason(step, load);
}

/// "TPOT 71 ms > 50 ms (1.42×): …", the target missed by more first (`miss`, from
/// target_miss).
std::string miss_text(const LoadedStep& step, const SimulatedLoad* simulated,
                      const PlanTargets& targets, const Load& load, const TargetMiss& miss) {
  if (miss.miss == PlanMiss::memory || miss.miss == PlanMiss::saturated) {
    return limit_text(step, simulated, load);
  }
  const double ttft = step.ttft / targets.ttft;
  const double tpot = step.tpot / targets.tpot;
  const bool tpot_first = miss.miss != PlanMiss::ttft;
  const auto one = [&](bool is_tpot) {
    return is_tpot
               ? fmt::format("{} {} > {} ({}): {}", target_label("TPOT", targets.tpot_statistic),
                             format_seconds(step.tpot), format_seconds(targets.tpot),
                             format_ratio(tpot), tpot_cause(step))
               : fmt::format("{} {} > {} ({}): {}", target_label("TTFT", targets.ttft_statistic),
                             format_seconds(step.ttft), format_seconds(targets.ttft),
                             format_ratio(ttft), ttft_cause(step));
  };
  std::string text = one(tpot_first);
  if ((tpot_first ? ttft : tpot) > 1) {
    text += "; " + one(!tpot_first);
  }
  return text;
}

std::string nodes_text(int nodes) {
  return fmt::format("{} node{}", nodes, nodes == 1 ? "" : "s");
}

} // namespace

std::string weights_reason(const PlanRequest& request, const System& system, Bytes usable,
                           Bytes weights) {
  const int gpus = request.max_nodes * system.gpus_per_node;
  return fmt::format("the weights ({}) do not fit {} ({} GPUs × {} usable); raise {}",
                     format_bytes(weights), nodes_text(request.max_nodes), gpus,
                     format_bytes(usable), Knob::max_nodes);
}

void describe_candidate(const PlanRequest& request, const Load& load, PlanCandidate& candidate,
                        const FewerNodes& fewer) {
  const LoadedStep& step = candidate.step;
  const PlanTargets& targets = request.targets;
  const SimulatedLoad* simulated = candidate.simulated ? &*candidate.simulated : nullptr;
  if (!candidate.meets_targets) {
    candidate.reason =
        miss_text(step, simulated, targets, load, {candidate.miss, candidate.miss_factor});
    return;
  }
  candidate.reason =
      fmt::format("meets both: {} {} ≤ {}, {} {} ≤ {}, {} requests in flight{}",
                  target_label("TTFT", targets.ttft_statistic), format_seconds(step.ttft),
                  format_seconds(targets.ttft), target_label("TPOT", targets.tpot_statistic),
                  format_seconds(step.tpot), format_seconds(targets.tpot), step.batch,
                  simulated != nullptr ? " on average" : "");
  if (fewer.step != nullptr) {
    candidate.reason += fmt::format(
        "; on {} ({}): {}", nodes_text(fewer.nodes), layout_name(fewer.step->layout),
        miss_text(*fewer.step, fewer.simulated, targets, load, target_miss(*fewer.step, targets)));
  }
}

namespace {

/// "4 GPUs" for a part of a node, else "2 nodes".
std::string pool_text(const Cluster& pool) {
  if (const std::optional<int> nodes = whole_nodes(pool)) {
    return nodes_text(*nodes);
  }
  return fmt::format("{} GPU{}", pool.gpus, pool.gpus == 1 ? "" : "s");
}

std::string kv_route_text(const Disaggregated& pools) {
  const Link& link = kv_link(pools.prefill_cluster, pools.kv_route);
  switch (pools.kv_route) {
  case KvRoute::scale_up:
    return fmt::format("both in one node, the KV cache over {}", link.id);
  case KvRoute::between_domains:
    return fmt::format("both in one node, the KV cache over {} between its scale-up domains",
                       link.id);
  case KvRoute::between_nodes:
    break;
  }
  return fmt::format("the KV cache over {}", link.id);
}

} // namespace

void describe_disaggregated(const PlanRequest& request, const PlanCandidate& shared,
                            PlanCandidate& candidate) {
  const Disaggregated& d = *candidate.disaggregated;
  const PlanTargets& targets = request.targets;
  candidate.reason = fmt::format(
      "disaggregated, meets both: prefill on {} ({}): TTFT {} ≤ {} with {} of KV transfer; "
      "decode on {} ({}): TPOT {} ≤ {}, {} requests decoding; {}; sharing the GPUs {}",
      pool_text(d.prefill_cluster), layout_name(d.prefill.layout), format_seconds(d.prefill.ttft),
      format_seconds(targets.ttft), format_seconds(d.prefill.kv_transfer),
      pool_text(d.decode_cluster), layout_name(d.decode.layout), format_seconds(d.decode.tpot),
      format_seconds(targets.tpot), d.decode.batch, kv_route_text(d),
      shared.meets_targets
          ? fmt::format("needs {} ({})", nodes_text(shared.nodes), layout_name(shared.step.layout))
          : "misses: " + shared.reason);
}

namespace {

/// Both phases on the same GPUs: the load model's chain (icx/serving/request_load.hpp).
void shared_chain(Derivations& d, const LoadedStep& s, const Load& load, const PlanCandidate& c,
                  std::string_view figure) {
  const int schedulers = s.layout.dp * s.layout.ep;
  const std::int64_t chunk = c.prefill_chunk;
  add_step_terms(d, s.prefill.step, *c.cluster.gpu, "prefill: ");
  d.push_back({fmt::format("prefill of one prompt of {} tokens", load.input),
               latency_formula(s.prefill.step, s.layout.pp), s.prefill.step.latency.value(),
               format_seconds(s.prefill.step.latency)});
  d.push_back({"prefill share",
               fmt::format("{:g}/s ÷ {} schedulers × {} stage time", load.rate, schedulers,
                           format_seconds(s.prefill.step.stage)),
               s.prefill_share, fmt::format("{:.1f} %", s.prefill_share * 100)});
  add_step_terms(d, s.decode.step, *c.cluster.gpu, "decode: ");
  d.push_back({fmt::format("decode step of {} requests in flight", s.batch),
               latency_formula(s.decode.step, s.layout.pp), s.decode.step.latency.value(),
               format_seconds(s.decode.step.latency)});
  d.push_back(
      {fmt::format("{}TPOT", figure),
       fmt::format("{} ÷ (1 − {:.3f})", format_seconds(s.decode.step.latency), s.prefill_share),
       s.tpot.value(), format_seconds(s.tpot)});
  d.push_back({"prompt service",
               fmt::format("{} + {} chunk step(s) × {}", format_seconds(s.prefill.step.latency),
                           (load.input + chunk - 1) / chunk, format_seconds(s.decode.step.latency)),
               s.prefill_service.value(), format_seconds(s.prefill_service)});
  d.push_back({fmt::format("{}TTFT", figure),
               fmt::format("S + ρ·S / (2(1 − ρ)), S = {}, ρ = {:.3f}",
                           format_seconds(s.prefill_service), s.prefill_share),
               s.ttft.value(), format_seconds(s.ttft)});
  d.push_back({fmt::format("{}requests in flight", figure),
               fmt::format("⌈{:g}/s × ({} + {} × {})⌉", load.rate, format_seconds(s.ttft),
                           load.output, format_seconds(s.tpot)),
               static_cast<double>(s.batch), fmt::format("{}", s.batch)});
  d.push_back({"memory holds", fmt::format("{} tokens per request", load.input + load.output),
               static_cast<double>(s.capacity), fmt::format("{} requests", s.capacity)});
}

/// Separate pools: the prefill pool's TTFT with the KV transfer, the decode pool's TPOT.
void split_chain(Derivations& d, const Disaggregated& pools, const Load& load, const Gpu& gpu) {
  const LoadedStep& p = pools.prefill;
  const LoadedStep& s = pools.decode;
  const int schedulers = p.layout.dp * p.layout.ep;
  add_step_terms(d, p.prefill.step, gpu, "prefill: ");
  d.push_back({fmt::format("prefill of one prompt of {} tokens on the prefill pool's {}",
                           load.input, layout_name(p.layout)),
               latency_formula(p.prefill.step, p.layout.pp), p.prefill.step.latency.value(),
               format_seconds(p.prefill.step.latency)});
  d.push_back({"prefill share",
               fmt::format("{:g}/s ÷ {} schedulers × {} stage time", load.rate, schedulers,
                           format_seconds(p.prefill.step.stage)),
               p.prefill_share, fmt::format("{:.1f} %", p.prefill_share * 100)});
  const std::string over =
      pools.kv_route == KvRoute::between_nodes
          ? fmt::format("its share of the node's NICs ({})", pools.prefill_cluster.scale_out->id)
          : fmt::format("its own {} link (one node)",
                        kv_link(pools.prefill_cluster, pools.kv_route).id);
  d.push_back({"KV transfer", fmt::format("one prompt's KV cache shard per GPU over {}", over),
               p.kv_transfer.value(), format_seconds(p.kv_transfer)});
  d.push_back({"TTFT",
               fmt::format("S + ρ·S / (2(1 − ρ)) + transfer, S = {}, ρ = {:.3f}",
                           format_seconds(p.prefill.step.latency), p.prefill_share),
               p.ttft.value(), format_seconds(p.ttft)});
  add_step_terms(d, s.decode.step, gpu, "decode: ");
  d.push_back({fmt::format("TPOT: a decode step of the decode pool's {} at {} requests",
                           layout_name(s.layout), s.batch),
               latency_formula(s.decode.step, s.layout.pp), s.tpot.value(),
               format_seconds(s.tpot)});
  d.push_back({"requests decoding",
               fmt::format("⌈{:g}/s × {} × {}⌉", load.rate, load.output, format_seconds(s.tpot)),
               static_cast<double>(s.batch), fmt::format("{}", s.batch)});
}

/// The simulation's figures the targets are held against.
void simulated_chain(Derivations& d, const SimulatedLoad& sim, const PlanTargets& targets) {
  const SimulationResult& r = sim.result;
  for (const auto& [name, summary, statistic] :
       {std::tuple{"TTFT", r.ttft, targets.ttft_statistic},
        std::tuple{"TPOT", r.tpot, targets.tpot_statistic}}) {
    const Seconds value = statistic_of(summary, statistic);
    d.push_back({fmt::format("simulated {}", target_label(name, statistic)),
                 fmt::format("the {} over {} measured requests of {} simulated",
                             to_string(statistic), r.measured, sim.per_replica.requests),
                 value.value(), format_seconds(value)});
  }
  d.push_back({"requests decoding, simulated",
               fmt::format("time-weighted mean batch × {} scheduler(s)", sim.replica.schedulers()),
               r.mean_batch * sim.replica.schedulers(),
               fmt::format("{:.1f}", r.mean_batch * sim.replica.schedulers())});
}

} // namespace

Derivations plan_derivations(const PlanReport& report) {
  Derivations d;
  const PlanCandidate* shown = report.winner ? &report.candidates[*report.winner] : nullptr;
  for (const PlanCandidate& c : report.candidates) {
    if (shown == nullptr && c.nodes > 0 && c.step.decode.step.latency.value() > 0) {
      shown = &c;
    }
  }
  if (shown == nullptr) {
    return d;
  }
  const PlanCandidate& c = *shown;
  const LoadedStep& s = c.step;
  const Load& load = report.load;
  const std::string layout = c.disaggregated
                                 ? fmt::format("prefill on {} ({}), decode on {} ({})",
                                               pool_text(c.disaggregated->prefill_cluster),
                                               layout_name(c.disaggregated->prefill.layout),
                                               pool_text(c.disaggregated->decode_cluster),
                                               layout_name(c.disaggregated->decode.layout))
                                 : layout_name(s.layout);
  const int gpus = c.nodes * c.system->gpus_per_node;
  d.push_back({"candidate", fmt::format("{} × {}, {}", nodes_text(c.nodes), c.system->id, layout),
               static_cast<double>(gpus), fmt::format("{} GPUs", gpus)});
  if (c.disaggregated) {
    split_chain(d, *c.disaggregated, load, *c.cluster.gpu);
  } else {
    // Under a simulation, the closed form's chain is its cross-check: a closed loop's rate is
    // what the simulated clients reached.
    Load seen = load;
    if (c.simulated && c.simulated->traffic.arrivals == Arrivals::closed) {
      seen.rate = c.simulated->requests_per_second;
    }
    shared_chain(d, c.simulated ? c.closed_form : s, seen, c, c.simulated ? "closed form: " : "");
  }
  if (c.simulated) {
    simulated_chain(d, *c.simulated, report.targets);
  }
  const std::optional<double> hourly = c.cost_per_hour();
  const std::optional<double> per_million = c.cost_per_million_output_tokens(load);
  if (hourly) {
    d.push_back(
        {"cost per hour",
         fmt::format("{} × ${:.2f} per node-hour", nodes_text(c.nodes), *c.usd_per_node_hour),
         *hourly, fmt::format("${:.2f}", *hourly)});
  }
  if (hourly && per_million) {
    const bool closed = c.simulated && c.simulated->traffic.arrivals == Arrivals::closed;
    d.push_back({"cost per million output tokens",
                 closed ? fmt::format("${:.2f} ÷ ({} output tokens/s reached × 3600 s) × 10⁶",
                                      *hourly, format_count(c.output_tokens_per_second(load)))
                        : fmt::format("${:.2f} ÷ ({:g}/s × {} tokens × 3600 s) × 10⁶", *hourly,
                                      load.rate, load.output),
                 *per_million, fmt::format("${:.2f}", *per_million)});
  }
  return d;
}

} // namespace icx::detail
