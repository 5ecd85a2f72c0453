// A stage's operations and their prices (icx/serving/step_terms.hpp).
#include "icx/serving/step_terms.hpp"

#include <algorithm>

#include "icx/memory/hbm.hpp"
#include "icx/serving/compute.hpp"
#include "icx/serving/serving.hpp"

namespace icx {

namespace {

/// Grouped-query attention's projections, or latent attention's low-rank ones: the low-rank
/// down projections are held whole by every GPU of a tensor group, the up projections and the
/// output are split by heads.
void attention_weights(const Model& m, std::vector<LayerWeight>& out) {
  const double hidden = m.hidden;
  const double heads = m.attention_heads;
  const int layers = m.layers;
  if (const auto& mla = m.latent_attention) {
    const double qk = mla->qk_nope_head_dim + mla->qk_rope_head_dim;
    const double q_rank = mla->q_lora_rank;
    const double kv_rank = mla->kv_lora_rank;
    if (q_rank > 0) {
      out.push_back({StepOp::qkv, q_rank, hidden, WeightSplit::none, layers});
      out.push_back({StepOp::qkv, heads * qk, q_rank, WeightSplit::outputs, layers});
    } else {
      out.push_back({StepOp::qkv, heads * qk, hidden, WeightSplit::outputs, layers});
    }
    out.push_back(
        {StepOp::qkv, kv_rank + mla->qk_rope_head_dim, hidden, WeightSplit::none, layers});
    out.push_back({StepOp::qkv, heads * (mla->qk_nope_head_dim + mla->v_head_dim), kv_rank,
                   WeightSplit::outputs, layers});
    out.push_back(
        {StepOp::attention_out, hidden, heads * mla->v_head_dim, WeightSplit::inputs, layers});
    return;
  }
  const double head_dim = m.head_dim;
  out.push_back(
      {StepOp::qkv, (heads + 2.0 * m.kv_heads) * head_dim, hidden, WeightSplit::outputs, layers});
  out.push_back({StepOp::attention_out, hidden, heads * head_dim, WeightSplit::inputs, layers});
}

/// A gated MLP of `width` (gate and up in one GEMM, then down) in `layers` layers.
void mlp_weights(double hidden, double width, int layers, StepOp up, StepOp down,
                 std::vector<LayerWeight>& out) {
  if (width <= 0 || layers <= 0) {
    return;
  }
  out.push_back({up, 2 * width, hidden, WeightSplit::outputs, layers});
  out.push_back({down, hidden, width, WeightSplit::inputs, layers});
}

/// GPT's layer when the architecture is not known: QKV 3h², output h², an MLP of 4h.
void generic_weights(const Model& m, std::vector<LayerWeight>& out) {
  // The classic transformer layer: three h×h projections, one output, an MLP four times wide.
  constexpr double qkv_width = 3;
  constexpr double mlp_width = 4;
  const double hidden = m.hidden;
  out.push_back({StepOp::qkv, qkv_width * hidden, hidden, WeightSplit::outputs, m.layers});
  out.push_back({StepOp::attention_out, hidden, hidden, WeightSplit::inputs, m.layers});
  out.push_back({StepOp::mlp_up, mlp_width * hidden, hidden, WeightSplit::outputs, m.layers});
  out.push_back({StepOp::mlp_down, hidden, mlp_width * hidden, WeightSplit::inputs, m.layers});
}

bool is_expert(StepOp op) {
  return op == StepOp::experts_up || op == StepOp::experts_down;
}

/// Scales the per-layer shared weights' outputs so that, with the LM head and the input
/// embedding, they add up to the model's shared parameters.
void match_parameters(const Model& m, const ParamSplit& split, std::vector<LayerWeight>& out) {
  double shaped = 0;
  double fixed = m.tie_word_embeddings ? 0.0 : static_cast<double>(m.vocab_size) * m.hidden;
  for (const LayerWeight& w : out) {
    const double params = w.n * w.k * w.layers;
    if (w.op == StepOp::lm_head) {
      fixed += params;
    } else if (!is_expert(w.op)) {
      shaped += params;
    }
  }
  const double target = split.dense - fixed;
  if (shaped <= 0 || target <= 0) {
    return;
  }
  const double scale = target / shaped;
  for (LayerWeight& w : out) {
    if (w.op != StepOp::lm_head && !is_expert(w.op)) {
      w.n *= scale;
    }
  }
}

} // namespace

std::vector<LayerWeight> layer_weights(const Model& m) {
  std::vector<LayerWeight> out;
  const ParamSplit split = param_split(m);
  const int dense_layers = m.is_moe() ? m.layers - split.moe_layers : m.layers;
  const bool known = m.attention_heads > 0 && m.intermediate_size > 0 &&
                     (m.latent_attention.has_value() || m.head_dim > 0);
  if (known) {
    attention_weights(m, out);
    mlp_weights(m.hidden, m.intermediate_size, dense_layers, StepOp::mlp_up, StepOp::mlp_down, out);
  } else {
    generic_weights(m, out);
  }
  if (split.moe_layers > 0 && split.per_expert > 0) {
    const double expert_width =
        m.moe_intermediate_size > 0 ? m.moe_intermediate_size : m.intermediate_size;
    const double shared = m.shared_expert_intermediate_size > 0 ? m.shared_expert_intermediate_size
                                                                : m.shared_experts * expert_width;
    mlp_weights(m.hidden, shared, split.moe_layers, StepOp::mlp_up, StepOp::mlp_down, out);
    // One routed expert's width from its parameters (a gated MLP holds 3 × hidden × width),
    // so the GEMMs read what the GPU holds.
    const double width = split.per_expert / split.moe_layers / (3.0 * m.hidden);
    mlp_weights(m.hidden, width, split.moe_layers, StepOp::experts_up, StepOp::experts_down, out);
  }
  if (m.vocab_size > 0) {
    out.push_back({StepOp::lm_head, static_cast<double>(m.vocab_size),
                   static_cast<double>(m.hidden), WeightSplit::outputs, 1});
  }
  match_parameters(m, split, out);
  return out;
}

StepTerm price_gemms(const GemmPricing& pricing, StepOp op, const GemmShape& shape, double count) {
  StepTerm term;
  term.op = op;
  if (count <= 0 || shape.m <= 0) {
    return term;
  }
  const double m = shape.m;
  const double n = shape.n;
  const double k = shape.k;
  term.flops = Flops::of(2 * m * n * k * count);
  term.read = Bytes::of(
      ((n * k + m * k) * pricing.dtype->bytes_per_element + m * n * gemm_activation_bytes) * count);
  if (pricing.curves) {
    if (const auto one = gemm_time(*pricing.gpu, pricing.engine_curves(), *pricing.dtype, shape)) {
      // One grouped kernel: the launch is paid once, the rest once per GEMM.
      const auto& gemm = pricing.engine_curves().gemm;
      const Seconds launch =
          gemm.find(curve_dtype(gemm, *pricing.gpu, *pricing.dtype))->second.launch;
      term.seconds = (one->seconds - launch) * count + launch;
      term.measured = term.seconds;
      term.compute = one->compute * count;
      term.memory = one->memory * count;
      term.bound = one->bound;
      return term;
    }
  }
  return roofline(term, *pricing.gpu, pricing.rate, pricing.hbm_fraction);
}

StepTerm roofline(StepTerm term, const Gpu& gpu, FlopsPerSecond rate, double hbm_fraction) {
  term.compute = term.flops / rate;
  term.memory = hbm_read_time(gpu, 1, term.read, hbm_fraction);
  term.seconds = std::max(term.compute, term.memory);
  term.bound = term.compute >= term.memory ? GemmBound::compute : GemmBound::memory;
  return term;
}

void add_term(std::vector<StepTerm>& terms, const StepTerm& term) {
  const auto same = std::ranges::find(terms, term.op, &StepTerm::op);
  if (same == terms.end()) {
    terms.push_back(term);
    return;
  }
  // The longer part names the bound of the sum.
  if (term.seconds > same->seconds) {
    same->bound = term.bound;
  }
  same->seconds += term.seconds;
  same->measured += term.measured;
  same->compute += term.compute;
  same->memory += term.memory;
  same->flops += term.flops;
  same->read += term.read;
}

} // namespace icx
