// The table of icx plan: the candidates cheapest first, the winner, why the others miss, and
// what was assumed.
#pragma once

#include "icx/reports/plan.hpp"
#include "output/output.hpp"

namespace icx::cli {

void print_plan(const Style& style, const PlanReport& report);

} // namespace icx::cli
