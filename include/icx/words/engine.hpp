// How the serving engine reads in the assumption lines: its name and version, and a scheduler
// default of every GPU class at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "icx/catalog/catalog.hpp"

namespace icx {

/// e.g. "vLLM (V1 engine, OpenAI-compatible server) 0.9 and later".
std::string engine_text(const Engine& engine);

/// One of `engine`'s scheduler defaults across its tiers, the largest floor first, `unit` after
/// the first number: "1024 sequences on GPUs of at least 70 GiB except a100, 256 on the
/// others"; one number when every tier has the same.
std::string scheduler_default_text(const Engine& engine, std::int64_t SchedulerTier::*field,
                                   std::string_view unit = "");

/// The engine's defaults on one GPU: "vLLM … 0.9 and later, whose defaults on h100-sxm are 1024
/// sequences per scheduler and prefill chunks of 8192 tokens".
std::string engine_defaults_text(const Engine& engine, const Gpu& gpu);

} // namespace icx
