// One layer's attention by the GPU's fitted curve (icx/serving/attention.hpp).
#include "icx/serving/attention.hpp"

#include <algorithm>

namespace icx {

const AttentionCurve* attention_curve(const KernelCurves& curves, const Model& model) {
  if (model.latent_attention && curves.mla) {
    return &*curves.mla;
  }
  return curves.attention ? &*curves.attention : nullptr;
}

std::optional<FlopsPerSecond> attention_peak(const Gpu& gpu, const KernelCurves& curves) {
  const auto peak = gpu.dense_peak.find(attention_peak_dtype);
  if ((!curves.attention && !curves.mla) || peak == gpu.dense_peak.end()) {
    return std::nullopt;
  }
  return peak->second;
}

AttentionCurve served_curve(const AttentionCurve& curve, const GpuTuning* tuning) {
  AttentionCurve served = curve;
  if (tuning != nullptr && tuning->cache_read_scale) {
    served.memory_fraction *= *tuning->cache_read_scale;
  }
  return served;
}

GemmTime prefill_attention_time(const AttentionCurve& curve, FlopsPerSecond peak, Flops flops,
                                double tokens, double head_width) {
  const double fraction = curve.compute_fraction * tokens / (tokens + curve.half_tokens) *
                          head_width / (head_width + curve.half_head_dim);
  GemmTime t;
  t.compute = flops / (peak * fraction);
  t.seconds = t.compute + curve.prefill_launch;
  t.bound = GemmBound::compute;
  return t;
}

GemmTime decode_attention_time(const AttentionCurve& curve, BytesPerSecond hbm,
                               const DecodeAttention& layer) {
  // Below 2 bytes per element: an 8-bit cache (fp8), which the engines' kernels dequantise.
  constexpr double sixteen_bit = 2;
  const double scale = layer.cache_bytes_per_element < sixteen_bit ? curve.fp8_cache_scale : 1.0;
  const double filled =
      curve.half_sequences > 0 ? layer.sequences / (layer.sequences + curve.half_sequences) : 1.0;
  GemmTime t;
  t.memory = layer.kv / (hbm * (curve.memory_fraction * scale * filled));
  // The blocks walk their sequences' caches side by side: the walk takes one context's time.
  const Seconds walk = layer.walk_per_token * (layer.context / scale);
  const Seconds fixed = curve.decode_launch + curve.per_head * (layer.sequences * layer.heads);
  t.seconds = std::max(t.memory, walk) + fixed;
  t.bound = walk > t.memory || fixed > t.memory ? GemmBound::floor : GemmBound::memory;
  return t;
}

} // namespace icx
