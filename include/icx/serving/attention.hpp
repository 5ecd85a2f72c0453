// One layer's attention kernel priced by the GPU's measured curve (icx/catalog/catalog.hpp
// AttentionCurve) instead of one utilisation of peak.
#pragma once

#include <optional>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/gemm.hpp"

namespace icx {

/// The curve `model`'s attention kernels run by in `curves`: latent attention's own (mla)
/// where the model has latent attention and the curves hold one, else the attention curve;
/// nullptr without either.
const AttentionCurve* attention_curve(const KernelCurves& curves, const Model& model);

/// The 16-bit dense peak a GPU's attention curves in `curves` scale; absent without a curve
/// (the catalog refuses a curve without the peak).
std::optional<FlopsPerSecond> attention_peak(const Gpu& gpu, const KernelCurves& curves);

/// A prefill layer: `flops` of score products over prompts of `tokens` tokens each, heads of
/// `head_width` (the mean of the key and value widths), at the curve's fraction of the 16-bit
/// `peak`: compute = flops / (peak × compute_fraction × tokens / (tokens + half_tokens) ×
/// head_width / (head_width + half_head_dim)), plus the launch. The curve was measured on
/// prompts with no earlier context; a chunk that attends to earlier ones is taken alike.
GemmTime prefill_attention_time(const AttentionCurve& curve, FlopsPerSecond peak, Flops flops,
                                double tokens, double head_width);

/// `curve` as a GPU's setup reads the KV cache in serving: its memory fraction × the tuning's
/// cache_read_scale where `tuning` gives one (published serving runs against the kernel
/// tables' isolated times), else the curve itself.
AttentionCurve served_curve(const AttentionCurve& curve, const GpuTuning* tuning);

/// One decode layer's cache, as decode_attention_time reads it.
struct DecodeAttention {
  /// The bytes of cache the layer reads.
  Bytes kv;
  double sequences = 0;
  /// Query heads on the GPU.
  double heads = 0;
  /// Bytes per element of the cache: below 2, an 8-bit cache the kernel dequantises.
  double cache_bytes_per_element = 2;
  /// Tokens each sequence's cache holds, and the time one thread block takes to walk one of
  /// them for one KV head (none: the engine's kernel splits the walk).
  double context = 0;
  Seconds walk_per_token;
};

/// A decode layer: memory = kv / (HBM × memory_fraction, × fp8_cache_scale for an 8-bit
/// cache, × sequences / (sequences + half_sequences) where the curve has a half), or where
/// longer the context × walk_per_token (÷ fp8_cache_scale for an 8-bit cache) of an engine
/// whose kernel walks each sequence's cache on one thread block, plus the per-head
/// cost × sequences × heads and the launch. `floor` when the walk or the fixed parts outweigh
/// the read. The curve was measured with one layer's cache read again and again, so a small
/// cache may have sat in L2; a step reads each layer's cache once.
GemmTime decode_attention_time(const AttentionCurve& curve, BytesPerSecond hbm,
                               const DecodeAttention& layer);

} // namespace icx
