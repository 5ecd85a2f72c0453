// One layer's attention by the GPU's fitted curve (icx/serving/attention.hpp).
#include "icx/serving/attention.hpp"

namespace icx {

std::optional<FlopsPerSecond> attention_peak(const Gpu& gpu) {
  const auto peak = gpu.dense_peak.find(attention_peak_dtype);
  if (!gpu.attention || peak == gpu.dense_peak.end()) {
    return std::nullopt;
  }
  return peak->second;
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

GemmTime decode_attention_time(const AttentionCurve& curve, BytesPerSecond hbm, Bytes kv,
                               double sequences) {
  GemmTime t;
  t.memory = kv / (hbm * curve.memory_fraction);
  const Seconds fixed = curve.decode_launch + curve.per_sequence * sequences;
  t.seconds = t.memory + fixed;
  t.bound = fixed > t.memory ? GemmBound::floor : GemmBound::memory;
  return t;
}

} // namespace icx
