// The table of icx plan: the candidates cheapest first, the winner, why the others miss, and
// what was assumed.
#pragma once

#include "icx/reports/plan.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// The whole report; with `emit`, the winner's launch command (or why there is none).
void print_plan(const Style& style, const PlanReport& report, bool emit);

} // namespace icx::cli
