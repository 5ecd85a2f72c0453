// How the serving engine reads in the assumption lines: its name and version, and a scheduler
// default of every GPU class at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "icx/catalog/catalog.hpp"
#include "icx/memory/budget.hpp"
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

/// What a prefill pass costs beyond its priced kernels, for the engines table: "1.37 ×
/// kernels", "+ 40 ms", both, or "-".
std::string prefill_pass_text(const EngineCosts& costs);

/// What the engine adds to a stage, for a formula: " + 1.52 ms of gaps between layers"; empty
/// when nothing.
std::string layer_gaps_term(const StepTime& step);

/// What the engine adds to a latency, for a formula: " + 741 µs engine step + 5.76 ms per
/// request"; empty when nothing.
std::string engine_terms(const StepTime& step);

/// Where the HBM fraction a step reaches comes from: " (mi300x's 'stock' tuning)", " (catalog
/// gpu 'h100-sxm')", ": no measurement in the catalog", or " (as given)".
std::string hbm_fraction_origin(const Workload& w, const Gpu& gpu);

/// The same for a fraction `given` (--hbm-fraction) or else taken from `tuning` (null: none).
std::string hbm_fraction_origin(bool given, const GpuTuning* tuning, const Gpu& gpu);

/// The GPU's setup `tuning` the figures assume, as an assumption line: "tuning: mi300x's
/// 'stock', the image's defaults: …"; when `asked` (--tuning) names one the GPU lacks (a null
/// `tuning`), that its own figures price it; none when it lacks one and none was asked.
std::optional<std::string> tuning_text(const Gpu& gpu, const GpuTuning* tuning,
                                       std::string_view asked);

/// How a scheduler takes KV cache, for a sentence: "with the newest request preempted and
/// recomputed when it fills", or that each request reserves its whole length when admitted.
std::string kv_admission_text(KvAdmission admission);

/// The engine's memory rule in a few words: "gpu_memory_utilization 0.9 of the memory",
/// "mem_fraction_static from what it keeps back", "free_gpu_memory_fraction 0.9 of the free
/// memory", or the flat reserve when the catalog gives none.
std::string engine_memory_text(const Engine& engine);

/// How the memory the weights and the KV cache may fill follows from the GPU's:
/// "gpu_memory_utilization 0.9 × 85.5 GB − 2.4 GB of activations (a profiling forward over
/// 8192 tokens) − 1.92 GB of runtime", or "85.5 GB less a 20 % reserve (--reserve)".
std::string memory_budget_text(const MemoryBudget& budget);

} // namespace icx
