// icx plan: from latency targets and a load to the cheapest hardware and layout, and why the
// systems that cannot serve the load fail (the types are icx/serving/plan.hpp).
#pragma once

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/plan.hpp"

namespace icx {

/// Plans `request`. Throws InputError for a request no system can be planned for (no model
/// parameters, a zero rate).
PlanReport plan(const Catalog& catalog, const PlanRequest& request);

/// The "icx.plan/1" document: targets, load, candidates[] cheapest first, winner (or null).
void to_json(Json& json, const PlanReport& report);

} // namespace icx
