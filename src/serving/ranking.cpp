#include "icx/serving/ranking.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "icx/catalog/group_rules.hpp"

namespace icx {

std::string layout_name(const Layout& layout) {
  std::string name;
  const auto add = [&name](Strategy strategy, int degree) {
    if (degree > 1) {
      name +=
          fmt::format("{}{} {}", name.empty() ? "" : " × ", name_in(short_names, strategy), degree);
    }
  };
  add(Strategy::tensor, layout.tp);
  add(Strategy::expert, layout.ep);
  add(Strategy::pipeline, layout.pp);
  add(Strategy::data, layout.dp);
  if (layout.moe_tp > 1) {
    name +=
        fmt::format(" (experts {} {} × {} {})", name_in(short_names, Strategy::tensor),
                    layout.moe_tp, name_in(short_names, Strategy::expert), layout.expert_ranks());
  } else if (layout.moe_tp > 0) {
    name += fmt::format(" (experts {} {})", name_in(short_names, Strategy::expert),
                        layout.expert_ranks());
  }
  return name.empty() ? fmt::format("{} 1", name_in(short_names, Strategy::tensor)) : name;
}

double objective_value(const Placement& placement, Objective objective) {
  return objective == Objective::latency ? placement.step.latency.value()
                                         : placement.step.tokens_per_second_per_gpu;
}

double advantage(const Placement& a, const Placement& b, Objective objective) {
  const double va = objective_value(a, objective);
  const double vb = objective_value(b, objective);
  return objective == Objective::latency ? vb / va : va / vb;
}

namespace {

/// More divisors than any GPU count up to 10^5 has (83,160 has 128), so finding them
/// allocates once.
constexpr std::size_t max_divisors = 128;

/// The divisors of `n`, ascending: each d ≤ √n, then the partners n / d in reverse.
std::vector<int> divisors(int n) {
  std::vector<int> found;
  found.reserve(max_divisors);
  for (int d = 1; d <= n / d; ++d) {
    if (n % d == 0) {
      found.push_back(d);
    }
  }
  const std::size_t low = found.size();
  for (std::size_t i = low; i-- > 0;) {
    if (found[i] != n / found[i]) {
      found.push_back(n / found[i]);
    }
  }
  return found;
}

bool breaks_rule(const Placement& p) {
  return std::ranges::any_of(p.strategies,
                             [](const StrategyCost& c) { return c.verdict.breaks_rule; });
}

/// A tensor or expert group (not a pipeline's sends) spans scale-up domains.
bool group_leaves_node(const StrategyCost& c) {
  return c.crosses_domain && c.strategy != Strategy::pipeline;
}

/// Some tensor or expert group leaves its node.
bool leaves_node(const Placement& p) {
  return std::ranges::any_of(p.strategies, group_leaves_node);
}

bool eligible(const Placement& p) {
  return p.fits() && !unpriced_crossing(p);
}

/// A layout whose tensor or expert group leaves the node, against the best fitting layout
/// that keeps every group inside one: avoid when that one is clearly better, else marginal.
LayoutVerdict judge_crossing(const Placement& p, const Placement* inside, Objective objective) {
  LayoutVerdict verdict;
  verdict.level = p.level;
  if (unpriced_crossing(p)) {
    verdict.level = Level::avoid;
    verdict.basis = VerdictBasis::crossing_unpriced;
    return verdict;
  }
  if (inside == nullptr) {
    verdict.basis = VerdictBasis::crossing_alone;
    return verdict;
  }
  verdict.basis = VerdictBasis::crossing;
  verdict.compared = inside->layout;
  verdict.factor = advantage(*inside, p, objective);
  if (verdict.factor >= clearly_better) {
    verdict.level = Level::avoid;
  }
  return verdict;
}

LayoutVerdict judge_fitting(const Placement& p, const Placement* best, const Placement* inside,
                            Objective objective) {
  if (breaks_rule(p) || unpriced_crossing(p)) {
    return judge_crossing(p, inside, objective);
  }
  LayoutVerdict verdict;
  verdict.level = p.level;
  if (best == nullptr || best->layout == p.layout) {
    verdict.basis = VerdictBasis::best;
    return verdict;
  }
  verdict.compared = best->layout;
  verdict.factor = advantage(*best, p, objective);
  verdict.basis = VerdictBasis::near_best;
  if (verdict.factor >= clearly_better) {
    verdict.level = Level::avoid;
    verdict.basis = VerdictBasis::clearly_worse;
  }
  return verdict;
}

LayoutVerdict judge_one(const Placement& p, const Placement* best, const Placement* inside,
                        Objective objective, std::size_t eligible_count) {
  LayoutVerdict verdict;
  if (!p.fits()) {
    verdict.level = Level::avoid;
    verdict.basis = VerdictBasis::misfit;
  } else {
    verdict = judge_fitting(p, best, inside, objective);
  }
  verdict.judged = true;
  verdict.eligible = eligible_count;
  return verdict;
}

} // namespace

const StrategyCost& chattiest(const Placement& p) {
  return *std::ranges::max_element(p.strategies, {}, [](const StrategyCost& c) {
    return std::pair{c.verdict.level, c.verdict.share};
  });
}

bool unpriced_crossing(const Placement& p) {
  return std::ranges::any_of(p.strategies, [](const StrategyCost& c) {
    return (c.verdict.breaks_rule || group_leaves_node(c)) && !c.verdict.expected_model;
  });
}

std::vector<Layout> candidate_layouts(const Cluster& cluster, const Model& model,
                                      int redundant_experts) {
  std::vector<Layout> layouts;
  const AttentionShape attention = attention_shape(model);
  // Every degree divides the GPU count: its divisors, found once, serve each level.
  const std::vector<int> sizes = divisors(cluster.gpus);
  // Room for a dense model's layouts (a tp and a pp per divisor); a hint, not a bound.
  layouts.reserve(sizes.size() * sizes.size());
  const auto divides = [](int n, int d) { return d <= n && n % d == 0; };
  for (const int tp : sizes) {
    if (!tensor_group_allowed(attention, tp)) {
      continue;
    }
    for (const int ep : sizes) {
      if (!divides(cluster.gpus / tp, ep) ||
          (ep > 1 && (!model.is_moe() || !divides_experts(model, ep, redundant_experts)))) {
        continue;
      }
      // With tensor-parallel attention, an MoE model's experts may also be split over fewer
      // GPUs than the tensor group and spread over the rest of the stage: held whole ("TP 8
      // EP 8"), or split over a divisor of tp ("TP 8, experts TP 2 × EP 4").
      std::vector<int> expert_splits;
      for (const int moe_tp : sizes) {
        if (model.is_moe() && moe_tp < tp && tp % moe_tp == 0 &&
            divides_experts(model, tp * ep / moe_tp, redundant_experts)) {
          expert_splits.push_back(moe_tp);
        }
      }
      for (const int pp : sizes) {
        if (divides(cluster.gpus / (tp * ep), pp) && pp <= model.layers) {
          const Layout layout{tp, pp, ep, cluster.gpus / (tp * ep * pp)};
          layouts.push_back(layout);
          for (const int moe_tp : expert_splits) {
            layouts.push_back({tp, pp, ep, layout.dp, moe_tp});
          }
        }
      }
    }
  }
  return layouts;
}

namespace {

/// rank_layouts, judging every layout or only `only`.
std::vector<RankedLayout> rank_and_judge(const Cluster& cluster, const Workload& workload,
                                         Objective objective, const Layout* only) {
  const std::vector<Layout> layouts =
      candidate_layouts(cluster, *workload.model, workload.ep_routing.redundant_experts);
  std::vector<Placement> placements;
  placements.reserve(layouts.size());
  for (const Layout& layout : layouts) {
    placements.push_back(evaluate_layout(cluster, workload, layout));
  }
  // A layout whose groups leave the node ranks above one that keeps them inside only when it
  // is clearly better: the fabric model does not see what else slows a group across nodes
  // (smaller GEMMs per GPU, other jobs on the fabric), so the tie goes to the node.
  const auto score = [objective](const Placement& p) {
    const double handicap = breaks_rule(p) ? clearly_better : 1.0;
    return objective == Objective::latency ? objective_value(p, objective) * handicap
                                           : objective_value(p, objective) / handicap;
  };
  // Each placement's key once, sorted with its index, then the placements moved once: a
  // Placement is too large to shuffle. Eligible first, then best on the objective.
  struct Key {
    bool eligible;
    double score;
    std::size_t index;
  };
  std::vector<Key> keys;
  keys.reserve(placements.size());
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const double value = score(placements[i]);
    keys.push_back({eligible(placements[i]), objective == Objective::latency ? value : -value, i});
  }
  std::ranges::stable_sort(keys, [](const Key& a, const Key& b) {
    return a.eligible != b.eligible ? a.eligible : a.score < b.score;
  });
  std::vector<RankedLayout> ranked;
  ranked.reserve(keys.size());
  for (const Key& key : keys) {
    ranked.push_back({std::move(placements[key.index]), {}});
  }
  const auto count = static_cast<std::size_t>(
      std::ranges::count_if(ranked, [](const RankedLayout& r) { return eligible(r.placement); }));
  const Placement* best = count > 0 ? &ranked.front().placement : nullptr;
  const auto inside = std::ranges::find_if(ranked, [](const RankedLayout& r) {
    return eligible(r.placement) && !breaks_rule(r.placement) && !leaves_node(r.placement);
  });
  const Placement* inside_best = inside != ranked.end() ? &inside->placement : nullptr;
  for (RankedLayout& r : ranked) {
    if (only == nullptr || r.placement.layout == *only) {
      r.verdict = judge_one(r.placement, best, inside_best, objective, count);
    }
  }
  return ranked;
}

} // namespace

std::vector<RankedLayout> rank_layouts(const Cluster& cluster, const Workload& workload,
                                       Objective objective) {
  return rank_and_judge(cluster, workload, objective, nullptr);
}

std::vector<RankedLayout> rank_layouts_judging(const Cluster& cluster, const Workload& workload,
                                               Objective objective, const Layout& judged) {
  return rank_and_judge(cluster, workload, objective, &judged);
}

namespace {

/// Each operation of a stage: what it is, its time and what bounds it.
Json terms_json(const std::vector<StepTerm>& terms) {
  Json out = Json::array();
  for (const StepTerm& t : terms) {
    out.push_back({{"what", to_string(t.op)},
                   {"seconds", json_number(t.seconds.value())},
                   {"bound", to_string(t.bound)},
                   {"flops", json_number(t.flops.value())},
                   {"bytes_read", json_number(t.read.value())}});
  }
  return out;
}

} // namespace

Json layout_json(const Layout& l) {
  return {{"tp", l.tp},
          {"pp", l.pp},
          {"ep", l.ep},
          {"dp", l.dp},
          {"moe_tp", l.expert_tp()},
          {"moe_ep", l.expert_ranks()}};
}

Json ranked_layout_json(const RankedLayout& r, Phase phase) {
  const Placement& p = r.placement;
  const StepTime& s = p.step;
  Json j;
  j["layout"] = layout_json(p.layout);
  j["name"] = layout_name(p.layout);
  j["fits"] = p.fits();
  const MemoryBudget& budget = p.memory.budget;
  j["memory"] = {{"weights_bytes_per_gpu", json_number(p.memory.weights_per_gpu.value())},
                 {"kv_bytes_per_gpu", json_number(p.memory.kv_per_gpu.value())},
                 {"usable_bytes_per_gpu", json_number(p.memory.usable_per_gpu.value())},
                 {"device_bytes", json_number(budget.device.value())},
                 {"rule", budget.rule != nullptr ? budget.rule->setting : "reserve"},
                 {"fraction", json_number(budget.rule != nullptr ? budget.fraction
                                                                 : 1 - budget.reserve.value_or(0))},
                 {"activation_bytes", json_number(budget.activation.value())},
                 {"runtime_bytes", json_number(budget.runtime.value())}};
  j["batch"] = {{"sequences", s.batch.total},
                {"per_replica", s.batch.replica},
                {"per_micro_batch", s.batch.micro}};
  j["step"] = {{"seconds", json_number(s.stage.value())},
               {"compute_seconds", json_number(s.work.compute.value())},
               {"memory_seconds", json_number(s.work.memory.value())},
               {"measured_kernel_seconds", json_number(s.work.measured.value())},
               {"prefill_pass_scale", json_number(s.pass_scale)},
               {"prompt_scale", json_number(s.prompt_scale)},
               {"comm_seconds", json_number(s.comm.value())},
               {"exposed_comm_seconds", json_number(s.exposed_comm.value())},
               {"pipeline_seconds", json_number(s.pipeline.value())},
               {"layer_gap_seconds", json_number(s.layer_gaps.value())},
               {"engine_seconds", json_number(s.engine.value())},
               {"request_seconds", json_number(s.request.value())},
               {"bytes_read_per_gpu", json_number(s.work.read.value())},
               {"terms", terms_json(s.work.terms)}};
  if (s.draft.value() > 0) {
    // Speculative decoding: the drafts before the pass and the tokens the step emits.
    j["step"]["draft_seconds"] = json_number(s.draft.value());
    j["step"]["tokens_emitted_per_sequence"] = json_number(s.emitted);
  }
  j[phase == Phase::prefill ? "ttft_seconds" : "tpot_seconds"] = json_number(s.latency.value());
  j["tokens_per_second_per_gpu"] = json_number(s.tokens_per_second_per_gpu);
  Json verdict = {{"level", to_string(r.verdict.level)}, {"reason", r.verdict.reason}};
  if (r.verdict.compared) {
    verdict["compared_with"] = layout_json(*r.verdict.compared);
    verdict["factor"] = json_number(r.verdict.factor);
  }
  j["verdict"] = std::move(verdict);
  return j;
}

std::vector<RankInversion> rank_inversions(const std::vector<RankedLayout>& ranked,
                                           Objective objective, std::size_t shown) {
  std::vector<RankInversion> found;
  for (std::size_t i = 0; i < std::min(shown, ranked.size()); ++i) {
    const Placement& p = ranked[i].placement;
    for (std::size_t j = 0; j < i; ++j) {
      const Placement& q = ranked[j].placement;
      if (advantage(p, q, objective) <= 1) {
        continue;
      }
      // The sort puts eligible layouts first, then each by its score; a better layout ranked
      // lower is either not eligible where the other is, or handicapped by the rule.
      const RankedBelow why = eligible(q) && !p.fits()              ? RankedBelow::misfit
                              : eligible(q) && unpriced_crossing(p) ? RankedBelow::unpriced_crossing
                                                                    : RankedBelow::placement_rule;
      found.push_back({i, j, why});
      break;
    }
  }
  return found;
}

std::size_t rank_of(const std::vector<RankedLayout>& ranked, const Layout& layout) {
  const auto found = std::ranges::find_if(
      ranked, [&](const RankedLayout& r) { return r.placement.layout == layout; });
  return static_cast<std::size_t>(found - ranked.begin());
}

} // namespace icx
