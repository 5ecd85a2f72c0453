// How verdicts read: the one place that turns a Verdict into a sentence quoting its numbers,
// and into its JSON object.
#pragma once

#include <string>
#include <string_view>

#include "icx/compute.hpp"
#include "icx/json_values.hpp"
#include "icx/verdict.hpp"

namespace icx {

/// The collective a strategy's traffic is made of ("all-reduce", "all-to-all", …).
std::string_view traffic_kind(Strategy strategy);

/// e.g. "336 ms of all-reduce vs 146 ms of compute per prefill (2.3×): the wire eats the win";
/// a broken placement rule is named first.
std::string verdict_reason(Strategy strategy, const Link* wire, const Verdict& verdict,
                           std::string_view phase = "prefill");

/// {level, reason, comm_seconds, comm_model, compute_seconds, ratio, breaks_placement_rule}.
Json verdict_json(Strategy strategy, const Link* wire, const Verdict& verdict,
                  std::string_view phase = "prefill");

/// The thresholds every verdict is judged by: "ok ≤ 0.25× compute (hidden by overlap), …".
std::string verdict_thresholds();

/// "h100-sxm × 8 at 989 TFLOP/s (bf16) × 0.5 utilisation".
std::string describe_rate(const ComputeRate& rate, int gpus);

} // namespace icx
