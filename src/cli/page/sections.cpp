#include "page/sections.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/reports/tp.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/words/ranking.hpp"
#include "icx/words/step.hpp"
#include "sweeps/place.hpp"
#include "sweeps/tp.hpp"
#include "views/place.hpp"

namespace icx::cli {

namespace {

std::string wire_text(const Link& link) {
  return fmt::format("{} ({}): {} headline per GPU", link.id, link.name,
                     format_range(link.headline_bandwidth));
}

/// The request of the curves: a prefill pass (TTFT over prompt tokens), one prompt unless
/// a prefill batch was given.
PlaceRequest prefill_of(const PlaceRequest& request) {
  PlaceRequest prefill = request;
  if (prefill.serving.phase != Phase::prefill) {
    prefill.serving.phase = Phase::prefill;
    prefill.serving.batch.reset();
  }
  return prefill;
}

/// The chosen layout has no tensor group: the all-reduce a whole scale-up domain's tensor
/// group would run per prefill pass on the cluster's wires, as icx tp prices it.
void add_domain_allreduce(const ReportInputs& in, const PlaceRequest& prefill, const Sweep& sweep,
                          PageSection& section) {
  const Cluster& c = in.report.cluster;
  std::vector<const Link*> links{c.scale_up};
  if (c.scale_out != nullptr && c.scale_out != c.scale_up) {
    links.push_back(c.scale_out);
  }
  const WireChoice wires = wires_for_group(c.gpu, std::nullopt, links);
  for (const SkippedWire& skipped : wires.skipped) {
    section.notes.push_back(
        fmt::format("all-reduce not shown on {}: {}", skipped.link->id, skipped.reason));
  }
  if (!wires.usable.empty()) {
    const ServingRequest serving = with_default_dtypes(in.catalog, in.model.dtype, prefill.serving);
    TpRequest request = tp_request_for(in.model.model, in.model.dtype, *serving.act_dtype);
    request.overridden = in.model.overridden;
    request.serving = serving;
    request.gpu = c.gpu;
    SweepRows allreduce_rows;
    SweepEnd allreduce = tp_sweep(in.catalog, request, wires, sweep, allreduce_rows);
    section.charts.push_back({std::move(allreduce.plot), std::nullopt, {}});
    section.notes.insert(section.notes.end(), allreduce.notes.begin(), allreduce.notes.end());
  }
  section.paragraphs.push_back(fmt::format(
      "Prefill passes of {} to {} prompt tokens per sequence: the TTFT of each layout that is in "
      "the top {} at some length (icx place --sweep); the chosen layout has no tensor group, so "
      "the second chart is the all-reduce a whole scale-up domain's tensor group would run per "
      "pass on the cluster's wires, expected solid and headline dashed, with the compute of the "
      "pass dotted (icx tp --sweep).",
      sweep.values.front(), sweep.values.back(), in.top));
}

} // namespace

PageSection deployment_section(const ReportInputs& in) {
  const PlaceReport& r = in.report;
  const Cluster& c = r.cluster;
  const Workload& w = r.workload;
  PageSection section{"deployment", "Deployment", {}, {}, {}, {}};
  PageTable table{"What is deployed", {"item", "value"}, {}};
  table.rows.push_back(
      {"model", fmt::format("{}{}: {} parameters, {} weights ({})", w.model->id,
                            overridden_suffix(in.model), format_scaled(w.model->total_params),
                            weights_dtype_text(*w.dtype, w.experts_dtype()),
                            format_bytes(r.placement().weights))});
  table.rows.push_back(
      {"GPU", fmt::format("{} ({} HBM)", c.gpu->id, format_bytes(c.gpu->hbm_capacity))});
  table.rows.push_back({"system", r.system != nullptr
                                      ? fmt::format("{} ({})", r.system->id, r.system->name)
                                      : std::string("custom cluster (no --system)")});
  table.rows.push_back({"cluster", fmt::format("{} GPUs: {} node{} of {}, scale-up domains of {}",
                                               c.gpus, r.nodes, r.nodes == 1 ? "" : "s",
                                               std::min(c.gpus, c.gpus_per_node), c.domain)});
  table.rows.push_back({"scale-up wire", wire_text(*c.scale_up)});
  table.rows.push_back(
      {"scale-out wire", c.scale_out != nullptr
                             ? fmt::format("{}; {} NIC{} per node", wire_text(*c.scale_out),
                                           c.nics_per_node, c.nics_per_node == 1 ? "" : "s")
                             : std::string("none (one scale-up domain)")});
  table.rows.push_back(
      {"pass", w.phase == Phase::prefill
                   ? fmt::format("prefill of {} tokens per sequence", w.tokens)
                   : fmt::format("decode step at {} tokens of context", w.context)});
  table.rows.push_back(
      {"batch", w.batch ? std::to_string(*w.batch) : std::string("as memory holds")});
  table.rows.push_back({"objective", std::string(to_string(r.objective))});
  table.rows.push_back({"compute", r.compute_assumption});
  section.tables.push_back(std::move(table));
  PageTable assumed{"Assumed (each with the flag that changes it)", {"assumption"}, {}};
  for (const std::string& line : r.assumptions) {
    assumed.rows.push_back({line});
  }
  section.tables.push_back(std::move(assumed));
  return section;
}

PageSection layouts_section(const ReportInputs& in) {
  const PlaceReport& r = in.report;
  const Phase phase = r.workload.phase;
  PageSection section{"layouts", "Ranked layouts", {}, {}, {}, {}};
  PageTable ranked{fmt::format("{} of {} layouts, best first", std::min(in.top, r.ranked.size()),
                               r.ranked.size()),
                   {"#", "layout", "fits", "batch", "compute", "memory", "comm",
                    std::string(latency_name(phase)), "tok/s/GPU", "verdict"},
                   {}};
  for (std::size_t i = 0; i < r.ranked.size(); ++i) {
    if (i >= in.top && i != r.chosen) {
      continue;
    }
    ranked.rows.push_back(
        ranked_layout_cells(i + 1, r.ranked[i], std::string(to_string(r.ranked[i].verdict.level))));
  }
  ranked.remarks = inversion_sentences(r.ranked, rank_inversions(r.ranked, r.objective, in.top),
                                       phase, r.objective);
  section.tables.push_back(std::move(ranked));
  const RankedLayout& chosen = r.chosen_layout();
  const Placement& p = chosen.placement;
  section.paragraphs.push_back(fmt::format("Layout {} (#{}, {}): {} — {}", layout_name(p.layout),
                                           r.chosen + 1, r.recommended ? "the best" : "as given",
                                           to_string(chosen.verdict.level), chosen.verdict.reason));
  section.paragraphs.push_back(
      fmt::format("Memory per GPU: {} of weights + {} of KV cache, {} usable: {}.",
                  format_bytes(p.memory.weights_per_gpu), format_bytes(p.memory.kv_per_gpu),
                  format_bytes(p.memory.usable_per_gpu), p.fits() ? "fits" : "does not fit"));
  PageTable splits{
      fmt::format("Splits of {}", layout_name(p.layout)),
      {"strategy", "degree", "wire", "traffic per step", "headline", "expected", "verdict", "why"},
      {}};
  for (std::size_t i = 0; i < p.strategies.size(); ++i) {
    const StrategyCost& cost = p.strategies[i];
    splits.rows.push_back({std::string(to_string(cost.strategy)), std::to_string(cost.degree),
                           cost.wire ? cost.wire->id : "-", format_bytes(cost.bytes),
                           cost.wire ? format_seconds(cost.seconds) : "-",
                           cost.expected_seconds ? format_seconds(*cost.expected_seconds) : "-",
                           std::string(to_string(cost.verdict.level)), r.strategy_reasons[i]});
  }
  section.tables.push_back(std::move(splits));
  section.notes.emplace_back("compute and memory: one stage's busiest GPU; comm: the exposed "
                             "collectives' share of the stage; TTFT/TPOT: the stages in turn plus "
                             "their sends");
  return section;
}

PageSection curves_section(const ReportInputs& in) {
  PageSection section{"curves", "Curves over prompt tokens", {}, {}, {}, {}};
  const Sweep sweep = parse_sweep(std::string(report_curve_sweep), place_sweep_params);
  const PlaceRequest prefill = prefill_of(in.request);
  SweepRows layout_rows;
  SweepEnd layouts = place_sweep(in.catalog, prefill, in.cluster, sweep, in.top, layout_rows);
  section.charts.push_back({std::move(layouts.plot), std::nullopt, {}});
  section.notes.insert(section.notes.end(), layouts.notes.begin(), layouts.notes.end());

  if (add_tensor_curves(in, prefill, sweep, section)) {
    section.paragraphs.push_back(fmt::format(
        "Prefill passes of {} to {} prompt tokens per sequence: the TTFT of the chosen layout "
        "(heavy) and of the layouts in the top {} at some length (icx place --sweep), and the "
        "all-reduce of the chosen layout's tensor group as placed on the cluster, the same "
        "model as the splits table above: expected solid, headline dashed, the kernels of a "
        "stage dotted.",
        sweep.values.front(), sweep.values.back(), in.top));
  } else {
    add_domain_allreduce(in, prefill, sweep, section);
  }
  add_ep_curves(in, section);
  return section;
}

} // namespace icx::cli
