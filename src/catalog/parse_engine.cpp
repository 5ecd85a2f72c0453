// Reading a catalog engine: its version, its all-reduce implementation and its scheduler's
// defaults by GPU class.
#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units.hpp"

namespace icx::detail {

namespace {

/// One tier of "scheduler": the GPUs it applies to and its two limits.
SchedulerTier read_tier(ObjectReader& reader, const std::string& name) {
  SchedulerTier tier;
  tier.name = name;
  if (reader.has("min_hbm_GiB")) {
    tier.min_hbm = Bytes::of(reader.positive("min_hbm_GiB", limits::capacity_GB) * gibi);
  }
  tier.except = reader.text_list("except");
  constexpr int most = static_cast<int>(limits::max_tokens);
  tier.max_batch = reader.whole("max_batch", 1, most);
  tier.whole_prompts = reader.flag_or("whole_prompts", false);
  if (!tier.whole_prompts) {
    tier.prefill_chunk = reader.whole("prefill_chunk", 1, most);
  } else if (reader.has("prefill_chunk")) {
    reader.fail("prefill_chunk", "a tier with whole_prompts takes the model's longest context as "
                                 "its token budget; give one or the other");
  }
  reader.finish();
  return tier;
}

/// Every GPU must fall in some tier, and no GPU in two of the same memory: exactly one tier
/// applies to all GPUs, and no two tiers start at the same memory.
void check_tiers(ObjectReader& reader, const std::vector<SchedulerTier>& tiers) {
  const auto fallbacks = std::ranges::count_if(tiers, &SchedulerTier::applies_to_every_gpu);
  if (fallbacks != 1) {
    reader.fail("scheduler", fmt::format("{} tiers apply to every GPU (no min_hbm_GiB, no "
                                         "except); exactly one must",
                                         fallbacks));
  }
  for (std::size_t i = 0; i < tiers.size(); ++i) {
    for (std::size_t j = i + 1; j < tiers.size(); ++j) {
      if (tiers[i].min_hbm == tiers[j].min_hbm) {
        reader.fail("scheduler", fmt::format("tiers '{}' and '{}' start at the same memory; "
                                             "give each its own min_hbm_GiB",
                                             tiers[i].name, tiers[j].name));
      }
    }
  }
}

/// "reserve_MiB": SGLang's formula for the memory it keeps back.
MemoryReserveRule read_reserve(ObjectReader& reader) {
  MemoryReserveRule rule;
  constexpr int most = static_cast<int>(limits::max_tokens);
  rule.fixed_MiB = reader.positive("fixed", limits::reserve_MiB);
  rule.per_chunk_token_MiB = reader.positive("per_chunk_token", limits::reserve_MiB);
  rule.min_chunk = reader.whole("min_chunk", 0, most);
  rule.per_graph_sequence_MiB = reader.positive("per_graph_sequence", limits::reserve_MiB);
  rule.graph_sequences = reader.whole("graph_sequences", 0, most);
  rule.per_group_gpu_MiB = reader.positive("per_group_gpu", limits::reserve_MiB);
  rule.floor_MiB = reader.positive("floor", limits::reserve_MiB);
  rule.floor_above_MiB = reader.positive("floor_above", limits::reserve_MiB);
  reader.finish();
  return rule;
}

/// "memory": how the engine sizes its KV cache.
EngineMemory read_memory(ObjectReader& reader, const std::string& origin) {
  EngineMemory memory;
  memory.setting = reader.text("setting");
  check_printable(reader, "setting", memory.setting);
  memory.basis = reader.choice<MemoryBasis>("basis");
  if (reader.has("reserve_MiB")) {
    ObjectReader reserve(reader.object("reserve_MiB"), reader.pointer_to("reserve_MiB"), origin);
    memory.reserve = read_reserve(reserve);
    if (reader.has("fraction")) {
      reader.fail("fraction", "the fraction follows from reserve_MiB; give one or the other");
    }
  } else {
    memory.fraction = reader.fraction("fraction");
  }
  memory.profiles_activation = reader.flag_or("profiles_activation", false);
  memory.runtime = Bytes::of(reader.positive("runtime_GiB", limits::capacity_GB) * gibi);
  memory.source = reader.text("source");
  reader.finish();
  return memory;
}

/// "speculation": what a speculative step adds.
SpeculationCosts read_speculation(ObjectReader& reader) {
  SpeculationCosts speculation;
  speculation.step = Seconds::of(reader.positive("step_us", limits::engine_cost_us) * micro);
  speculation.draft = Seconds::of(reader.positive("draft_us", limits::engine_cost_us) * micro);
  speculation.source = reader.text("source");
  reader.finish();
  return speculation;
}

/// "prefix_cache": the granularity of the engine's prefix cache.
PrefixCache read_prefix_cache(ObjectReader& reader) {
  PrefixCache cache;
  cache.block_tokens = reader.whole("block_tokens", 1, static_cast<int>(limits::max_tokens));
  cache.source = reader.text("source");
  reader.finish();
  return cache;
}

/// An engine's own costs (its "costs" object). With costs_from, a figure left out (or the
/// whole object) is borrowed: named in `borrowed`, its value copied once the catalog is read.
EngineCosts read_costs(ObjectReader& reader, const std::string& origin,
                       std::vector<std::string>* borrowed) {
  EngineCosts out;
  static const nlohmann::json none = nlohmann::json::object();
  const bool given = borrowed == nullptr || reader.has("costs");
  ObjectReader costs(given ? reader.object("costs") : none, reader.pointer_to("costs"), origin);
  const auto time = [&](std::string_view figure, Seconds& into, bool required) {
    if (costs.has(figure) || (required && borrowed == nullptr)) {
      into = Seconds::of(costs.positive(figure, limits::engine_cost_us) * micro);
    } else if (borrowed != nullptr) {
      borrowed->emplace_back(figure);
    }
  };
  const auto scale = [&](std::string_view figure, double& into, const limits::Bounds& most) {
    if (costs.has(figure)) {
      into = costs.positive(figure, most);
    } else if (borrowed != nullptr) {
      borrowed->emplace_back(figure);
    }
  };
  time("step_us", out.step, true);
  time("layer_us", out.layer, true);
  time("request_us", out.request, true);
  time("sequence_us", out.sequence, false);
  time("prefill_step_us", out.prefill_step, false);
  scale("prefill_pass_scale", out.prefill_pass_scale, limits::prefill_pass_scale);
  scale("prompt_scale", out.prompt_scale, limits::prompt_scale);
  if (costs.has("context_walk_bytes")) {
    out.context_walk = Bytes::of(costs.positive("context_walk_bytes", limits::context_walk_bytes));
  } else if (borrowed != nullptr) {
    borrowed->emplace_back("context_walk_bytes");
  }
  costs.finish();
  return out;
}

} // namespace

Engine read_engine(ObjectReader& reader, const std::string& origin) {
  Engine engine;
  read_entry(reader, engine, origin);
  engine.version = reader.text("version");
  check_printable(reader, "version", engine.version);
  engine.implementation = reader.text("impl");
  const nlohmann::json& tiers = reader.object("scheduler");
  for (const auto& [name, value] : tiers.items()) {
    if (!value.is_object()) {
      ObjectReader(tiers, reader.pointer_to("scheduler"), origin)
          .fail(name, "expected an object with max_batch and prefill_chunk");
    }
    ObjectReader tier(value, reader.pointer_to("scheduler") / name, origin);
    engine.scheduler.push_back(read_tier(tier, name));
  }
  check_tiers(reader, engine.scheduler);
  engine.policy = reader.choice<SchedulePolicy>("policy");
  if (reader.has("kv_admission")) {
    engine.kv_admission = reader.choice<KvAdmission>("kv_admission");
  }
  if (reader.has("costs_from")) {
    engine.costs_from = reader.text("costs_from");
  }
  engine.costs =
      read_costs(reader, origin, engine.costs_from.empty() ? nullptr : &engine.borrowed_costs);
  if (reader.has("memory")) {
    ObjectReader memory(reader.object("memory"), reader.pointer_to("memory"), origin);
    engine.memory = read_memory(memory, origin);
  }
  if (reader.has("speculation")) {
    ObjectReader spec(reader.object("speculation"), reader.pointer_to("speculation"), origin);
    engine.speculation = read_speculation(spec);
  }
  if (reader.has("prefix_cache")) {
    ObjectReader cache(reader.object("prefix_cache"), reader.pointer_to("prefix_cache"), origin);
    engine.prefix_cache = read_prefix_cache(cache);
  }
  if (reader.has("kernels_from")) {
    engine.kernels_from = reader.text("kernels_from");
  }
  if (reader.has("launch")) {
    ObjectReader launch(reader.object("launch"), reader.pointer_to("launch"), origin);
    engine.launch = EngineLaunch{launch.choice<LaunchStyle>("style"), launch.text("source")};
    launch.finish();
  }
  return engine;
}

} // namespace icx::detail
