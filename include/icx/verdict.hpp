// Verdicts: is a strategy on a wire a good idea, by the placement rule and by how its
// communication time compares with the compute it should hide behind?
#pragma once

#include <array>
#include <string_view>

#include "icx/catalog.hpp"
#include "icx/enum_names.hpp"
#include "icx/strategies.hpp"
#include "icx/units.hpp"

namespace icx {

enum class Level { ok, marginal, avoid };

constexpr std::array<EnumName<Level>, 3> enum_names(Level /*unused*/) {
  return {{{Level::ok, "ok"}, {Level::marginal, "marginal"}, {Level::avoid, "avoid"}}};
}

/// Communication at most this fraction of compute is hidden by overlap: `ok`.
constexpr double ok_ratio = 0.25;
/// Up to parity it can still be hidden with care: `marginal`; above, the wire eats the win.
constexpr double marginal_ratio = 1.0;

struct Verdict {
  Level level = Level::ok;
  /// The placement rule forbids this strategy on this link's tier.
  bool breaks_rule = false;
  Seconds comm;
  /// `comm` comes from the expected model (else from the headline model).
  bool expected_model = false;
  Seconds compute;
  /// comm / compute (0 when there is no communication).
  double ratio = 0;
};

/// The level for a communication/compute ratio, by the thresholds above.
Level level_for_ratio(double ratio);

/// Judges `strategy` on `link` (nullptr: no link is crossed).
Verdict judge(Strategy strategy, const Link* link, Seconds comm, Seconds compute);

/// The worse of two levels.
Level worst(Level a, Level b);

} // namespace icx
