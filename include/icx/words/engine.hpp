// How the serving engine reads in the assumption lines: its name and version, and a scheduler
// default of every GPU class at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"

namespace icx {

/// e.g. "vLLM (V1 engine, OpenAI-compatible server) 0.9".
std::string engine_text(const Engine& engine);

/// One of `engine`'s scheduler defaults across its tiers, the largest floor first, `unit` after
/// the first number: "1024 sequences on GPUs of at least 70 GiB except a100, 256 on the
/// others"; one number when every tier has the same.
std::string scheduler_default_text(const Engine& engine, std::int64_t SchedulerTier::*field,
                                   std::string_view unit = "");

/// A scheduler setting as a sentence gives it: "`given` `unit`" when the user set it, else
/// scheduler_default_text's tiers.
std::string scheduler_setting_text(const Engine& engine, std::int64_t SchedulerTier::*field,
                                   std::optional<std::int64_t> given, std::string_view unit);

/// The engine's defaults on one GPU: "vLLM … 0.9, whose defaults on h100-sxm are 1024
/// sequences per scheduler and prefill chunks of 8192 tokens".
std::string engine_defaults_text(const Engine& engine, const Gpu& gpu);

/// The engine's costs as an assumption reads them: "741 µs per step + 19 µs per layer, 5.76 ms
/// per request, fitted on published serving runs".
std::string engine_costs_text(const Engine& engine);

/// What the engine adds to a stage, for a formula: " + 1.52 ms of gaps between layers"; empty
/// when nothing.
std::string layer_gaps_term(const StepTime& step);

/// What the engine adds to a latency, for a formula: " + 741 µs engine step + 5.76 ms per
/// request"; empty when nothing.
std::string engine_terms(const StepTime& step);

} // namespace icx
