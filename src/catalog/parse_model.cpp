// Reading a catalog model: its sizes, attention (grouped-query, latent, sliding-window), its
// experts and their dtype, and its published checkpoints.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/limits.hpp"

namespace icx::detail {

namespace {

using limits::max_experts;
using limits::max_heads;
using limits::max_hidden;
using limits::max_layers;
using limits::max_vocab;

/// The catalog's group-limited routing: both keys or neither.
void read_catalog_expert_groups(ObjectReader& reader, Model& model) {
  const bool groups = reader.has("expert_groups");
  if (groups != reader.has("expert_groups_per_token")) {
    reader.fail(groups ? "expert_groups" : "expert_groups_per_token",
                "given without the other: group-limited routing needs expert_groups and "
                "expert_groups_per_token");
  }
  if (groups) {
    read_expert_groups(reader, model, "expert_groups", "expert_groups_per_token");
  }
}

/// "checkpoints": a published checkpoint per weights dtype, with "checkpoints_source" (both or
/// neither); the dtype ids are checked against the catalog's once every file is read.
void read_checkpoints(ObjectReader& reader, Model& model, const std::string& origin) {
  if (reader.has("checkpoints") != reader.has("checkpoints_source")) {
    reader.fail(reader.has("checkpoints") ? "checkpoints" : "checkpoints_source",
                "given without the other: checkpoints need checkpoints_source (where the ids "
                "are published)");
  }
  if (!reader.has("checkpoints")) {
    return;
  }
  ObjectReader ids(reader.object("checkpoints"), reader.pointer_to("checkpoints"), origin);
  for (const auto& [dtype, id] : reader.object("checkpoints").items()) {
    model.checkpoints[dtype] = ids.text(dtype);
    check_printable(ids, dtype, model.checkpoints[dtype]);
  }
  ids.finish();
  model.checkpoints_source = reader.text("checkpoints_source");
}

/// The routed experts, their shape and dtype: required with experts above 0, refused without.
void read_catalog_experts(ObjectReader& reader, Model& model) {
  model.experts = reader.whole_or("experts", 0, max_experts, 0);
  if (model.experts > 0) {
    model.experts_per_token = reader.whole("experts_per_token", 1, model.experts);
    model.first_dense_layers = reader.whole_or("first_dense_layers", 0, model.layers - 1, 0);
    model.moe_intermediate_size = reader.whole_or("moe_intermediate_size", 1, max_hidden, 0);
    model.shared_experts = reader.whole_or("shared_experts", 0, max_experts, 0);
    read_catalog_expert_groups(reader, model);
    if (reader.has("expert_dtype")) {
      model.expert_dtype = reader.text("expert_dtype");
    }
  } else {
    for (const std::string_view key :
         {"experts_per_token", "expert_groups", "expert_groups_per_token", "moe_intermediate_size",
          "shared_experts", "expert_dtype"}) {
      if (reader.has(key)) {
        reader.fail(key, "given for a dense model (experts is 0 or absent)");
      }
    }
  }
}

} // namespace

Model read_model(ObjectReader& reader, const std::string& origin) {
  Model model;
  read_entry(reader, model, origin);
  model.hidden = reader.whole("hidden", 1, max_hidden);
  model.layers = reader.whole("layers", 1, max_layers);
  model.total_params = reader.positive("total_params", limits::params);
  model.active_params = reader.has("active_params")
                            ? reader.positive("active_params", limits::params)
                            : model.total_params;
  if (model.active_params > model.total_params) {
    reader.fail("active_params",
                fmt::format("{} exceeds total_params {}", model.active_params, model.total_params));
  }
  model.default_dtype = reader.text("default_dtype");
  model.attention_heads = reader.whole("attention_heads", 1, max_heads);
  model.kv_heads = reader.whole("kv_heads", 1, max_heads);
  if (model.attention_heads % model.kv_heads != 0) {
    // Grouped-query attention shares each KV head among a whole group of query heads.
    reader.fail("kv_heads", fmt::format("{} KV heads do not divide the {} attention heads "
                                        "(attention_heads); each KV head serves a whole group of "
                                        "query heads",
                                        model.kv_heads, model.attention_heads));
  }
  model.head_dim = reader.whole("head_dim", 1, max_hidden);
  model.intermediate_size = reader.whole("intermediate_size", 1, max_hidden);
  model.vocab_size = reader.whole("vocab_size", 1, max_vocab);
  model.max_context = reader.whole_or("max_context", 1, static_cast<int>(limits::max_tokens), 0);
  if (reader.has("sliding_layers") || reader.has("sliding_window")) {
    model.sliding_layers = reader.whole("sliding_layers", 1, model.layers);
    model.sliding_window = reader.whole("sliding_window", 1, limits::max_tokens);
  }
  read_catalog_experts(reader, model);
  if (reader.has("kv_lora_rank")) {
    // Multi-head latent attention: what the KV cache holds per token and layer.
    Model::LatentAttention mla;
    mla.kv_lora_rank = reader.whole("kv_lora_rank", 1, max_hidden);
    mla.q_lora_rank = reader.whole_or("q_lora_rank", 1, max_hidden, 0);
    mla.qk_rope_head_dim = reader.whole("qk_rope_head_dim", 0, max_hidden);
    mla.qk_nope_head_dim = reader.whole_or("qk_nope_head_dim", 0, max_hidden, 0);
    mla.v_head_dim = reader.whole_or("v_head_dim", 0, max_hidden, 0);
    model.latent_attention = mla;
  } else if (reader.has("qk_rope_head_dim")) {
    reader.fail("qk_rope_head_dim", "given without kv_lora_rank (multi-head latent attention "
                                    "needs both)");
  }
  if (reader.has("index_topk")) {
    read_sparse_attention(reader, model, "index_topk", "index_heads", "index_head_dim");
  }
  read_checkpoints(reader, model, origin);
  return model;
}

} // namespace icx::detail
