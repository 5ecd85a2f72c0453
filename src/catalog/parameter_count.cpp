#include "icx/catalog/parameter_count.hpp"

#include <string_view>

#include <fmt/format.h>

#include "icx/base/error.hpp"

namespace icx {

namespace {

void require(const Model& model, int value, std::string_view field) {
  if (value <= 0) {
    throw InputError(
        fmt::format("model '{}': cannot count parameters: {} is not known", model.id, field));
  }
}

/// Gated (SwiGLU) MLP: gate and up projections hidden × width, down projection width × hidden.
double gated_mlp(double hidden, double width) {
  return 3.0 * hidden * width;
}

/// DeepSeek Sparse Attention's lightning indexer of one layer (DeepSeek-V3.2-Exp's reference
/// Indexer): its query from the low-rank query (wq_b, q_lora_rank → heads × head_dim, or from
/// the hidden state without one), one key from the hidden state (wk, hidden → head_dim) with a
/// LayerNorm (weight and bias), and a weight per head (weights_proj, hidden → heads).
double sparse_indexer(const Model& model) {
  if (!model.sparse_attention || !model.latent_attention) {
    return 0;
  }
  const Model::SparseAttention& dsa = *model.sparse_attention;
  const double hidden = model.hidden;
  const double query_rank =
      model.latent_attention->q_lora_rank > 0 ? model.latent_attention->q_lora_rank : hidden;
  const double width = dsa.index_heads * static_cast<double>(dsa.index_head_dim);
  return query_rank * width + hidden * dsa.index_head_dim + 2.0 * dsa.index_head_dim +
         hidden * dsa.index_heads;
}

/// Multi-head latent attention (DeepSeek-V2/V3) of one layer, with its two low-rank RMSNorms.
double latent_attention(const Model& model, const Model::LatentAttention& mla) {
  const double hidden = model.hidden;
  const double heads = model.attention_heads;
  const double qk_head = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
  // Query: hidden → q_lora_rank (q_a, normed) → heads × qk_head (q_b); or one hidden → heads ×
  // qk_head projection when there is no query rank.
  const double query = mla.q_lora_rank > 0 ? hidden * mla.q_lora_rank + mla.q_lora_rank +
                                                 mla.q_lora_rank * heads * qk_head
                                           : hidden * heads * qk_head;
  // Key and value: hidden → kv_lora_rank + one shared rope key (kv_a, the rank part normed),
  // then kv_lora_rank → heads × (nope key + value) (kv_b).
  const double key_value = hidden * (mla.kv_lora_rank + mla.qk_rope_head_dim) + mla.kv_lora_rank +
                           mla.kv_lora_rank * heads * (mla.qk_nope_head_dim + mla.v_head_dim);
  const double output = heads * mla.v_head_dim * hidden;
  return query + key_value + output + sparse_indexer(model);
}

/// Attention weights of one layer, without biases.
double attention(const Model& model) {
  if (model.latent_attention) {
    return latent_attention(model, *model.latent_attention);
  }
  require(model, model.head_dim, "head_dim");
  require(model, model.kv_heads, "kv_heads");
  const double hidden = model.hidden;
  // Grouped-query attention: q and o span every head, k and v only the KV heads.
  const double query_output = 2.0 * hidden * model.attention_heads * model.head_dim;
  const double key_value = 2.0 * hidden * model.kv_heads * model.head_dim;
  return query_output + key_value;
}

} // namespace

ParameterCount count_parameters(const Model& model) {
  require(model, model.hidden, "hidden");
  require(model, model.layers, "layers");
  require(model, model.attention_heads, "attention_heads");
  require(model, model.vocab_size, "vocab_size");
  const double hidden = model.hidden;
  const int moe_layers = model.is_moe() ? model.layers - model.first_dense_layers : 0;
  const int dense_layers = model.layers - moe_layers;
  if (dense_layers > 0) {
    require(model, model.intermediate_size, "intermediate_size");
  }

  // Input embedding, and the output projection unless it reuses it: vocab × hidden each.
  const double embeddings = (model.tie_word_embeddings ? 1.0 : 2.0) * model.vocab_size * hidden;
  // Two RMSNorm weight vectors per layer (before attention, before the MLP), one at the end.
  const double norms = 2.0 * hidden * model.layers + hidden;
  const double shared = embeddings + norms + attention(model) * model.layers +
                        gated_mlp(hidden, model.intermediate_size) * dense_layers;
  if (moe_layers == 0) {
    return {shared, shared};
  }

  const int expert_width =
      model.moe_intermediate_size > 0 ? model.moe_intermediate_size : model.intermediate_size;
  require(model, expert_width, "the experts' intermediate size");
  const double expert = gated_mlp(hidden, expert_width);
  // Shared experts run for every token: given as one total width, or as a count of routed-size
  // experts.
  const double shared_experts = model.shared_expert_intermediate_size > 0
                                    ? gated_mlp(hidden, model.shared_expert_intermediate_size)
                                    : model.shared_experts * expert;
  // The router scores every routed expert from the hidden state: experts × hidden.
  const double always = (model.experts * hidden + shared_experts) * moe_layers;
  return {shared + always + expert * model.experts * moe_layers,
          shared + always + expert * model.experts_per_token * moe_layers};
}

} // namespace icx
