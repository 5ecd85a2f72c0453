// Catalog entries as JSON, in exactly the shape of the catalog files (data/catalog/*.json):
// what is written reads back through Catalog::overlay_text as the same entry, so a listing
// printed as JSON is a catalog overlay a user can edit and feed back with --catalog.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// The "schema" a catalog document may carry (a listing printed as JSON does).
inline constexpr std::string_view catalog_schema = "icx.catalog/1";

void to_json(nlohmann::ordered_json& json, const InNetworkReduction& reduction);
void to_json(nlohmann::ordered_json& json, const EngineKernelParameters& kernel);
void to_json(nlohmann::ordered_json& json, const EngineAllReduce& engine);
void to_json(nlohmann::ordered_json& json, const EpKernelParameters& kernel);
void to_json(nlohmann::ordered_json& json, const ExpertParallelKernels& kernels);
void to_json(nlohmann::ordered_json& json, const LinkTopology& topology);
void to_json(nlohmann::ordered_json& json, const ExpectedModel& model);
void to_json(nlohmann::ordered_json& json, const Link& link);
void to_json(nlohmann::ordered_json& json, const Gpu& gpu);
/// The fields a catalog model has; what only a Hugging Face config gives (tied embeddings,
/// shared experts, …) is not written.
void to_json(nlohmann::ordered_json& json, const Model& model);
void to_json(nlohmann::ordered_json& json, const Dtype& dtype);
void to_json(nlohmann::ordered_json& json, const System& system);
void to_json(nlohmann::ordered_json& json, const StorageTier& tier);
void to_json(nlohmann::ordered_json& json, const HostSide& host);
void to_json(nlohmann::ordered_json& json, const Loader& loader);
void to_json(nlohmann::ordered_json& json, const Engine& engine);

/// One optional kernel of a set (EngineAllReduce, ExpertParallelKernels): its key in a catalog
/// file and the member that holds it.
template <class Kernels, class Kernel> struct KernelSlot {
  std::string_view key;
  std::optional<Kernel> Kernels::*member;
};

/// The kernels an expected model's "engine_all_reduce" object may give.
inline constexpr std::array<KernelSlot<EngineAllReduce, EngineKernelParameters>, 3>
    engine_all_reduce_kernels{{{"one_shot", &EngineAllReduce::one_shot},
                               {"two_shot", &EngineAllReduce::two_shot},
                               {"multimem", &EngineAllReduce::multimem}}};

/// The kernels an expected model's "expert_parallel" object may give.
inline constexpr std::array<KernelSlot<ExpertParallelKernels, EpKernelParameters>, 4>
    expert_parallel_kernels{{{"normal_dispatch", &ExpertParallelKernels::normal_dispatch},
                             {"normal_combine", &ExpertParallelKernels::normal_combine},
                             {"low_latency_dispatch", &ExpertParallelKernels::low_latency_dispatch},
                             {"low_latency_combine", &ExpertParallelKernels::low_latency_combine}}};

/// The catalog section that holds entries of type T ("links", "gpus", …).
template <class T> inline constexpr std::string_view catalog_section = "";
template <> inline constexpr std::string_view catalog_section<Link> = "links";
template <> inline constexpr std::string_view catalog_section<Gpu> = "gpus";
template <> inline constexpr std::string_view catalog_section<Model> = "models";
template <> inline constexpr std::string_view catalog_section<Dtype> = "dtypes";
template <> inline constexpr std::string_view catalog_section<System> = "systems";
template <> inline constexpr std::string_view catalog_section<StorageTier> = "storage";
template <> inline constexpr std::string_view catalog_section<Loader> = "loaders";
template <> inline constexpr std::string_view catalog_section<Engine> = "engines";

} // namespace icx
