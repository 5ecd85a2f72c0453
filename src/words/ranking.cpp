// The reasons of ranked layouts (icx/words/ranking.hpp).
#include "icx/words/ranking.hpp"

#include <string_view>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/words/verdict.hpp"

namespace icx {

namespace {

/// "TPOT 12.2 ms" or "1.2 k tokens/s per GPU".
std::string objective_figure(const Placement& p, Phase phase, Objective objective) {
  if (objective == Objective::latency) {
    return fmt::format("{} {}", phase == Phase::prefill ? "TTFT" : "TPOT",
                       format_seconds(p.step.latency));
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

} // namespace icx
