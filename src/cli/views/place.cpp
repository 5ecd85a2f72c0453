#include "views/place.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/util/table.hpp"
#include "icx/words/engine.hpp"
#include "icx/words/place.hpp"
#include "icx/words/step.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

void print_header(const PlaceReport& r) {
  const Cluster& c = r.cluster;
  const Workload& w = r.workload;
  const Placement& p = r.placement();
  print_out("Placement of {} ({} weights, {} of them) on {} × {}\n", w.model->id,
            weights_dtype_text(*w.dtype, w.experts_dtype()), format_bytes(p.weights), c.gpus,
            c.gpu->id);
  const std::string between =
      c.gpus <= c.domain             ? std::string()
      : c.between_domains == nullptr ? fmt::format(", {} between", c.scale_out->id)
      : c.gpus > c.gpus_per_node     ? fmt::format(", {} between domains, {} between nodes",
                                                   c.between_domains->id, c.scale_out->id)
                                     : fmt::format(", {} between", c.between_domains->id);
  print_out("cluster  {} node{} × {} GPUs{}; {} inside each {}-GPU domain{}\n", r.nodes,
            r.nodes == 1 ? "" : "s", std::min(c.gpus, c.gpus_per_node),
            r.system != nullptr ? fmt::format(" ({})", r.system->id) : "", c.scale_up->id, c.domain,
            between);
  if (w.phase == Phase::prefill) {
    print_out("pass     prefill of {} tokens per sequence", w.tokens);
  } else {
    print_out("pass     decode step at {} tokens of context", w.context);
  }
  print_out(", {}; ranked for {} (--objective)\n",
            w.batch ? fmt::format("batch {}", *w.batch) : std::string("batch as memory holds"),
            to_string(r.objective));
  print_out("compute  {}\n\n", r.compute_assumption);
}

void add_layout_row(const Style& style, TextTable& table, std::size_t rank, const RankedLayout& r) {
  table.add_row(ranked_layout_cells(rank, r, paint(style, r.verdict.level)));
}

void print_ranking(const Style& style, const PlaceReport& r, std::size_t top) {
  TextTable table({{"#", Align::right},
                   {"layout", Align::left},
                   {"fits", Align::left, 2},
                   {"batch", Align::right, 6},
                   {"compute", Align::right, 3},
                   {"memory", Align::right, 4},
                   {"comm", Align::right},
                   {std::string(latency_name(r.workload.phase)), Align::right},
                   {"tok/s/GPU", Align::right},
                   {"verdict", Align::left}});
  for (std::size_t i = 0; i < r.ranked.size(); ++i) {
    if (i < top || i == r.chosen) {
      add_layout_row(style, table, i + 1, r.ranked[i]);
    }
  }
  print_out("{}\n", fit_table(style, table));
  if (r.ranked.size() > top) {
    print_out("({} of {} layouts shown; --top N shows more)\n", std::min(top, r.ranked.size()),
              r.ranked.size());
  }
  print_out("compute and memory: one stage's busiest GPU; comm: the exposed collectives' share "
            "of the stage; TTFT/TPOT: the stages in turn plus their sends\n\n");
}

void print_chosen(const Style& style, const PlaceReport& r) {
  const RankedLayout& chosen = r.chosen_layout();
  const Placement& p = chosen.placement;
  print_out("layout   {} (#{}, {})\n", layout_name(p.layout), r.chosen + 1,
            r.recommended ? "the best" : "as given");
  print_out("memory   {} of weights + {} of KV cache per GPU, {} usable: {}\n",
            format_bytes(p.memory.weights_per_gpu), format_bytes(p.memory.kv_per_gpu),
            format_bytes(p.memory.usable_per_gpu), p.fits() ? "fits" : "does not fit");
  print_out("         usable = {}\n", memory_budget_text(p.memory.budget));
  TextTable table({{"strategy", Align::left},
                   {"degree", Align::right},
                   {"wire", Align::left},
                   {"traffic per step", Align::right},
                   {"headline", Align::right},
                   {"expected", Align::right},
                   {"verdict", Align::left}});
  for (const StrategyCost& cost : p.strategies) {
    table.add_row({std::string(to_string(cost.strategy)), std::to_string(cost.degree),
                   cost.wire ? cost.wire->id : "-", format_bytes(cost.bytes),
                   cost.wire ? format_seconds(cost.seconds) : "-",
                   cost.expected_seconds ? format_seconds(*cost.expected_seconds) : "-",
                   paint(style, cost.verdict.level)});
  }
  print_out("{}\n", fit_table(style, table));
  for (std::size_t i = 0; i < p.strategies.size(); ++i) {
    print_out("  {}: {}\n", to_string(p.strategies[i].strategy), r.strategy_reasons[i]);
  }
  print_out("\noverall: {} — {}\n", paint(style, chosen.verdict.level), chosen.verdict.reason);
}

void print_load(const PlaceReport& r) {
  const LoadedStep& s = *r.loaded;
  const Load& load = *r.load;
  print_out("\nload     {:g} requests/s of {} + {} output tokens, {} in flight (memory "
            "holds {}); prefill takes {:.0f} % of the GPUs' time\n",
            load.rate, prompt_text(load.input, load.prefix_hit, load.prefix_block), load.output,
            s.batch, s.capacity, s.prefill_share * 100);
  if (!s.serves()) {
    print_out("         does not serve it: {}\n", load_limit_reason(s, load));
    return;
  }
  print_out("         TTFT {} (prefill {} + chunk steps, queueing); TPOT {} (decode step {} "
            "stretched by the prefills)\n",
            format_seconds(s.ttft), format_seconds(s.prefill.step.latency), format_seconds(s.tpot),
            format_seconds(s.decode.step.latency));
}

/// The closed form's answer beside a simulation: its mean TTFT and TPOT, or why it does not
/// serve the load.
void print_closed_form(const PlaceReport& r) {
  const LoadedStep& s = *r.loaded;
  if (!s.serves()) {
    print_out("         closed form (--fast): does not serve it: {}\n",
              load_limit_reason(s, *r.load));
    return;
  }
  print_out("         closed form (--fast): TTFT {}, TPOT {} (means; M/D/1 queueing), {} in "
            "flight (memory holds {})\n",
            format_seconds(s.ttft), format_seconds(s.tpot), s.batch, s.capacity);
}

/// What a simulation ran: the load, its lengths, where and how many requests.
void print_simulated_load(const SimulatedLoad& sim) {
  const Traffic& t = sim.traffic;
  const ReplicaModel& m = sim.replica;
  const std::string spread = t.input.shape == LengthShape::fixed
                                 ? std::string("every request the same")
                                 : length_draw_text(t.input);
  const bool closed = t.arrivals == Arrivals::closed;
  const std::string load =
      closed ? fmt::format("{} clients (closed loop)", t.concurrency)
             : fmt::format("{:g} requests/s ({} arrivals)", t.rate, to_string(t.arrivals));
  const std::string share = closed ? fmt::format("{} clients each", sim.per_replica.concurrency)
                                   : fmt::format("{:g} requests/s each", sim.per_replica.rate);
  const std::string lanes =
      m.lanes == 1 ? std::string() : fmt::format(" × {} pipeline micro-batches", m.lanes);
  const std::string where = m.schedulers() == 1
                                ? std::string()
                                : fmt::format(" on one of {} replica{}{} ({})", m.replicas,
                                              m.replicas == 1 ? "" : "s", lanes, share);
  const std::string left_out =
      (t.warmup == 0 ? std::string("none left out")
                     : fmt::format("{} left out at each end", t.warmup)) +
      (t.warm_prompts == 0 ? std::string()
                           : fmt::format(", {} with a cached prompt (the client's warm-up)",
                                         first_requests_text(t.warm_prompts)));
  print_out("\nload     {}, {} + {} output tokens ({}); simulated{}: {} requests, seed {}, {}\n",
            load, prompt_text(t.input.nominal, t.prefix_hit, sim.replica.limits.prefix_block),
            t.output.nominal, spread, where, sim.per_replica.requests, t.seed, left_out);
}

/// The simulated load: what was run, the latencies' mean and percentiles, and what the
/// replicas sustained.
void print_simulation(const Style& style, const SimulatedLoad& sim) {
  const SimulationResult& r = sim.result;
  const ReplicaModel& m = sim.replica;
  print_simulated_load(sim);
  TextTable table({{"", Align::left},
                   {"mean", Align::right},
                   {"p50", Align::right},
                   {"p90", Align::right},
                   {"p99", Align::right}});
  for (const auto& [name, summary] : {std::pair{"TTFT", r.ttft}, std::pair{"TPOT", r.tpot},
                                      std::pair{"ITL", r.itl}, std::pair{"latency", r.e2e}}) {
    table.add_row({name, format_seconds(summary.mean), format_seconds(summary.p50),
                   format_seconds(summary.p90), format_seconds(summary.p99)});
  }
  print_out("{}\n", fit_table(style, table));
  print_out("         {} requests/s, {} output tokens/s ({} per GPU); {} sequences decoding on "
            "average (at most {}), KV cache {:.0f} % full, {} preemption{}; {} scheduling\n",
            format_scaled(sim.requests_per_second), format_count(sim.output_tokens_per_second),
            format_count(sim.tokens_per_second_per_gpu), format_count(r.mean_batch),
            m.limits.max_sequences, r.kv_occupancy * 100, r.preemptions,
            r.preemptions == 1 ? "" : "s", to_string(m.limits.policy));
  if (r.saturated) {
    const std::string served = r.served_rate > 0 ? fmt::format("finishes {:.2g}/s", r.served_rate)
                                                 : std::string("finishes none");
    print_out("         falls behind: while requests come at {:.3g}/s a replica {}; its queue "
              "grows for as long as they come, so the latencies above grow with --requests\n",
              r.offered_rate, served);
  }
}

} // namespace

void print_place(const Style& style, const PlaceReport& report, std::size_t top) {
  print_header(report);
  print_ranking(style, report, top);
  print_chosen(style, report);
  if (report.simulated) {
    print_simulation(style, *report.simulated);
    if (report.loaded) {
      print_closed_form(report);
    }
  } else if (report.loaded) {
    print_load(report);
  }
  print_out("assumed:\n");
  for (const std::string& line : report.assumptions) {
    print_out("  {}\n", line);
  }
  if (report.launch) {
    print_launch(*report.launch);
  }
}

void print_launch(const LaunchCommand& command) {
  print_out("launch (--emit {}):\n{}", command.engine->id, command.script);
}

std::vector<std::string> ranked_layout_cells(std::size_t rank, const RankedLayout& r,
                                             std::string verdict) {
  const Placement& p = r.placement;
  const StepTime& s = p.step;
  return {std::to_string(rank),
          layout_name(p.layout),
          p.fits() ? "yes" : "no",
          std::to_string(s.batch.total),
          format_seconds(s.work.compute),
          format_seconds(s.work.memory),
          format_share(s.exposed_comm, s.stage),
          format_seconds(s.latency),
          format_scaled(s.tokens_per_second_per_gpu),
          std::move(verdict)};
}

} // namespace icx::cli
