#include "icx/catalog/hf_config.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/parameter_count.hpp"
#include "icx/util/text_file.hpp"

namespace icx {

namespace {

using detail::ObjectReader;
using nlohmann::json;

/// An optional whole number in [min, max]; null counts as absent.
std::optional<int> optional_whole(ObjectReader& reader, std::string_view key, int min, int max) {
  if (!reader.has_value(key)) {
    return std::nullopt;
  }
  return reader.whole(key, min, max);
}

/// The routed-expert count, which model families name differently; two names must agree.
int read_experts(ObjectReader& reader) {
  constexpr std::array keys{"num_local_experts", "n_routed_experts", "num_experts"};
  std::optional<std::pair<std::string_view, int>> found;
  for (const std::string_view key : keys) {
    const std::optional<int> value = optional_whole(reader, key, 0, limits::max_experts);
    if (!value) {
      continue;
    }
    if (found && found->second != *value) {
      reader.fail(key, fmt::format("{} contradicts {} {}", *value, found->first, found->second));
    }
    found = std::pair{key, *value};
  }
  return found ? found->second : 0;
}

/// DeepSeek's group-limited routing (n_group, topk_group). One group, as Kimi-K2's config
/// gives, limits nothing: both fields stay 0.
void read_hf_expert_groups(ObjectReader& reader, Model& model) {
  if (optional_whole(reader, "n_group", 0, limits::max_experts).value_or(0) > 1) {
    detail::read_expert_groups(reader, model, "n_group", "topk_group");
  }
}

/// Llama 4's MoE layers (model_type llama4_text): every layer's routed experts and the one
/// shared expert transformers' Llama4TextMoe always adds (no config key says so), both of
/// width intermediate_size. An MoE layer every k-th layer with dense ones (width
/// intermediate_size_mlp) between, as Maverick interleaves them, is not modelled: refused.
void read_llama4_moe(ObjectReader& reader, Model& model) {
  if (!reader.has_value("interleave_moe_layer_step")) {
    return;
  }
  const int step = reader.whole("interleave_moe_layer_step", 1, model.layers);
  if (step != 1) {
    reader.fail("interleave_moe_layer_step",
                fmt::format("{}: an MoE layer every {} layers with dense layers between is not "
                            "modelled (only 1, every layer MoE, as Llama 4 Scout)",
                            step, step));
  }
  model.shared_experts = 1;
  model.shared_expert_intermediate_size = model.intermediate_size;
}

void read_moe(ObjectReader& reader, Model& model) {
  model.experts = read_experts(reader);
  if (model.experts == 0) {
    return; // a dense model: expert fields, if any, do not apply
  }
  model.experts_per_token = reader.whole("num_experts_per_tok", 1, limits::max_experts);
  if (model.experts_per_token > model.experts) {
    reader.fail("num_experts_per_tok", fmt::format("{} exceeds the {} routed experts",
                                                   model.experts_per_token, model.experts));
  }
  model.moe_intermediate_size =
      optional_whole(reader, "moe_intermediate_size", 1, limits::max_hidden).value_or(0);
  model.first_dense_layers =
      optional_whole(reader, "first_k_dense_replace", 0, model.layers).value_or(0);
  model.shared_experts =
      optional_whole(reader, "n_shared_experts", 0, limits::max_experts).value_or(0);
  model.shared_expert_intermediate_size =
      optional_whole(reader, "shared_expert_intermediate_size", 0, limits::max_hidden).value_or(0);
  read_hf_expert_groups(reader, model);
  read_llama4_moe(reader, model);
}

/// Multi-head latent attention, present when the config has a key-value rank.
void read_latent_attention(ObjectReader& reader, Model& model) {
  if (!reader.has_value("kv_lora_rank")) {
    return;
  }
  Model::LatentAttention mla;
  mla.kv_lora_rank = reader.whole("kv_lora_rank", 1, limits::max_hidden);
  mla.q_lora_rank = optional_whole(reader, "q_lora_rank", 1, limits::max_hidden).value_or(0);
  mla.qk_rope_head_dim = reader.whole("qk_rope_head_dim", 0, limits::max_hidden);
  mla.qk_nope_head_dim = reader.whole("qk_nope_head_dim", 0, limits::max_hidden);
  if (mla.qk_rope_head_dim + mla.qk_nope_head_dim == 0) {
    reader.fail("qk_nope_head_dim", "is 0 and so is qk_rope_head_dim: the query-key head "
                                    "would have no dimensions");
  }
  mla.v_head_dim = reader.whole("v_head_dim", 1, limits::max_hidden);
  model.latent_attention = mla;
}

/// DeepSeek Sparse Attention (DeepSeek-V3.2), present when the config has an indexer's top-k.
void read_sparse_attention(ObjectReader& reader, Model& model) {
  if (reader.has_value("index_topk")) {
    detail::read_sparse_attention(reader, model, "index_topk", "index_n_heads", "index_head_dim");
  }
}

void read_attention(ObjectReader& reader, Model& model) {
  model.attention_heads = reader.whole("num_attention_heads", 1, limits::max_heads);
  model.kv_heads = optional_whole(reader, "num_key_value_heads", 1, model.attention_heads)
                       .value_or(model.attention_heads);
  if (model.attention_heads % model.kv_heads != 0) {
    reader.fail("num_key_value_heads",
                fmt::format("{} does not divide num_attention_heads {}: each KV head serves a "
                            "whole group of query heads",
                            model.kv_heads, model.attention_heads));
  }
  read_latent_attention(reader, model);
  read_sparse_attention(reader, model);
  if (const std::optional<int> head_dim =
          optional_whole(reader, "head_dim", 1, limits::max_hidden)) {
    model.head_dim = *head_dim;
  } else if (model.latent_attention) {
    model.head_dim = model.latent_attention->v_head_dim;
  } else if (model.hidden % model.attention_heads != 0) {
    reader.fail("num_attention_heads",
                fmt::format("{} does not divide hidden_size {} and head_dim is not given",
                            model.attention_heads, model.hidden));
  } else {
    model.head_dim = model.hidden / model.attention_heads;
  }
}

/// Sliding-window layers named by layer_types (gpt-oss): each "sliding_attention" layer sees the
/// last sliding_window tokens. A config without layer_types has none (a window on every layer,
/// as Mistral 7B's, is not read).
void read_sliding_window(ObjectReader& reader, Model& model) {
  if (!reader.has_value("layer_types")) {
    return;
  }
  const std::vector<std::string> types = reader.text_list("layer_types");
  if (std::cmp_not_equal(types.size(), model.layers)) {
    reader.fail("layer_types", fmt::format("{} entries for {} layers (num_hidden_layers)",
                                           types.size(), model.layers));
  }
  int sliding = 0;
  for (const std::string& type : types) {
    if (type != "full_attention" && type != "sliding_attention") {
      reader.fail("layer_types", fmt::format("'{}' is not one of: full_attention, "
                                             "sliding_attention",
                                             type));
    }
    sliding += type == "sliding_attention" ? 1 : 0;
  }
  if (sliding > 0) {
    model.sliding_layers = sliding;
    model.sliding_window = reader.whole("sliding_window", 1, limits::max_tokens);
  }
}

/// The id of a torch dtype name in the shipped dtype catalog.
std::string read_torch_dtype(ObjectReader& reader, std::string_view key) {
  constexpr std::array<EnumName<std::string_view>, 4> torch_dtypes{
      {{"bf16", "bfloat16"}, {"fp16", "float16"}, {"fp32", "float32"}, {"fp8", "float8_e4m3fn"}}};
  return std::string(reader.choice(key, torch_dtypes));
}

/// An MXFP4 checkpoint (gpt-oss): the routed experts in MXFP4, and what
/// modules_to_not_convert lists (attention, router, embeddings, LM head) left in `dense` — the
/// config's torch_dtype, else BF16, as gpt-oss's checkpoints store them.
void read_mxfp4(ObjectReader& quantization, const std::string& dense, Model& model) {
  if (!model.is_moe()) {
    quantization.fail("quant_method", "'mxfp4' on a model without routed experts is not "
                                      "supported: icx prices MXFP4 for experts only");
  }
  bool attention_kept = false;
  for (const std::string& name : quantization.text_list("modules_to_not_convert")) {
    if (name.find("experts") != std::string::npos) {
      quantization.fail("modules_to_not_convert",
                        fmt::format("'{}' leaves the experts unconverted, so nothing is MXFP4; "
                                    "give --dtype ID instead",
                                    name));
    }
    attention_kept = attention_kept || name.find("self_attn") != std::string::npos;
  }
  if (!attention_kept) {
    quantization.fail("modules_to_not_convert",
                      "names no self_attn module: icx prices MXFP4 for the experts only, with "
                      "attention in the config's dtype");
  }
  model.default_dtype = dense.empty() ? "bf16" : dense;
  model.expert_dtype = "mxfp4";
}

/// The weights' element types: quantization_config's method, else dtype (or the older
/// torch_dtype); default_dtype empty when the config names none.
void read_dtype(ObjectReader& reader, const json::json_pointer& pointer, const std::string& origin,
                Model& model) {
  std::string dtype;
  for (const std::string_view key : {"torch_dtype", "dtype"}) {
    if (!reader.has_value(key)) {
      continue;
    }
    const std::string value = read_torch_dtype(reader, key);
    if (!dtype.empty() && value != dtype) {
      reader.fail(key, fmt::format("'{}' contradicts torch_dtype '{}'", value, dtype));
    }
    dtype = value;
  }
  model.default_dtype = dtype;
  if (reader.has_value("quantization_config")) {
    ObjectReader quantization(reader.object("quantization_config"), pointer / "quantization_config",
                              origin);
    const std::string method = quantization.text("quant_method");
    if (method == "mxfp4") {
      read_mxfp4(quantization, dtype, model);
    } else if (method == "fp8") {
      model.default_dtype = "fp8";
    } else {
      quantization.fail("quant_method", fmt::format("'{}' is not supported (only \"fp8\" and "
                                                    "\"mxfp4\"): the weights' element size is "
                                                    "unknown",
                                                    method));
    }
  }
}

} // namespace

namespace {

/// The language model's sizes from `reader`: the config itself, or a multimodal config's
/// /text_config (Llama 4).
void read_language_model(ObjectReader& reader, Model& model) {
  model.hidden = reader.whole("hidden_size", 1, limits::max_hidden);
  model.layers = reader.whole("num_hidden_layers", 1, limits::max_layers);
  model.intermediate_size = reader.whole("intermediate_size", 1, limits::max_hidden);
  model.vocab_size = reader.whole("vocab_size", 1, limits::max_vocab);
  if (reader.has_value("max_position_embeddings")) {
    model.max_context =
        reader.whole("max_position_embeddings", 1, static_cast<int>(limits::max_tokens));
  }
  model.tie_word_embeddings = reader.flag_or("tie_word_embeddings", false);
  read_attention(reader, model);
  read_sliding_window(reader, model);
  read_moe(reader, model);
}

} // namespace

Model read_hf_config(std::string_view text, const std::string& origin) {
  const json document = detail::parse_document(text, origin);
  const json::json_pointer root;
  ObjectReader reader(document, root, origin);
  Model model;
  model.id = origin;
  model.name = "Hugging Face config " + origin;
  model.source = "Hugging Face config.json; parameters counted from its architecture";
  model.origin = origin;
  // A multimodal config keeps its language model under /text_config; its vision encoder is
  // not counted (it runs once per image, not per token).
  if (!reader.has("hidden_size") && reader.has("text_config")) {
    const json::json_pointer text_at = root / "text_config";
    ObjectReader language(reader.object("text_config"), text_at, origin);
    read_language_model(language, model);
    read_dtype(language, text_at, origin, model);
  } else {
    read_language_model(reader, model);
  }
  if (model.default_dtype.empty()) {
    read_dtype(reader, root, origin, model);
  }

  const ParameterCount count = count_parameters(model);
  if (count.total > limits::max_params) {
    reader.fail("", fmt::format("the architecture has {:.3g} parameters, more than the {:g} icx "
                                "accepts",
                                count.total, limits::max_params));
  }
  model.total_params = count.total;
  model.active_params = count.active;
  return model;
}

Model read_hf_config_file(const std::filesystem::path& path) {
  return read_hf_config(
      read_text_file(path, {"a Hugging Face config.json file", limits::max_hf_config_file_bytes}),
      path.string());
}

} // namespace icx
