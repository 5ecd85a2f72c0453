// The catalog's engines as JSON, as data/catalog/engines.json writes them.
#include <utility>

#include <nlohmann/json.hpp>

#include "catalog/json_detail.hpp"
#include "icx/catalog/json.hpp"

namespace icx {

using detail::entry_head;
using detail::in_unit;

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
    out["prefill_chunk"] = tier.prefill_chunk;
  }
  json["scheduler"] = std::move(tiers);
  json["policy"] = engine.policy;
  json["costs"] = {{"step_us", in_unit(engine.costs.step.value(), micro)},
                   {"layer_us", in_unit(engine.costs.layer.value(), micro)},
                   {"request_us", in_unit(engine.costs.request.value(), micro)}};
  if (engine.costs.prompt_scale != 1) {
    json["costs"]["prompt_scale"] = json_number(engine.costs.prompt_scale);
  }
  if (engine.launch) {
    json["launch"] = {{"style", engine.launch->style}, {"source", engine.launch->source}};
  }
  json["source"] = engine.source;
}

} // namespace icx
