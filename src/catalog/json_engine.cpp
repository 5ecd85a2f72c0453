// The catalog's engines as JSON, as data/catalog/engines.json writes them.
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "catalog/json_detail.hpp"
#include "icx/catalog/json.hpp"

namespace icx {

using detail::entry_head;
using detail::in_unit;

namespace {

Json memory_json(const EngineMemory& memory) {
  Json json = {{"setting", memory.setting}, {"basis", memory.basis}};
  if (const auto& rule = memory.reserve) {
    json["reserve_MiB"] = {{"fixed", json_number(rule->fixed_MiB)},
                           {"per_chunk_token", json_number(rule->per_chunk_token_MiB)},
                           {"min_chunk", rule->min_chunk},
                           {"per_graph_sequence", json_number(rule->per_graph_sequence_MiB)},
                           {"graph_sequences", rule->graph_sequences},
                           {"per_group_gpu", json_number(rule->per_group_gpu_MiB)},
                           {"floor", json_number(rule->floor_MiB)},
                           {"floor_above", json_number(rule->floor_above_MiB)}};
  } else {
    json["fraction"] = json_number(memory.fraction);
  }
  json["profiles_activation"] = memory.profiles_activation;
  json["runtime_GiB"] = json_number(memory.runtime.value() / gibi);
  json["source"] = memory.source;
  return json;
}

/// The engine's own cost figures, as its entry gives them: a borrowed one (costs_from) is
/// left out, and an optional one of an engine that borrows none is written only where it adds
/// anything.
Json costs_json(const Engine& engine) {
  const EngineCosts& c = engine.costs;
  const auto own = [&](std::string_view figure) { return !engine.borrows(figure); };
  // A borrower writes every figure of its own, a neutral one too: left out, it would be borrowed.
  const auto optional = [&](std::string_view figure) {
    return own(figure) && (engine_cost_counts(figure, c) || !engine.costs_from.empty());
  };
  Json json = Json::object();
  const std::array<std::pair<std::string_view, Seconds>, 4> times{{{"step_us", c.step},
                                                                   {"layer_us", c.layer},
                                                                   {"request_us", c.request},
                                                                   {"sequence_us", c.sequence}}};
  for (const auto& [figure, value] : times) {
    if (own(figure)) {
      json[std::string(figure)] = in_unit(value.value(), micro);
    }
  }
  if (optional("prefill_step_us")) {
    json["prefill_step_us"] = in_unit(c.prefill_step.value(), micro);
  }
  if (optional("prefill_pass_scale")) {
    json["prefill_pass_scale"] = json_number(c.prefill_pass_scale);
  }
  if (optional("prompt_scale")) {
    json["prompt_scale"] = json_number(c.prompt_scale);
  }
  if (optional("context_walk_bytes")) {
    json["context_walk_bytes"] = json_number(c.context_walk.value());
  }
  return json;
}

} // namespace

void to_json(Json& json, const Engine& engine) {
  json = entry_head(engine);
  json["version"] = engine.version;
  json["impl"] = engine.implementation;
  Json tiers = Json::object();
  for (const SchedulerTier& tier : engine.scheduler) {
    Json& out = tiers[tier.name];
    if (tier.min_hbm.value() > 0) {
      out["min_hbm_GiB"] = json_number(tier.min_hbm.value() / gibi);
    }
    if (!tier.except.empty()) {
      out["except"] = tier.except;
    }
    out["max_batch"] = tier.max_batch;
    if (tier.whole_prompts) {
      out["whole_prompts"] = true;
    } else {
      out["prefill_chunk"] = tier.prefill_chunk;
    }
  }
  json["scheduler"] = std::move(tiers);
  json["policy"] = engine.policy;
  json["kv_admission"] = engine.kv_admission;
  if (Json costs = costs_json(engine); !costs.empty() || engine.costs_from.empty()) {
    json["costs"] = std::move(costs);
  }
  if (engine.memory) {
    json["memory"] = memory_json(*engine.memory);
  }
  if (engine.speculation) {
    json["speculation"] = {{"step_us", in_unit(engine.speculation->step.value(), micro)},
                           {"draft_us", in_unit(engine.speculation->draft.value(), micro)},
                           {"source", engine.speculation->source}};
  }
  if (!engine.kernels_from.empty()) {
    json["kernels_from"] = engine.kernels_from;
  }
  if (!engine.costs_from.empty()) {
    json["costs_from"] = engine.costs_from;
  }
  if (engine.prefix_cache) {
    json["prefix_cache"] = {{"block_tokens", engine.prefix_cache->block_tokens},
                            {"source", engine.prefix_cache->source}};
  }
  if (engine.launch) {
    json["launch"] = {{"style", engine.launch->style}, {"source", engine.launch->source}};
  }
  json["source"] = engine.source;
}

} // namespace icx
