// Every layout that can run a model on a cluster, ranked by the step model under an
// objective, and the verdict on each relative to the best: a layout is `avoid` when it breaks
// the placement rule, does not fit, or a fitting layout on the same GPUs is clearly better.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/serving.hpp"

namespace icx {

/// A fitting layout at least this many times better on the objective makes another `avoid`;
/// closer than that, engine details the model leaves out (kernels, scheduling) can decide.
constexpr double clearly_better = 1.5;

/// What a layout's verdict rests on: the fact its reason is written from
/// (icx/words/ranking.hpp).
enum class VerdictBasis {
  /// Its weights and KV cache do not fit in the GPUs' usable HBM: avoid.
  misfit,
  /// The best of the layouts that fit and keep the placement rule.
  best,
  /// Within clearly_better of the best (`compared`, `factor`).
  near_best,
  /// The best (`compared`) is at least clearly_better times better: avoid.
  clearly_worse,
  /// A group leaves its node over a wire with no expected model to price it there: avoid.
  crossing_unpriced,
  /// A group leaves its node, and no fitting layout keeps every group inside one.
  crossing_alone,
  /// A group leaves its node; `compared` keeps every group inside one (avoid when it is
  /// clearly better).
  crossing,
};

struct LayoutVerdict {
  Level level = Level::ok;
  /// Whether this layout was judged (rank_layouts_judging judges one).
  bool judged = false;
  VerdictBasis basis = VerdictBasis::best;
  /// The layouts that fit and keep the placement rule, which `best` is the best of.
  std::size_t eligible = 0;
  /// Written by the words layer from the facts here (write_reasons).
  std::string reason;
  /// The layout this one was compared with (the best eligible one), absent when it is that
  /// one or none fits.
  std::optional<Layout> compared;
  /// How many times better `compared` is on the objective (1 when absent).
  double factor = 1;
};

struct RankedLayout {
  Placement placement;
  LayoutVerdict verdict;
};

/// The split whose exposed communication takes the largest share of its step.
const StrategyCost& chattiest(const Placement& placement);

/// "TP 4 × DP 2": the degrees above 1, the way engines write them ("TP 1" for one GPU).
std::string layout_name(const Layout& layout);

/// What a request sees (TTFT or TPOT) for latency, tokens per second per GPU for throughput.
double objective_value(const Placement& placement, Objective objective);

/// How many times better `a` is than `b` on the objective (above 1: `a` is better).
double advantage(const Placement& a, const Placement& b, Objective objective);

/// Every layout of the cluster's GPUs the model allows: tensor degrees that split the heads,
/// expert degrees (MoE only) that divide the experts (with `redundant_experts` replicas), at
/// most one stage per layer, replicas for the rest.
std::vector<Layout> candidate_layouts(const Cluster& cluster, const Model& model,
                                      int redundant_experts = 0);

/// The candidates evaluated and sorted best first: layouts that fit and keep the placement
/// rule before the others, each group by the objective; each with its verdict.
/// A tensor or expert group leaves its node (or breaks the placement rule) over a link the
/// expected model cannot price there: only the headline, a lower bound, times it, which
/// would flatter it against layouts the expected model prices. Such a layout is judged but
/// never chosen (ranked among the fitting ones, or planned).
bool unpriced_crossing(const Placement& p);

std::vector<RankedLayout> rank_layouts(const Cluster& cluster, const Workload& workload,
                                       Objective objective);

/// The same order, with the verdict of `judged` only (the others' verdicts are left
/// default): what a report on one layout needs, without the text of every other verdict.
std::vector<RankedLayout> rank_layouts_judging(const Cluster& cluster, const Workload& workload,
                                               Objective objective, const Layout& judged);

/// Why the ranking puts a layout below one it beats on the objective.
enum class RankedBelow {
  /// It does not fit: every layout that fits ranks first.
  misfit,
  /// A group leaves its node over a wire the expected model cannot price there.
  unpriced_crossing,
  /// It breaks the placement rule: it must be clearly_better to rank above one that keeps it.
  placement_rule,
};

/// A layout ranked below another (`above`, the highest-ranked one it beats) though better on
/// the objective; both are indices into the ranking.
struct RankInversion {
  std::size_t rank = 0;
  std::size_t above = 0;
  RankedBelow why = RankedBelow::misfit;
};

/// Every layout among the first `shown` of `ranked` that beats a layout ranked above it on
/// the objective, best-ranked first.
std::vector<RankInversion> rank_inversions(const std::vector<RankedLayout>& ranked,
                                           Objective objective, std::size_t shown);

/// The position of `layout` in `ranked`, or ranked.size() when absent.
std::size_t rank_of(const std::vector<RankedLayout>& ranked, const Layout& layout);

/// {tp, pp, ep, dp}.
Json layout_json(const Layout& layout);

/// {layout, name, fits, memory, batch, step, ttft_seconds or tpot_seconds,
/// tokens_per_second_per_gpu, verdict}: the figures every ranked layout carries.
Json ranked_layout_json(const RankedLayout& ranked, Phase phase);

} // namespace icx
