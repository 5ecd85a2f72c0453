// One layer's attention kernel priced by the GPU's measured curve (icx/catalog/catalog.hpp
// AttentionCurve) instead of one utilisation of peak.
#pragma once

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/gemm.hpp"

namespace icx {

/// One layer's attention on one GPU: its time, each bound alone, and which one sets it.
struct AttentionTime {
  Seconds seconds;
  Seconds compute;
  Seconds memory;
  GemmBound bound = GemmBound::compute;
};

/// A prefill layer: `flops` of score products over prompts of `tokens` tokens each, heads of
/// `head_width` (the mean of the key and value widths), at the curve's fraction of the 16-bit
/// `peak`: compute = flops / (peak × compute_fraction × tokens / (tokens + half_tokens) ×
/// head_width / (head_width + half_head_dim)), plus the launch. The curve was measured on
/// prompts with no earlier context; a chunk that attends to earlier ones is taken alike.
AttentionTime prefill_attention_time(const AttentionCurve& curve, FlopsPerSecond peak, Flops flops,
                                     double tokens, double head_width);

/// A decode layer reading `kv` bytes of cache for `sequences` sequences: memory = kv / (HBM ×
/// memory_fraction), plus the per-sequence cost × sequences and the launch. `floor` when the
/// fixed parts outweigh the read. The curve was measured with one layer's cache read again and
/// again, so a small cache may have sat in L2; a step reads each layer's cache once.
AttentionTime decode_attention_time(const AttentionCurve& curve, BytesPerSecond hbm, Bytes kv,
                                    double sequences);

} // namespace icx
