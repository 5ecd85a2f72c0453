// Which target a plan's step misses (icx/serving/plan.hpp).
#include "icx/serving/plan.hpp"

#include <algorithm>

namespace icx {

TargetMiss target_miss(const LoadedStep& step, const PlanTargets& targets) {
  if (!step.serves()) {
    return {step.limit == ServeLimit::memory ? PlanMiss::memory : PlanMiss::saturated, 1};
  }
  const double ttft = step.ttft / targets.ttft;
  const double tpot = step.tpot / targets.tpot;
  return {tpot >= ttft ? PlanMiss::tpot : PlanMiss::ttft, std::max(ttft, tpot)};
}

} // namespace icx
