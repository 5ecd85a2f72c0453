// What --explain prints for icx coldstart and icx offload: each figure of their reports
// with the terms it was computed from substituted into its formula.
#pragma once

#include <string>

#include "common.hpp"
#include "icx/coldstart_report.hpp"
#include "icx/offload_report.hpp"
#include "output.hpp"

namespace icx::cli {

/// weights, per GPU, each stage's floor (and expected floor), the floor.
Derivations coldstart_derivations(const ResolvedModel& model, const ColdStartReport& report);

/// weights, KV cache, KV held, needed, HBM, spilled, the step in HBM and over each link.
Derivations offload_derivations(const ResolvedModel& model, const OffloadReport& report);

/// The KV cache's terms: "<per token> × 2 B × 8 × 8192"; `batch` and `context` follow the
/// two counts (e.g. " sequences"). The report must have a KV load.
std::string kv_cache_terms(const OffloadReport& report, const char* batch, const char* context);

} // namespace icx::cli
