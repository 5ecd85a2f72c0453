// The measured kernel curves a GPU is priced by: GEMMs, routed experts and attention, each
// fitted to one engine's measured kernel times (tools/fit/).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "icx/base/units.hpp"

namespace icx {

/// The time of one GEMM, C[m×n] = A[m×k] · W[n×k]ᵀ, on a GPU in one dtype, as a curve fitted
/// to measured kernel times (tools/fit/fit_gemm.py): the compute bound at a fraction of dense
/// peak that falls for narrow GEMMs, the memory bound at a fraction of HBM bandwidth, blended
/// by `knee`, never under `floor`, plus `launch` per call.
struct GemmCurve {
  /// Fraction of dense peak a GEMM wide enough to fill the GPU reaches.
  double compute_fraction = 0;
  /// Weight elements (n·k) at which the compute fraction is half of `compute_fraction`.
  double half_weights = 0;
  /// Fraction of HBM bandwidth the GEMM's reads and writes reach.
  double memory_fraction = 0;
  /// Blend exponent of the two bounds: 1 adds them, a large one takes the longer.
  double knee = 1;
  Seconds floor;
  Seconds launch;
  bool operator==(const GemmCurve&) const = default;
};

/// The time of one layer's routed experts on one rank as one fused kernel (gate and up
/// projections, activation, down projection of every expert the rank runs), fitted to measured
/// kernel times (tools/fit/fit_moe.py; the formula in icx/serving/moe.hpp): the compute bound
/// at a fraction of dense peak that falls when each expert gets few tokens, the weights and
/// activations at a fraction of HBM bandwidth, blended by `knee`, plus a launch and a cost per
/// routing entry the kernel sorts.
struct MoeCurve {
  /// Fraction of dense peak experts with many tokens each approach.
  double compute_fraction = 0;
  /// Tokens per expert at which that fraction halves.
  double half_tokens = 0;
  double memory_fraction = 0;
  /// Blend exponent of the two bounds: 1 adds them, a large one takes the longer.
  double knee = 1;
  Seconds launch;
  /// Per token-expert entry the kernel routes (its sort and gather).
  Seconds per_entry;
  bool operator==(const MoeCurve&) const = default;
};

/// The time of one layer's attention kernel on a GPU, fitted to measured kernel times
/// (tools/fit/fit_attention.py; the formula in icx/serving/attention.hpp): a prefill's score
/// products at a fraction of the 16-bit dense peak that falls for short prompts and narrow
/// heads, a decode step's KV-cache read at a fraction of HBM bandwidth, each plus a launch.
struct AttentionCurve {
  /// Prefill: the fraction of the 16-bit dense peak long prompts with wide heads approach.
  double compute_fraction = 0;
  /// The prompt tokens and the head width at which the prefill fraction halves.
  double half_tokens = 0;
  double half_head_dim = 0;
  Seconds prefill_launch;
  /// Decode: the fraction of HBM bandwidth a 16-bit KV cache is read at.
  double memory_fraction = 0;
  /// The sequences at which that fraction halves: a kernel that splits each sequence's cache
  /// over only so many thread blocks reads few sequences slowly (0: every batch alike).
  double half_sequences = 0;
  Seconds per_head; ///< what each query head of each sequence adds beyond its reads
  /// The share of `memory_fraction` an 8-bit cache is read at: the kernel dequantises it.
  double fp8_cache_scale = 1;
  Seconds decode_launch;
  bool operator==(const AttentionCurve&) const = default;
};

/// The dtype whose dense peak an attention curve scales: engines compute attention in 16 bits
/// whatever the weights' dtype.
inline constexpr std::string_view attention_peak_dtype = "bf16";

/// One engine's kernels on a GPU: GEMM and routed-expert curves by dtype id (a dtype without a
/// GEMM curve is priced at the GPU's achievable_mfu; without an expert curve, the experts run
/// as grouped GEMMs), and attention (absent: achievable_mfu and the HBM fraction).
struct KernelCurves {
  std::map<std::string, GemmCurve, std::less<>> gemm;
  std::map<std::string, MoeCurve, std::less<>> moe;
  std::optional<AttentionCurve> attention;
  /// Latent attention's own kernels (DeepSeek's MLA: FlashMLA, TensorRT-LLM's MLA), in the same
  /// form: a model with latent attention is priced by it where present, else by `attention`.
  std::optional<AttentionCurve> mla;
  [[nodiscard]] bool empty() const { return gemm.empty() && moe.empty() && !attention && !mla; }
  bool operator==(const KernelCurves&) const = default;
};

} // namespace icx
