#include "icx/verdict.hpp"

#include <algorithm>

namespace icx {

Level level_for_ratio(double ratio) {
  if (ratio <= ok_ratio) {
    return Level::ok;
  }
  return ratio <= marginal_ratio ? Level::marginal : Level::avoid;
}

Level worst(Level a, Level b) {
  return std::max(a, b);
}

Verdict judge(Strategy strategy, const Link* link, Seconds comm, Seconds compute) {
  Verdict verdict;
  verdict.comm = comm;
  verdict.compute = compute;
  verdict.ratio = comm.value() > 0 ? comm / compute : 0.0;
  verdict.breaks_rule = link != nullptr && !allowed_on(strategy, link->tier);
  verdict.level = verdict.breaks_rule ? Level::avoid : level_for_ratio(verdict.ratio);
  return verdict;
}

} // namespace icx
