// How icx coldstart's report is printed: the table (path, stages, floor, each loader's
// expected load, budget, sources) and the JSON document.
#pragma once

#include "icx/reports/coldstart.hpp"
#include "options/common.hpp"
#include "output/json.hpp"
#include "output/output.hpp"

namespace icx::cli {

void print_coldstart(const Style& style, const ResolvedModel& model, const ColdStartReport& report);

Json coldstart_document(const ResolvedModel& model, const ColdStartReport& report);

} // namespace icx::cli
