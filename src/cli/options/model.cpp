#include "options/model.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/hf_config.hpp"
#include "options/common.hpp"
#include "options/files.hpp"

namespace icx::cli {

void add_model_options(CLI::App& app, ModelOptions& options) {
  const std::size_t first = app.get_options().size();
  CLI::Option* model =
      app.add_option("-m,--model", options.model, "Catalog model id or alias (see 'icx models')")
          ->type_name("ID");
  app.add_option("--hf-config", options.hf_config,
                 "Hugging Face config.json describing the model (instead of --model); "
                 "parameters are counted from its architecture")
      ->type_name("PATH")
      ->check(input_file("--hf-config"))
      ->excludes(model);
  app.add_option("--hidden", options.hidden,
                 "Hidden size; with --layers describes a custom model, with --model overrides it")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_hidden));
  app.add_option("--layers", options.layers, "Transformer layers (custom model or override)")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_layers));
  app.add_option("--params", options.params,
                 "Parameter count (e.g. 70.6e9); needed for compute time with a custom model, "
                 "overrides a catalog model's")
      ->type_name("N")
      ->transform(decimal_number(limits::params));
  app.add_option("--dtype", options.dtype,
                 "Element type of the weights (see 'icx dtypes'), or of each part: "
                 "experts=ID,dense=ID (the routed experts; everything else), e.g. "
                 "experts=nvfp4,dense=fp8; default: the model's, bf16 for a custom model")
      ->type_name("ID|PART=ID,…");
  group_options_from(app, first, "Model");
}

namespace {

Model read_hf_config_flag(const ModelOptions& options) {
  try {
    Model model = read_hf_config_file(options.hf_config);
    if (model.default_dtype.empty() && options.dtype.empty()) {
      throw UsageError(fmt::format("--hf-config {}: the config names no dtype (torch_dtype or "
                                   "dtype); give --dtype ID, e.g. --dtype bf16",
                                   options.hf_config));
    }
    return model;
  } catch (const InputError& error) {
    throw InputError(std::string("--hf-config ") + error.what());
  }
}

/// The dtype ids of --dtype's parts: one id for every weight, or experts=ID and dense=ID
/// (either may be left out: the model's own).
struct DtypeParts {
  std::string dense;
  std::string experts;
};

DtypeParts dtype_parts(const std::string& flag, const Model& model) {
  DtypeParts parts{model.default_dtype,
                   model.expert_dtype.empty() ? model.default_dtype : model.expert_dtype};
  if (flag.empty()) {
    return parts;
  }
  if (flag.find('=') == std::string::npos) {
    return {flag, flag};
  }
  const std::string valid = "give experts=ID for the routed experts and dense=ID for the rest "
                            "(attention, embeddings, dense and shared-expert MLPs), e.g. --dtype "
                            "experts=nvfp4,dense=fp8";
  std::vector<std::string> seen;
  for (std::size_t start = 0; start <= flag.size();) {
    const std::size_t comma = std::min(flag.find(',', start), flag.size());
    const std::string part = flag.substr(start, comma - start);
    start = comma + 1;
    const std::size_t equals = part.find('=');
    const std::string name = part.substr(0, equals);
    if (equals == std::string::npos || (name != "experts" && name != "dense")) {
      throw UsageError(
          fmt::format("--dtype {}: '{}' names no part icx prices apart; {}", flag, part, valid));
    }
    if (std::ranges::find(seen, name) != seen.end()) {
      throw UsageError(fmt::format("--dtype {}: {} given twice; {}", flag, name, valid));
    }
    seen.push_back(name);
    (name == "experts" ? parts.experts : parts.dense) = part.substr(equals + 1);
  }
  if (std::ranges::find(seen, "experts") != seen.end() && !model.is_moe()) {
    throw UsageError(fmt::format(
        "--dtype {}: {} has no routed experts; give one dtype, e.g. "
        "--dtype fp8",
        flag, model.id == "custom" ? "the custom model" : fmt::format("model '{}'", model.id)));
  }
  return parts;
}

} // namespace

ResolvedModel resolve_model(const Catalog& catalog, const ModelOptions& options) {
  ResolvedModel resolved;
  if (!options.hf_config.empty()) {
    resolved.model = read_hf_config_flag(options);
  } else if (!options.model.empty()) {
    resolved.model = for_flag("--model", [&] { return catalog.model(options.model); });
  } else if (options.hidden && options.layers) {
    resolved.model.id = "custom";
    resolved.model.name = "custom model";
    resolved.model.default_dtype = "bf16";
  } else {
    throw UsageError("no model given: use --model ID (e.g. --model 70b; see 'icx models'), "
                     "--hf-config PATH, or --hidden N --layers N for a custom model");
  }
  if (options.hidden) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--hidden");
    }
    resolved.model.hidden = *options.hidden;
  }
  if (options.layers) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--layers");
    }
    resolved.model.layers = *options.layers;
  }
  if (options.params) {
    if (!resolved.custom()) {
      resolved.overridden.emplace_back("--params");
    }
    resolved.model.set_total_params(*options.params);
  }
  const DtypeParts parts = dtype_parts(options.dtype, resolved.model);
  const std::string& dtype = parts.dense;
  resolved.dtype = for_flag("--dtype", [&] { return catalog.dtype(parts.dense); });
  resolved.expert_dtype = for_flag("--dtype", [&] { return catalog.dtype(parts.experts); });
  resolved.model.expert_dtype =
      resolved.expert_dtype.id == resolved.dtype.id ? std::string() : resolved.expert_dtype.id;
  if (!options.dtype.empty() && !resolved.custom()) {
    resolved.overridden.emplace_back("--dtype");
  }
  if (!options.hf_config.empty()) {
    // The checkpoint beside the config, in the dtype the config stores (else the one given).
    const std::filesystem::path directory = std::filesystem::path(options.hf_config).parent_path();
    resolved.model.checkpoints = {
        {resolved.model.default_dtype.empty() ? dtype : resolved.model.default_dtype,
         directory.empty() ? std::string(".") : directory.string()}};
    resolved.model.checkpoints_source = "--hf-config " + options.hf_config;
  }
  return resolved;
}

void add_compute_options(CLI::App& app, ComputeOptions& options) {
  const std::size_t first = app.get_options().size();
  app.add_option("--gpu", options.gpu,
                 "GPU that computes (see 'icx gpus'); default: the catalog GPU whose scale-up "
                 "link is the wire, else the reference GPU")
      ->type_name("ID");
  add_mfu_option(app, options.mfu);
  group_options_from(app, first, "Compute");
}

CLI::Option* add_mfu_option(CLI::App& app, std::optional<double>& mfu) {
  return app
      .add_option("--mfu", mfu,
                  "Achievable fraction of dense peak for every GEMM and attention, instead of "
                  "the GPU's measured GEMM curves; default: the curves where the catalog has "
                  "them, else the GPU's catalog figure")
      ->type_name("FRACTION")
      ->transform(decimal_number(limits::utilisation));
}

ComputeRate resolve_rate(const Catalog& catalog, const Gpu& gpu, const Dtype& dtype,
                         const ComputeOptions& options) {
  return compute_rate(gpu, dtype, catalog.dtypes(), options.mfu.value_or(gpu.achievable_mfu));
}

std::string overridden_suffix(const ResolvedModel& model) {
  return model.overridden.empty()
             ? std::string()
             : fmt::format(" [overridden: {}]", fmt::join(model.overridden, ", "));
}

} // namespace icx::cli
