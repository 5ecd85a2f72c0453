#include "icx/serving/engine.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "icx/base/enum_names.hpp"
#include "icx/util/input_error.hpp"

namespace icx {

const Engine& engine_of(const Catalog& catalog, const Engine* engine) {
  return engine != nullptr ? *engine : catalog.engine(default_engine);
}

std::int64_t prefix_block(const Engine& engine) {
  return engine.prefix_cache ? engine.prefix_cache->block_tokens : 1;
}

const SchedulerTier& scheduler_tier(const Engine& engine, const Gpu& gpu) {
  const SchedulerTier* best = nullptr;
  for (const SchedulerTier& tier : engine.scheduler) {
    const bool excepted = std::ranges::any_of(tier.except, [&](const std::string& part) {
      return gpu.id.find(part) != std::string::npos;
    });
    if (!excepted && gpu.memory() >= tier.min_hbm &&
        (best == nullptr || tier.min_hbm > best->min_hbm)) {
      best = &tier;
    }
  }
  // The catalog reader requires one tier that applies to every GPU.
  return best != nullptr ? *best : engine.scheduler.front();
}

Implementation engine_implementation(const Engine& engine) {
  if (const std::optional<Implementation> implementation =
          implementation_from_name(engine.implementation)) {
    return *implementation;
  }
  throw InputError(fmt::format("{}: engine '{}': impl '{}' is not one of: {}", engine.origin,
                               engine.id, engine.implementation,
                               joined(names_in(enum_names(Implementation{})))));
}

} // namespace icx
