// How verdicts read: the one place that turns a Verdict into a sentence quoting its numbers.
#pragma once

#include <string>

#include "icx/compute.hpp"
#include "icx/verdict.hpp"
#include "json_output.hpp"

namespace icx::cli {

/// The collective a strategy's traffic is made of ("all-reduce", "all-to-all", …).
std::string_view traffic_kind(Strategy strategy);

/// e.g. "336 ms of all-reduce vs 146 ms of compute per prefill (2.3×): the wire eats the win";
/// a broken placement rule is named first.
std::string verdict_reason(Strategy strategy, const Link* wire, const Verdict& verdict,
                           std::string_view phase = "prefill");

/// {level, reason, comm_seconds, comm_model, compute_seconds, ratio, breaks_placement_rule}.
Json verdict_json(Strategy strategy, const Link* wire, const Verdict& verdict,
                  std::string_view phase = "prefill");

/// "h100-sxm × 8 at 989 TFLOP/s (bf16) × 0.5 utilisation".
std::string describe_rate(const ComputeRate& rate, int gpus);

} // namespace icx::cli
