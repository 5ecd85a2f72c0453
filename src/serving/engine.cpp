#include "icx/serving/engine.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/enum_names.hpp"
#include "icx/base/knob.hpp"
#include "icx/util/input_error.hpp"

namespace icx {

const Engine& engine_of(const Catalog& catalog, const Engine* engine) {
  return engine != nullptr ? *engine : catalog.engine(default_engine);
}

const GpuTuning* gpu_tuning(const Gpu& gpu, std::string_view id) {
  if (gpu.tunings.empty()) {
    return nullptr;
  }
  const auto found = std::ranges::find_if(
      gpu.tunings, [&](const GpuTuning& t) { return id.empty() ? t.is_default : t.id == id; });
  if (found == gpu.tunings.end()) {
    std::vector<std::string> ids;
    for (const GpuTuning& t : gpu.tunings) {
      ids.push_back(t.id);
    }
    throw InputError(fmt::format("{} '{}': {} has no such tuning; give one of: {}", Knob::tuning,
                                 id, gpu.id, fmt::join(ids, ", ")));
  }
  return &*found;
}

RunSetup tuned_setup(const Gpu& gpu, RunSetup setup, std::string_view id) {
  const GpuTuning* tuning = gpu_tuning(gpu, id);
  setup.ring_step = tuning != nullptr ? tuning->ring_step : Seconds{};
  return setup;
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

std::int64_t default_prefill_chunk(const Engine& engine, const Gpu& gpu, const Model& model) {
  const SchedulerTier& tier = scheduler_tier(engine, gpu);
  if (!tier.whole_prompts) {
    return tier.prefill_chunk;
  }
  if (model.max_context == 0) {
    throw InputError(fmt::format(
        "{} {} prefills whole prompts up to the model's longest context (its max_model_len), "
        "which the catalog does not give for {}: add \"max_context\" to the model in a {} "
        "overlay, or describe it with {} (its max_position_embeddings)",
        Knob::engine, engine.id, model.id, Knob::catalog, Knob::hf_config));
  }
  return model.max_context;
}

std::int64_t prefill_chunk_or_default(std::optional<std::int64_t> given, const Engine& engine,
                                      const Gpu& gpu, const Model& model) {
  return given ? *given : default_prefill_chunk(engine, gpu, model);
}

void check_prefix_cache(const Engine& engine, double prefix_hit, std::int64_t warm_prompts) {
  if (engine.prefix_cache) {
    return;
  }
  const std::string why = fmt::format("{} {} keeps no prefix cache", Knob::engine, engine.id);
  if (prefix_hit > 0) {
    throw InputError(fmt::format("{} {:g}: {}; drop it, or give an engine that keeps one ('icx "
                                 "engines --json' lists their prefix_cache)",
                                 Knob::prefix_hit, prefix_hit, why));
  }
  if (warm_prompts > 0) {
    throw InputError(fmt::format("{} {}: {}, so a client's warm-up leaves nothing cached; drop it",
                                 Knob::warm_prompts, warm_prompts, why));
  }
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
