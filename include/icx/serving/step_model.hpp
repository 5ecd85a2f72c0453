// One step of serving on one GPU of a layout: how many sequences it carries, what it holds
// and reads from HBM, and what it computes. The wire's part (the collectives) is priced in
// icx/serving/placement.hpp; together they give TTFT, TPOT and tokens per second.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "icx/base/limits.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/memory/budget.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/serving/compute.hpp"
#include "icx/serving/serving.hpp"
#include "icx/serving/step_terms.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx {

/// Tokens in the prompt a prefill pass processes, and the context a decode step attends to,
/// when none is given: the 4,096-token prefill of the headline table.
constexpr std::int64_t default_prompt_tokens = 4096;

/// What a serving request and the workload it resolves to both say of a step: its phase and
/// tokens, the batch, the dtypes on the wire and in the KV cache, and how the engine runs the
/// collectives.
struct StepSettings {
  Phase phase = Phase::prefill;
  /// Prompt tokens of each sequence: what a prefill pass processes.
  std::int64_t tokens = 0;
  /// Decode: tokens already in each sequence's KV cache.
  std::int64_t context = 0;
  /// Prefill: tokens of each prompt already in the KV cache before the pass (a prefix-cache
  /// hit): the pass computes `tokens` more, which attend over these too.
  std::int64_t cached = 0;
  /// Prompt tokens one engine step may prefill (--prefill-chunk, the engine's token budget);
  /// absent: the engine's scheduler tier on the GPU (prefill_chunk_or_default, asked where it
  /// is used: for an engine that prefills whole prompts it needs the model's longest context).
  std::optional<std::int64_t> prefill_chunk;
  /// Sequences in flight across the cluster; absent: as many as each replica's memory holds,
  /// up to the engine's scheduler limit per replica.
  std::optional<std::int64_t> batch;
  /// The serving engine (the catalog's "engines"); absent: default_engine
  /// (icx/serving/engine.hpp).
  const Engine* engine = nullptr;
  /// What crosses the wire. In a request, absent: the weights' dtype when it is 16 bits or
  /// wider, else bf16 (serving engines keep activations in BF16, FP16 for an FP16 model).
  const Dtype* act_dtype = nullptr;
  /// What the KV cache stores. In a request, absent: the activations' dtype.
  const Dtype* kv_dtype = nullptr;
  /// Fraction of the tensor and expert collectives an engine hides behind compute (0:
  /// engines run them between the layers' GEMMs, serially).
  double overlap = 0;
  /// Fraction of each GPU's memory kept free (icx/memory/hbm.hpp); absent: the engine's
  /// memory rule (icx/serving/engine_memory.hpp).
  std::optional<double> memory_reserve;
  /// Who runs the all-reduces (the serving engine; vLLM's dispatch unless one is named) and
  /// the link topology assumed.
  RunSetup setup{Implementation::vllm, {}, {}};
  /// The GPU's named setup asked for (GpuTuning id); empty: the GPU's default where it has
  /// tunings.
  std::string tuning;
  /// The expert-parallel kernels (icx/wire/expert_parallel.hpp): DeepEP's normal ones for a
  /// prefill and its low-latency ones for a decode step (SGLang's --deepep-mode auto), unless
  /// one is named.
  std::optional<EpMode> ep_mode;
  /// What an expert-parallel dispatch sends (the combine sends the activations' dtype). In a
  /// request, absent: fp8 for DeepEP's kernels (its FP8 dispatch), the activations' dtype for
  /// NCCL's.
  const Dtype* dispatch_dtype = nullptr;
  EpRouting ep_routing;
  /// Decode with speculative decoding; absent: one token per sequence a step.
  std::optional<Speculation> spec;
};

/// A step's settings resolved for one model, its weights and a GPU's compute.
struct Workload : StepSettings {
  /// Most sequences one engine scheduler runs at once.
  std::int64_t max_batch = limits::max_tokens;
  const Model* model = nullptr;
  /// The weights as stored.
  const Dtype* dtype = nullptr;
  /// The routed experts' weights as stored (expert_dtype: `dtype` unless the model stores
  /// them apart).
  const Dtype* expert_dtype = nullptr;
  ComputeRate rate;
  /// The experts' GEMMs' rate where no curve prices them (`rate` for the experts' dtype).
  ComputeRate expert_rate;
  /// A prefill's attention rate where no curve prices it, from the tuning's attention_mfu;
  /// absent: `rate`.
  std::optional<FlopsPerSecond> prefill_attention_rate;
  /// Fraction of the datasheet HBM bandwidth a decode step reaches.
  double hbm_fraction = 1;
  /// The GPU's setup the figures assume; null: the GPU has none in the catalog.
  const GpuTuning* gpu_tuning = nullptr;
  /// `rate`'s utilisation is the tuning's (not given, not the GPU's catalog figure).
  bool rate_from_tuning = false;
  /// `hbm_fraction` was given (--hbm-fraction), not taken from the tuning or the catalog.
  bool hbm_fraction_given = false;
  /// GEMMs priced by the GPU's measured curves where it has them (false: every GEMM at
  /// `rate`, as --mfu asks).
  bool gemm_curves = true;
  [[nodiscard]] EpMode ep_kernels() const;
  /// The routed experts' dtype; the weights' when none was set (a workload not built by
  /// workload_for).
  [[nodiscard]] const Dtype& experts_dtype() const;
  /// The dispatch's dtype; the activations' when none was set (a workload not built by
  /// workload_for).
  [[nodiscard]] const Dtype& ep_dispatch_dtype() const;
};

/// What a request asks of the step model beyond the model and the cluster; absent parts take
/// the defaults workload_for names.
struct ServingRequest : StepSettings {
  /// Most sequences one engine scheduler runs at once; absent: the engine's scheduler tier on
  /// the GPU.
  std::optional<std::int64_t> max_batch;
  /// Fraction of dense peak; absent: the GPU's catalog figure.
  std::optional<double> utilization;
  /// Fraction of HBM bandwidth; absent: the tuning's, else the GPU's catalog figure, else 1.
  std::optional<double> hbm_fraction;
  Objective objective = Objective::latency;
};

/// What crosses the wire when nothing says: the weights' dtype when it is 16 bits or wider,
/// else bf16 (narrower weights are dequantised for the GEMMs; vLLM, SGLang and TensorRT-LLM
/// keep activations 16-bit unless configured otherwise).
const Dtype& activation_dtype(const Catalog& catalog, const Dtype& weights);

/// What an expert-parallel dispatch sends when nothing says: FP8 (DeepEP's FP8 dispatch, where
/// the catalog has the dtype) for DeepEP's kernels, the activations for NCCL's all-to-all.
const Dtype& default_dispatch_dtype(const Catalog& catalog, std::optional<EpMode> mode,
                                    const Dtype& activations);

/// `request` with its dtypes filled in: activations as activation_dtype says unless given, the
/// KV cache as the activations unless given, the expert-parallel dispatch as
/// ServingRequest::dispatch_dtype says.
ServingRequest with_default_dtypes(const Catalog& catalog, const Dtype& weights,
                                   ServingRequest request);

/// The workload `request` describes for `model` with weights in `dtype` on `gpu`; without a
/// batch, the latency objective runs one sequence and the throughput objective as many as
/// memory holds, up to the request's max_batch or else its engine's on the GPU.
Workload workload_for(const Catalog& catalog, const Model& model, const Dtype& dtype,
                      const Gpu& gpu, const ServingRequest& request);

/// ⌈a / b⌉ for positive whole numbers: the groups of b that hold a.
std::int64_t ceil_div(std::int64_t a, std::int64_t b);

/// Degrees of each split; their product is the GPU count. Ranks are laid out tensor
/// innermost, then expert, then pipeline, then data.
struct Layout {
  int tp = 1;
  int pp = 1;
  int ep = 1;
  int dp = 1;
  /// The routed experts' tensor degree when it is below `tp`: each expert split over moe_tp
  /// GPUs and the experts spread over the rest of the stage ("TP 8 EP 8": attention tensor
  /// parallel over 8 GPUs, each holding an eighth of the experts whole); 0: each expert split
  /// over the whole tensor group.
  int moe_tp = 0;
  [[nodiscard]] int product() const { return tp * pp * ep * dp; }
  /// The GPUs one routed expert is split over.
  [[nodiscard]] int expert_tp() const { return moe_tp > 0 ? moe_tp : tp; }
  /// The GPUs of a stage the routed experts are spread over (each holding whole experts, or
  /// its expert_tp() share of them).
  [[nodiscard]] int expert_ranks() const { return tp * ep / expert_tp(); }
  bool operator==(const Layout&) const = default;
};

/// Sequences of one step: in the cluster, in one replica, in one pipeline micro-batch, and on
/// the busiest expert-parallel rank (data-parallel attention: each rank of an expert group
/// runs attention for its own sequences).
struct StepBatch {
  std::int64_t total = 0;
  std::int64_t replica = 0;
  std::int64_t micro = 0;
  std::int64_t per_rank = 0;
  /// Tokens each sequence brings to one pass: the prompt for prefill, one for decode (the
  /// drafts and its own with speculative decoding).
  std::int64_t tokens_per_sequence = 0;
};

struct LayoutMemory {
  Bytes weights_per_gpu;
  /// The KV cache of the GPU's sequences at their full length.
  Bytes kv_per_gpu;
  Bytes usable_per_gpu;
  /// How `usable_per_gpu` follows from the GPU's memory.
  MemoryBudget budget;
  /// Sequences one replica's memory holds beside the weights (0 when the weights alone
  /// do not fit).
  std::int64_t replica_capacity = 0;
  [[nodiscard]] bool fits() const { return weights_per_gpu + kv_per_gpu <= usable_per_gpu; }
};

/// The work of one pipeline stage for one micro-batch on its busiest GPU: its operations
/// (icx/serving/step_terms.hpp), run one after another, and their sums.
struct StageWork {
  std::vector<StepTerm> terms;
  Flops flops;
  /// Weights touched (for an MoE model, the experts the micro-batch hits on the busiest
  /// rank), the activations the GEMMs read and write, and in decode the KV cache.
  Bytes read;
  /// Each bound alone, summed over the operations.
  Seconds compute;
  Seconds memory;
  /// The operations' times added: what the stage's kernels take.
  Seconds seconds;
  /// The part of `seconds` priced by measured kernel curves.
  Seconds measured;
};

/// Sequences one replica may schedule: `max_batch` per scheduler, and with data-parallel
/// attention every rank of an expert group schedules its own (SGLang's DP attention).
std::int64_t scheduler_limit(const Workload& w, const Layout& layout);

/// KV-cache bytes of one token over all layers in the KV dtype.
Bytes kv_bytes_per_token(const Model& model, const Dtype& kv_dtype);

/// KV-cache bytes of one sequence of `tokens` over all layers, sliding-window layers holding
/// at most their window.
Bytes kv_bytes_per_sequence(const Model& model, const Dtype& kv_dtype, std::int64_t tokens);

/// What one decode step reads of a sequence's KV cache at `context` tokens (kv_read_bytes):
/// all of it, or with sparse attention the indexer's keys and the top-k tokens' latents.
Bytes kv_bytes_read_per_sequence(const Model& model, const Dtype& kv_dtype, std::int64_t context);

/// Weight bytes one GPU holds: the dense part split by tensor and pipeline groups and
/// replicated across expert ranks, in `dtype`; the routed experts (with `redundant_experts`
/// replicas of hot ones) split by all three, in `experts`.
Bytes weights_per_gpu(const Model& model, const Dtype& dtype, const Dtype& experts,
                      const Layout& layout, int redundant_experts = 0);

/// Whether one GPU of `layout` holds its weights in the memory `workload`'s engine gives the
/// weights and the KV cache (no room left for a cache counts as holding them).
bool weights_fit(const Gpu& gpu, const Workload& workload, const Layout& layout);

/// Memory of each GPU with `replica_batch` sequences per replica (absent: the capacity).
LayoutMemory layout_memory(const Gpu& gpu, const Workload& workload, const Layout& layout,
                           std::optional<std::int64_t> replica_batch);

/// The sequences of one step: the workload's batch spread over the replicas, or, without
/// one, each replica at min(capacity, max_batch per scheduler) (at least one sequence); an
/// expert group's ranks each schedule their own sequences.
StepBatch step_batch(const Workload& workload, const Layout& layout, std::int64_t capacity);

/// The operations of one stage for one micro-batch on the busiest GPU, each priced alone.
StageWork stage_work(const Gpu& gpu, const Workload& workload, const Layout& layout,
                     const StepBatch& batch);

} // namespace icx
