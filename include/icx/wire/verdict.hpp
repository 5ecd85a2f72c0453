// Verdicts on one split: does it break the placement rule, and how much of the step does its
// exposed communication take? Whether a whole layout is worth running is relative to the
// other layouts on the same GPUs (icx/serving/ranking.hpp).
#pragma once

#include <array>
#include <string_view>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/strategies.hpp"

namespace icx {

enum class Level { ok, marginal, avoid };

constexpr std::array<EnumName<Level>, 3> enum_names(Level /*unused*/) {
  return {{{Level::ok, "ok"}, {Level::marginal, "marginal"}, {Level::avoid, "avoid"}}};
}

/// A split whose exposed communication takes at most this share of the step is `ok`; above
/// it, `marginal`: the wire eats a large part of the step, though no layout may do better.
constexpr double ok_share = 0.25;

struct Verdict {
  Level level = Level::ok;
  /// The placement rule forbids this strategy on this link's tier.
  bool breaks_rule = false;
  /// The split's exposed communication per step.
  Seconds comm;
  /// `comm` comes from the expected model (else from the headline model).
  bool expected_model = false;
  /// The step it is part of (a stage's, or the pipeline's whole pass).
  Seconds step;
  /// comm / step (0 when there is no communication).
  double share = 0;
};

/// The level for a share of the step, by the threshold above: never `avoid` on its own.
Level level_for_share(double share);

/// Judges `strategy` on `link` (nullptr: no link is crossed).
Verdict judge(Strategy strategy, const Link* link, Seconds comm, Seconds step);

/// The worse of two levels.
Level worst(Level a, Level b);

} // namespace icx
