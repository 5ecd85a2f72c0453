#include "views/plan.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/util/table.hpp"
#include "icx/words/place.hpp"
#include "icx/words/targets.hpp"
#include "output/terminal.hpp"
#include "views/place.hpp"

namespace icx::cli {

namespace {

std::string usd(std::optional<double> value) {
  return value ? fmt::format("${:.2f}", *value) : std::string("-");
}

std::string figure(const PlanCandidate& c, Seconds value) {
  return c.nodes > 0 && c.step.serves() && c.step.decode.step.latency.value() > 0
             ? format_seconds(value)
             : std::string("-");
}

/// "TP 8", or "P: TP 8 | D: TP 8" for separate prefill and decode pools.
std::string layout_cell(const PlanCandidate& c) {
  if (c.disaggregated) {
    return fmt::format("P: {} | D: {}", layout_name(c.disaggregated->prefill.layout),
                       layout_name(c.disaggregated->decode.layout));
  }
  return layout_name(c.step.layout);
}

std::string nodes_cell(const PlanCandidate& c) {
  if (c.disaggregated) {
    const std::optional<int> prefill = whole_nodes(c.disaggregated->prefill_cluster);
    const std::optional<int> decode = whole_nodes(c.disaggregated->decode_cluster);
    if (prefill && decode) {
      return fmt::format("{}+{}", *prefill, *decode);
    }
  }
  return std::to_string(c.nodes);
}

void print_candidates(const Style& style, const PlanReport& r) {
  const std::string ttft = target_label("TTFT", r.targets.ttft_statistic);
  const std::string tpot = target_label("TPOT", r.targets.tpot_statistic);
  TextTable table({{"#", Align::right, 1},
                   {"system", Align::left, 0, 14},
                   {"nodes", Align::right, 5},
                   {"GPUs", Align::right},
                   {"layout", Align::left, 0, 14},
                   {"batch", Align::right, 4},
                   {ttft, Align::right},
                   {tpot, Align::right},
                   {"tok/s/GPU", Align::right, 2},
                   {"$/hour", Align::right, 3},
                   {"$/M out", Align::right},
                   {"meets", Align::left}});
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const PlanCandidate& c = r.candidates[i];
    const bool evaluated = c.step.decode.step.latency.value() > 0;
    table.add_row({std::to_string(i + 1), c.system->id, nodes_cell(c),
                   std::to_string(c.nodes * c.system->gpus_per_node),
                   evaluated ? layout_cell(c) : std::string("-"),
                   evaluated && c.step.limit != ServeLimit::saturated ? std::to_string(c.step.batch)
                                                                      : std::string("-"),
                   figure(c, c.step.ttft), figure(c, c.step.tpot),
                   evaluated && c.output_tokens_per_second(r.load) > 0
                       ? format_scaled(c.output_tokens_per_second_per_gpu(r.load))
                       : std::string("-"),
                   usd(c.cost_per_hour()), usd(c.cost_per_million_output_tokens(r.load)),
                   c.meets_targets ? std::string("yes") : "no: " + std::string(to_string(c.miss))});
  }
  print_out("{}\n", fit_table(style, table));
  print_out("batch: requests in flight{}; tok/s/GPU and $/M out: output tokens at this load; "
            "a candidate is the fewest nodes that meet, else the closest layout tried{}\n\n",
            r.simulated ? " (the simulation's mean)" : "",
            r.disaggregate ? "; P+D: prefill and decode pools" : "");
}

void print_price(const PlanCandidate& c) {
  if (c.price != nullptr) {
    print_out("price    ${:.2f} per node-hour, list price of {} ({})\n", *c.usd_per_node_hour,
              c.price->date, c.price->source);
  } else if (c.usd_per_node_hour) {
    print_out("price    ${:.2f} per node-hour (--price)\n", *c.usd_per_node_hour);
  }
}

void print_outcome(const PlanReport& r) {
  if (r.winner) {
    const PlanCandidate& w = r.candidates[*r.winner];
    print_out("winner   {}: {} node{} × {} {}, {}, {} requests in flight; {}\n", w.system->id,
              w.nodes, w.nodes == 1 ? "" : "s", w.system->gpus_per_node, w.system->gpu,
              layout_cell(w), w.step.batch,
              w.cost_per_hour()
                  ? fmt::format("{}/hour, {} per million output tokens", usd(w.cost_per_hour()),
                                usd(w.cost_per_million_output_tokens(r.load)))
                  : fmt::format("no candidate that meets has a price, so the fewest GPUs "
                                "(--price {}=USD ranks by cost)",
                                w.system->id));
    print_price(w);
    print_out("         {}\n", w.reason);
    return;
  }
  print_out("no candidate meets the targets");
  if (r.closest) {
    const PlanCandidate& c = r.candidates[*r.closest];
    print_out("; closest: {} ({} node{}, {}): {}", c.system->id, c.nodes, c.nodes == 1 ? "" : "s",
              layout_cell(c), c.reason);
  }
  print_out("\n");
}

} // namespace

void print_plan(const Style& style, const PlanReport& r, bool emit) {
  const std::string load = r.traffic && r.traffic->arrivals == Arrivals::closed
                               ? fmt::format("{} clients", r.traffic->concurrency)
                               : fmt::format("{:g} requests/s", r.load.rate);
  print_out("Plan for {} ({}) at {} of {} + {} output tokens{}; targets {} ≤ {}, {} ≤ {}\n\n",
            r.model->id, r.dtype->id, load,
            prompt_text(r.load.input, r.load.prefix_hit, r.load.prefix_block), r.load.output,
            r.simulated ? ", simulated" : "", target_label("TTFT", r.targets.ttft_statistic),
            format_seconds(r.targets.ttft), target_label("TPOT", r.targets.tpot_statistic),
            format_seconds(r.targets.tpot));
  print_candidates(style, r);
  print_outcome(r);
  print_out("\nwhy:\n");
  std::vector<std::string> unpriced;
  for (const PlanCandidate& c : r.candidates) {
    print_out("  {}: {}\n", c.system->id, c.reason);
    if (!c.usd_per_node_hour) {
      unpriced.push_back(c.system->id);
    }
  }
  if (!unpriced.empty()) {
    print_out("no list price in the catalog for {}: --price ID=USD per node-hour gives one\n",
              fmt::join(unpriced, ", "));
  }
  print_out("assumed:\n");
  for (const std::string& line : r.assumptions) {
    print_out("  {}\n", line);
  }
  if (r.launch) {
    print_launch(*r.launch);
  } else if (emit) {
    print_out("launch: none, as no candidate meets the targets\n");
  }
}

} // namespace icx::cli
