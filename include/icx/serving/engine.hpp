// The serving engine a request runs on (the catalog's "engines"): its scheduler's defaults on
// a GPU and the all-reduce implementation its tensor-parallel layers call.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx {

/// The engine a request runs on when none is named: the one the published serving
/// measurements most often ran.
constexpr std::string_view default_engine = "vllm";

/// `engine`, or the catalog's default_engine when it is absent.
const Engine& engine_of(const Catalog& catalog, const Engine* engine);

/// The tier of `engine`'s scheduler that applies to `gpu`: of those whose memory floor the
/// GPU reaches and whose exceptions its id does not contain, the one with the highest floor.
const SchedulerTier& scheduler_tier(const Engine& engine, const Gpu& gpu);

/// The prompt tokens one step of `engine` prefills on `gpu` when no flag sets them: its tier's
/// chunk, or for a tier that prefills whole prompts the model's longest context. Throws
/// InputError naming --catalog and --hf-config when that tier meets a model whose longest
/// context the catalog does not give.
std::int64_t default_prefill_chunk(const Engine& engine, const Gpu& gpu, const Model& model);

/// The prompt tokens one step prefills: `given` (--prefill-chunk), else default_prefill_chunk,
/// asked only then.
std::int64_t prefill_chunk_or_default(std::optional<std::int64_t> given, const Engine& engine,
                                      const Gpu& gpu, const Model& model);

/// Throws InputError naming the flag when `engine` keeps no prefix cache (its catalog entry
/// has none: vLLM's V0 engine, NIM's TensorRT engines by default) and the load still asks for
/// cached prompts: a share of each prompt (--prefix-hit) or the client's warm-up
/// (--warm-prompts).
void check_prefix_cache(const Engine& engine, double prefix_hit, std::int64_t warm_prompts);

/// The setup `id` names among `gpu`'s tunings, its default one when `id` is empty, null when
/// the GPU has none. Throws InputError naming --tuning and the GPU's tunings when it has
/// tunings and none is `id`.
const GpuTuning* gpu_tuning(const Gpu& gpu, std::string_view id);

/// `setup` as `gpu` runs its all-reduces under the tuning `id` names (gpu_tuning): with that
/// tuning's time per ring step, none where the GPU has no tunings.
RunSetup tuned_setup(const Gpu& gpu, RunSetup setup, std::string_view id);

/// Tokens per block of `engine`'s prefix cache; 1 for an engine that keeps none, where
/// check_prefix_cache lets no prompt be cached.
std::int64_t prefix_block(const Engine& engine);

/// The --impl `engine` runs all-reduces with. Throws InputError naming the catalog file and
/// the names that would be valid when its "impl" is not one (the catalog reader does not know
/// the wire's names).
Implementation engine_implementation(const Engine& engine);

} // namespace icx
