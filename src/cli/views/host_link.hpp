// How the coldstart and offload reports are put into words: a load stage's row, the HBM's
// terms, and what --explain prints (each figure with its terms substituted in its formula).
#pragma once

#include <string>

#include "icx/reports/coldstart.hpp"
#include "icx/reports/offload.hpp"
#include "options/common.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// "storage → host" or "host → GPU".
std::string stage_name(LoadStageId id);

/// What a stage moves: "8.82 GB per GPU (its shard)", "70.6 GB (the node's 8 shards)".
std::string stage_moves(const ColdStartReport& report, const LoadStage& stage);

/// A stage's headline bandwidth and whose it is: "64 GB/s one way", "7 GB/s per node".
std::string stage_bandwidth(const LoadStage& stage);

/// The measured (host link) or catalog (storage) bandwidth, or "not measured".
std::string expected_bandwidth(const LoadStage& stage);

/// "2 GPUs × 80 GB × (1 − 0.2 reserved)"; the reserve is left out when 0.
std::string hbm_from(const OffloadReport& report);

/// weights, per GPU, each stage's floor (and expected floor), the floor.
Derivations coldstart_derivations(const ResolvedModel& model, const ColdStartReport& report);

/// weights, KV cache, KV held, needed, HBM, spilled, the step in HBM and over each link.
Derivations offload_derivations(const ResolvedModel& model, const OffloadReport& report);

/// The KV cache's terms: "<per token> × 2 B × 8 × 8192"; `batch` and `context` follow the
/// two counts (e.g. " sequences"). The report must have a KV load.
std::string kv_cache_terms(const OffloadReport& report, const char* batch, const char* context);

} // namespace icx::cli
