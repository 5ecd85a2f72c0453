// How verdicts read: the one place that turns a Verdict into a sentence quoting its numbers,
// and into its JSON object.
#pragma once

#include <string>
#include <string_view>

#include "icx/base/json_values.hpp"
#include "icx/serving/compute.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/wire/verdict.hpp"

namespace icx {

/// The collective a strategy's traffic is made of ("all-reduce", "all-to-all", …).
std::string_view traffic_kind(Strategy strategy);

/// e.g. "5.47 ms of all-reduce (expected model) in a decode step of 12.2 ms (45 %): the wire
/// eats a large part of the step"; a broken placement rule is named first.
std::string verdict_reason(Strategy strategy, const Link* wire, const Verdict& verdict,
                           std::string_view phase = "prefill");

/// {level, reason, comm_seconds, comm_model, step_seconds, share, breaks_placement_rule}.
Json verdict_json(Strategy strategy, const Link* wire, const Verdict& verdict,
                  std::string_view phase = "prefill");

/// The thresholds every verdict is judged by: "a split is ok while …".
std::string verdict_thresholds();

/// "h100-sxm × 8 at 989 TFLOP/s (bf16) × 0.5 utilisation".
std::string describe_rate(const ComputeRate& rate, int gpus);

/// How a workload's operations are priced on `gpus` GPUs: by the GPU's measured GEMM and
/// attention curves where the catalog has them and --mfu does not override, the rest (or all)
/// at describe_rate's utilisation of peak.
std::string describe_pricing(const Workload& workload, int gpus);

} // namespace icx
