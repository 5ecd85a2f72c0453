// The reasons of ranked layouts (icx/words/ranking.hpp).
#include "icx/words/ranking.hpp"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/words/verdict.hpp"

namespace icx {

namespace {

/// "TPOT 12.2 ms" or "1.2 k tokens/s per GPU".
std::string objective_figure(const Placement& p, Phase phase, Objective objective) {
  if (objective == Objective::latency) {
    return fmt::format("{} {}", latency_name(phase), format_seconds(p.step.latency));
  }
  return fmt::format("{} tokens/s per GPU", format_scaled(p.step.tokens_per_second_per_gpu));
}

std::string misfit_reason(const Placement& p) {
  const LayoutMemory& m = p.memory;
  return fmt::format("does not fit: {} of weights + {} of KV cache per GPU, {} usable",
                     format_bytes(m.weights_per_gpu), format_bytes(m.kv_per_gpu),
                     format_bytes(m.usable_per_gpu));
}

/// "all-reduce takes 12 % of the step", or the tensor and expert collectives together when
/// a stage has both (they add up in the step, and the verdict weighs their sum).
std::string share_text(const Placement& p, const StrategyCost& worst) {
  std::vector<std::string_view> kinds;
  for (const StrategyCost& c : p.strategies) {
    if ((c.strategy == Strategy::tensor || c.strategy == Strategy::expert) &&
        c.verdict.comm.value() > 0) {
      kinds.push_back(traffic_kind(c.strategy));
    }
  }
  if (kinds.size() > 1) {
    return fmt::format("{} and {} take {:.0f} % of the step", kinds[0], kinds[1],
                       stage_comm_share(p.step) * 100);
  }
  return worst.verdict.share > 0
             ? fmt::format("{} takes {:.0f} % of the {}", traffic_kind(worst.strategy),
                           worst.verdict.share * 100,
                           worst.strategy == Strategy::pipeline ? "pass" : "step")
             : std::string("no communication");
}

/// A group that leaves its node: its chattiest split's verdict, then what keeps it inside.
std::string crossing_reason(const RankedLayout& r, const Placement* inside, Phase phase,
                            Objective objective) {
  const Placement& p = r.placement;
  const StrategyCost& worst = chattiest(p);
  std::string reason = verdict_reason(worst.strategy, worst.wire, worst.verdict, pass_name(phase));
  switch (r.verdict.basis) {
  case VerdictBasis::crossing_unpriced:
    return reason + fmt::format("; wire '{}' has no expected model to price it across nodes "
                                "('icx calibrate' fits one from an nccl-tests log)",
                                worst.wire->id);
  case VerdictBasis::crossing_alone:
    return reason + "; no fitting layout keeps every group inside a node";
  default:
    return reason + fmt::format("; {} keeps every group inside a node: {} there, {} here",
                                layout_name(inside->layout),
                                objective_figure(*inside, phase, objective),
                                objective_figure(p, phase, objective));
  }
}

} // namespace

std::string layout_reason(const RankedLayout& r, const Placement* compared, Phase phase,
                          Objective objective) {
  const Placement& p = r.placement;
  const LayoutVerdict& v = r.verdict;
  switch (v.basis) {
  case VerdictBasis::misfit:
    return misfit_reason(p);
  case VerdictBasis::crossing_unpriced:
  case VerdictBasis::crossing_alone:
  case VerdictBasis::crossing:
    return crossing_reason(r, compared, phase, objective);
  case VerdictBasis::best:
    return fmt::format("best of {} fitting layout{} for {} ({}); {}", v.eligible,
                       v.eligible == 1 ? "" : "s", to_string(objective),
                       objective_figure(p, phase, objective), share_text(p, chattiest(p)));
  case VerdictBasis::near_best:
  case VerdictBasis::clearly_worse:
    break;
  }
  std::string comparison = fmt::format(
      "{} is {} better for {} ({} vs {})", layout_name(compared->layout), format_ratio(v.factor),
      to_string(objective), objective_figure(*compared, phase, objective),
      objective_figure(p, phase, objective));
  if (v.basis == VerdictBasis::clearly_worse) {
    return comparison;
  }
  return fmt::format("within {}× of the best: {}; {}", clearly_better, comparison,
                     share_text(p, chattiest(p)));
}

void write_reasons(std::vector<RankedLayout>& ranked, Phase phase, Objective objective) {
  for (RankedLayout& r : ranked) {
    if (!r.verdict.judged) {
      continue;
    }
    const Placement* compared = nullptr;
    if (r.verdict.compared) {
      const std::size_t at = rank_of(ranked, *r.verdict.compared);
      compared = at < ranked.size() ? &ranked[at].placement : nullptr;
    }
    r.verdict.reason = layout_reason(r, compared, phase, objective);
  }
}

namespace {

/// "#6 TP 8 × DP 2 (TTFT 676 ms, below #2 TP 8 × PP 2 at TTFT 679 ms)".
std::string inversion_item(const std::vector<RankedLayout>& ranked, const RankInversion& inversion,
                           Phase phase, Objective objective) {
  const Placement& p = ranked[inversion.rank].placement;
  const Placement& q = ranked[inversion.above].placement;
  return fmt::format("#{} {} ({}, below #{} {} at {})", inversion.rank + 1, layout_name(p.layout),
                     objective_figure(p, phase, objective), inversion.above + 1,
                     layout_name(q.layout), objective_figure(q, phase, objective));
}

std::string inversion_cause(RankedBelow why) {
  switch (why) {
  case RankedBelow::misfit:
    return "does not fit in the GPUs' usable HBM, and every layout that fits ranks first";
  case RankedBelow::unpriced_crossing:
    return "sends a group across nodes over a wire with no expected model to price it there, "
           "so it ranks after every layout that is priced";
  case RankedBelow::placement_rule:
    return fmt::format("sends a tensor or expert group across nodes, and by the placement rule "
                       "such a layout ranks above one that keeps its groups inside a node only "
                       "when it is at least {:g}× better",
                       clearly_better);
  }
  return {};
}

} // namespace

std::vector<std::string> inversion_sentences(const std::vector<RankedLayout>& ranked,
                                             const std::vector<RankInversion>& inversions,
                                             Phase phase, Objective objective) {
  std::vector<std::string> sentences;
  for (const RankedBelow why :
       {RankedBelow::placement_rule, RankedBelow::unpriced_crossing, RankedBelow::misfit}) {
    std::vector<std::string> items;
    for (const RankInversion& inversion : inversions) {
      if (inversion.why == why) {
        items.push_back(inversion_item(ranked, inversion, phase, objective));
      }
    }
    if (items.empty()) {
      continue;
    }
    const bool one = items.size() == 1;
    sentences.push_back(
        fmt::format("Ranked below a layout {} on {}: {}. {} {}.", one ? "it beats" : "they beat",
                    objective == Objective::latency ? latency_name(phase) : "tokens/s per GPU",
                    fmt::join(items, "; "), one ? "It" : "Each", inversion_cause(why)));
  }
  return sentences;
}

} // namespace icx
