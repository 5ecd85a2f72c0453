// The model and its compute as flags give them: --model, --hf-config or --hidden/--layers with
// overrides, and --gpu/--mfu into a compute rate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/compute.hpp"

namespace icx::cli {

struct ModelOptions {
  std::string model;
  /// A Hugging Face config.json describing the model instead of a catalog id.
  std::string hf_config;
  std::optional<int> hidden;
  std::optional<int> layers;
  std::optional<double> params;
  std::string dtype;
};

void add_model_options(CLI::App& app, ModelOptions& options);

/// A model as the user described it: a catalog model or a Hugging Face config, maybe with
/// fields overridden, or a custom one from --hidden and --layers.
struct ResolvedModel {
  Model model;
  /// The weights' dtype; the routed experts' is expert_dtype (the same unless the model or
  /// --dtype experts=ID stores them apart).
  Dtype dtype;
  Dtype expert_dtype;
  /// Flags that replaced a catalog model's field, e.g. "--hidden".
  std::vector<std::string> overridden;
  [[nodiscard]] bool custom() const { return model.id == "custom"; }
};

ResolvedModel resolve_model(const Catalog& catalog, const ModelOptions& options);

/// " [overridden: --dtype, --hidden]" after a model's description, or nothing.
std::string overridden_suffix(const ResolvedModel& model);

/// Adds --mfu FRACTION: the achievable fraction of dense peak, for commands that compute.
CLI::Option* add_mfu_option(CLI::App& app, std::optional<double>& mfu);

/// Adds --gpu ID, --mfu FRACTION.
struct ComputeOptions {
  std::string gpu;
  std::optional<double> mfu;
};
void add_compute_options(CLI::App& app, ComputeOptions& options);

/// The compute rate for `gpu` and `dtype`, at --mfu or the GPU's catalog utilisation.
ComputeRate resolve_rate(const Catalog& catalog, const Gpu& gpu, const Dtype& dtype,
                         const ComputeOptions& options);

} // namespace icx::cli
