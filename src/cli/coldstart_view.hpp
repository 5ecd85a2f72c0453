// How icx coldstart's report is printed: the table (path, stages, floor, each loader's
// expected load, budget, sources) and the JSON document.
#pragma once

#include "common.hpp"
#include "icx/coldstart_report.hpp"
#include "json_output.hpp"

namespace icx::cli {

void print_coldstart(const ResolvedModel& model, const ColdStartReport& report);

Json coldstart_document(const ResolvedModel& model, const ColdStartReport& report);

} // namespace icx::cli
