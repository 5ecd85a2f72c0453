#include "icx/wire/verdict.hpp"

#include <algorithm>

namespace icx {

Level level_for_share(double share) {
  return share <= ok_share ? Level::ok : Level::marginal;
}

Level worst(Level a, Level b) {
  return std::max(a, b);
}

Verdict judge(Strategy strategy, const Link* link, Seconds comm, Seconds step) {
  Verdict verdict;
  verdict.comm = comm;
  verdict.step = step;
  verdict.share = comm.value() > 0 && step.value() > 0 ? comm / step : 0.0;
  verdict.breaks_rule = link != nullptr && !allowed_on(strategy, link->tier);
  verdict.level = verdict.breaks_rule ? Level::avoid : level_for_share(verdict.share);
  return verdict;
}

} // namespace icx
