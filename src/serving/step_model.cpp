#include "icx/serving/step_model.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/host/host_link.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/serving/attention.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/engine_memory.hpp"
#include "icx/serving/moe.hpp"
#include "icx/serving/step_terms.hpp"

namespace icx {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

namespace {

/// The busiest pipeline stage's share of the layers: ⌈layers / pp⌉ of them.
double stage_share(const Model& model, const Layout& layout) {
  return static_cast<double>(ceil_div(model.layers, layout.pp)) / model.layers;
}

/// GPUs of a tensor group that each hold a different part of the KV cache: KV heads are
/// split across the group up to one head per GPU and replicated beyond; a latent cache is
/// one vector per token that every GPU of the group keeps whole.
int kv_split(const Model& model, int tp) {
  if (model.latent_attention) {
    return 1;
  }
  return model.kv_heads > 0 ? std::min(tp, model.kv_heads) : tp;
}

/// Query heads on each GPU of a tensor group: split across the group, at least one each.
double heads_per_gpu(const Model& model, int tp) {
  return static_cast<double>(model.attention_heads) / std::min(tp, model.attention_heads);
}

/// Tokens each sequence occupies in the KV cache by the end of the pass: a prefill's cached
/// prefix counts as the sequence's own (blocks the engine shares between prompts are not
/// counted as shared).
std::int64_t kv_length(const Workload& w) {
  return w.phase == Phase::prefill ? w.cached + w.tokens : w.context + 1;
}

/// KV bytes of one sequence held on one GPU of the busiest stage.
Bytes kv_per_sequence(const Workload& w, const Layout& layout) {
  const Model& model = *w.model;
  return kv_bytes_per_sequence(model, *w.kv_dtype, kv_length(w)) * stage_share(model, layout) /
         kv_split(model, layout.tp);
}

} // namespace

const Dtype& activation_dtype(const Catalog& catalog, const Dtype& weights) {
  constexpr double sixteen_bits = 2;
  return weights.bytes_per_element >= sixteen_bits ? weights : catalog.dtype("bf16");
}

const Dtype& default_dispatch_dtype(const Catalog& catalog, std::optional<EpMode> mode,
                                    const Dtype& activations) {
  const auto dtypes = catalog.dtypes();
  const auto fp8 = std::ranges::find(dtypes, std::string_view("fp8"), &Dtype::id);
  return mode == EpMode::nccl || fp8 == dtypes.end() ? activations : *fp8;
}

ServingRequest with_default_dtypes(const Catalog& catalog, const Dtype& weights,
                                   ServingRequest request) {
  if (request.act_dtype == nullptr) {
    request.act_dtype = &activation_dtype(catalog, weights);
  }
  if (request.kv_dtype == nullptr) {
    request.kv_dtype = request.act_dtype;
  }
  if (request.dispatch_dtype == nullptr) {
    request.dispatch_dtype = &default_dispatch_dtype(catalog, request.ep_mode, *request.act_dtype);
  }
  return request;
}

namespace {

/// `w`'s rates, HBM fraction and ring step: each given figure, else its GPU tuning's, else the
/// GPU's catalog figure.
void set_efficiencies(const Catalog& catalog, const Gpu& gpu, const ServingRequest& request,
                      Workload& w) {
  w.gpu_tuning = gpu_tuning(gpu, request.tuning);
  const GpuTuning none;
  const GpuTuning& tuning = w.gpu_tuning != nullptr ? *w.gpu_tuning : none;
  // An MoE model's routed experts run the setup's MoE path, at its own share of peak where the
  // tuning has one; a model with latent attention runs its other GEMMs there too.
  const Model& model = *w.model;
  const std::optional<double> experts =
      model.is_moe() && tuning.moe_mfu ? tuning.moe_mfu : tuning.mfu;
  const std::optional<double> others = model.latent_attention ? experts : tuning.mfu;
  w.rate = compute_rate(gpu, *w.dtype, catalog.dtypes(),
                        request.utilization.value_or(others.value_or(gpu.achievable_mfu)));
  w.expert_rate = compute_rate(gpu, *w.expert_dtype, catalog.dtypes(),
                               request.utilization.value_or(experts.value_or(gpu.achievable_mfu)));
  w.gemm_curves = !request.utilization.has_value();
  const auto bf16 = gpu.dense_peak.find(attention_peak_dtype);
  if (w.gemm_curves && tuning.attention_mfu && !model.latent_attention &&
      bf16 != gpu.dense_peak.end()) {
    w.prefill_attention_rate = bf16->second * *tuning.attention_mfu;
  }
  w.rate_from_tuning = w.gemm_curves && others.has_value();
  w.hbm_fraction_given = request.hbm_fraction.has_value();
  w.hbm_fraction = achieved_hbm_fraction(gpu, request.hbm_fraction, w.gpu_tuning);
  w.setup = tuned_setup(gpu, w.setup, request.tuning);
}

} // namespace

Workload workload_for(const Catalog& catalog, const Model& model, const Dtype& dtype,
                      const Gpu& gpu, const ServingRequest& given) {
  const ServingRequest request = with_default_dtypes(catalog, dtype, given);
  if (request.phase == Phase::decode &&
      !(kv_bytes_per_token(model, *request.kv_dtype).value() > 0)) {
    // A decode step reads every sequence's KV cache: without heads it would read none.
    throw InputError(fmt::format(
        "a decode step reads each sequence's KV cache, and {} gives no attention heads to size "
        "it (kv_heads, head_dim); describe the model with {} PATH or a catalog {}",
        model.id == "custom" ? std::string("the custom model")
                             : fmt::format("model '{}'", model.id),
        Knob::hf_config, Knob::model));
  }
  Workload w;
  static_cast<StepSettings&>(w) = request; // the request's settings, its dtypes filled in
  w.engine = &engine_of(catalog, request.engine);
  w.max_batch = request.max_batch.value_or(scheduler_tier(*w.engine, gpu).max_batch);
  w.model = &model;
  w.dtype = &dtype;
  if (!w.batch && request.objective == Objective::latency) {
    w.batch = 1;
  }
  w.expert_dtype = &expert_dtype(catalog, model, dtype);
  set_efficiencies(catalog, gpu, request, w);
  return w;
}

const Dtype& Workload::experts_dtype() const {
  return expert_dtype != nullptr ? *expert_dtype : *dtype;
}

const Dtype& Workload::ep_dispatch_dtype() const {
  return dispatch_dtype != nullptr ? *dispatch_dtype : *act_dtype;
}

EpMode Workload::ep_kernels() const {
  return ep_mode.value_or(phase == Phase::prefill ? EpMode::normal : EpMode::low_latency);
}

std::int64_t scheduler_limit(const Workload& w, const Layout& layout) {
  return w.max_batch * layout.ep;
}

Bytes kv_bytes_per_token(const Model& model, const Dtype& kv_dtype) {
  return kv_cache_bytes(kv_shape(model, kv_dtype.bytes_per_element), 1, 1);
}

Bytes kv_bytes_per_sequence(const Model& model, const Dtype& kv_dtype, std::int64_t tokens) {
  return kv_cache_bytes(kv_shape(model, kv_dtype.bytes_per_element), 1, tokens);
}

Bytes kv_bytes_read_per_sequence(const Model& model, const Dtype& kv_dtype, std::int64_t context) {
  return kv_read_bytes(kv_shape(model, kv_dtype.bytes_per_element), context);
}

Bytes weights_per_gpu(const Model& model, const Dtype& dtype, const Dtype& experts,
                      const Layout& layout, int redundant_experts) {
  const ParamSplit split = param_split(model);
  const double dense = split.dense / (layout.tp * layout.pp);
  const double routed = (model.experts + redundant_experts) * split.per_expert /
                        (static_cast<double>(layout.tp) * layout.ep * layout.pp);
  return Bytes::of(dense * dtype.bytes_per_element + routed * experts.bytes_per_element);
}

bool weights_fit(const Gpu& gpu, const Workload& workload, const Layout& layout) {
  const Bytes weights = weights_per_gpu(*workload.model, *workload.dtype, workload.experts_dtype(),
                                        layout, workload.ep_routing.redundant_experts);
  return weights <= memory_budget(gpu, workload, layout, weights).usable;
}

LayoutMemory layout_memory(const Gpu& gpu, const Workload& workload, const Layout& layout,
                           std::optional<std::int64_t> replica_batch) {
  LayoutMemory memory;
  memory.weights_per_gpu =
      weights_per_gpu(*workload.model, *workload.dtype, workload.experts_dtype(), layout,
                      workload.ep_routing.redundant_experts);
  memory.budget = memory_budget(gpu, workload, layout, memory.weights_per_gpu);
  memory.usable_per_gpu = memory.budget.usable;
  const Bytes per_sequence = kv_per_sequence(workload, layout);
  const Bytes free = memory.usable_per_gpu - memory.weights_per_gpu;
  if (free.value() < 0) {
    memory.replica_capacity = 0;
  } else if (per_sequence.value() <= 0) {
    memory.replica_capacity = std::numeric_limits<std::int32_t>::max();
  } else {
    // Each rank of an expert group keeps the cache of its own sequences.
    memory.replica_capacity = static_cast<std::int64_t>(free / per_sequence) * layout.ep;
  }
  const std::int64_t replica = replica_batch.value_or(
      std::max<std::int64_t>(1, std::min(memory.replica_capacity, workload.max_batch)));
  memory.kv_per_gpu = per_sequence * static_cast<double>(ceil_div(replica, layout.ep));
  return memory;
}

StepBatch step_batch(const Workload& workload, const Layout& layout, std::int64_t capacity) {
  StepBatch batch;
  if (workload.batch) {
    batch.total = *workload.batch;
    batch.replica = ceil_div(batch.total, layout.dp);
  } else {
    batch.replica =
        std::max<std::int64_t>(1, std::min(capacity, scheduler_limit(workload, layout)));
    batch.total = batch.replica * layout.dp;
  }
  // The replica's sequences are split into one micro-batch per stage, and each micro-batch's
  // attention over the ranks of its expert group.
  batch.micro = ceil_div(batch.replica, layout.pp);
  batch.per_rank = ceil_div(batch.micro, layout.ep);
  batch.tokens_per_sequence = workload.phase == Phase::prefill ? workload.tokens
                              : workload.spec                  ? workload.spec->draft_tokens + 1
                                                               : 1;
  return batch;
}

namespace {

/// A weight GEMM's shape on one GPU of a tensor group of `tp`, for `m` tokens.
GemmShape sharded(const LayerWeight& weight, int tp, double m) {
  GemmShape shape{m, weight.n, weight.k};
  if (weight.split == WeightSplit::outputs) {
    shape.n /= tp;
  } else if (weight.split == WeightSplit::inputs) {
    shape.k /= tp;
  }
  return shape;
}

/// A term for `layers` of the stage's layers (a fraction for a stage's share of them).
StepTerm times(StepTerm term, double layers) {
  term.seconds = term.seconds * layers;
  term.measured = term.measured * layers;
  term.compute = term.compute * layers;
  term.memory = term.memory * layers;
  term.flops = term.flops * layers;
  term.read = term.read * layers;
  return term;
}

/// One layer's routed experts on the busiest rank: the micro-batch's tokens spread evenly
/// over the expert group (uniform routing), `skew` times that on the busiest rank (hot
/// experts), split among the experts it expects to run; priced by the GPU's fused-MoE curve
/// where it has one, else as one GEMM per expert of one grouped kernel.
StepTerm experts_term(GemmPricing pricing, const Workload& w, const Layout& layout,
                      const LayerWeight& weight, std::int64_t micro_tokens) {
  const Model& model = *w.model;
  // The experts' own dtype and, without curves, its rate.
  pricing.dtype = &w.experts_dtype();
  pricing.rate = w.expert_rate.peak_dtype.empty() ? pricing.rate : w.expert_rate.achieved();
  const int ranks = layout.expert_ranks();
  const double skew = ranks > 1 ? w.ep_routing.skew : 1.0;
  const double routed = static_cast<double>(micro_tokens) * model.experts_per_token * skew / ranks;
  const double run = busiest_gpu_experts(model.experts, model.experts_per_token,
                                         static_cast<double>(micro_tokens), ranks);
  if (!(run > 0)) {
    StepTerm none;
    none.op = weight.op;
    return none;
  }
  const GemmShape shape = sharded(weight, layout.expert_tp(), routed / run);
  StepTerm term = price_gemms(pricing, weight.op, shape, run);
  if (!pricing.curves) {
    return term;
  }
  // The fused kernel runs the gate and up projections (2 × hidden × width each expert) and the
  // down one (width × hidden) together; each projection takes its share of the weights, 2/3
  // and 1/3, of the kernel's time (the split the FLOPs and weight reads both have).
  const bool up = weight.op == StepOp::experts_up;
  const double hidden = up ? weight.k : weight.n;
  const double width = shape.n * shape.k / hidden / (up ? 2 : 1);
  const MoeShape fused_shape{routed, run, hidden, width, routed};
  if (const auto fused =
          moe_time(*pricing.gpu, pricing.engine_curves(), *pricing.dtype, fused_shape)) {
    const double share = up ? 2.0 / 3 : 1.0 / 3;
    term.seconds = fused->seconds * share;
    term.measured = term.seconds;
    term.compute = fused->compute * share;
    term.memory = fused->memory * share;
    term.bound = fused->bound;
  }
  return term;
}

/// Attention's score products for the rank's sequences and, in decode, the KV cache they
/// read: by the GPU's attention curve, one kernel per layer of the stage, or else at the
/// workload's utilisation of peak and fraction of HBM bandwidth, the longer.
StepTerm attention_term(const Gpu& gpu, const Workload& w, const Layout& layout,
                        const StepBatch& batch) {
  const Model& model = *w.model;
  const double share = stage_share(model, layout);
  const auto rank_seqs = static_cast<double>(batch.per_rank);
  StepTerm term;
  term.op = StepOp::attention;
  // A decode pass checking drafts attends once for each of its tokens.
  const double queries =
      w.phase == Phase::decode ? static_cast<double>(batch.tokens_per_sequence) : 1.0;
  term.flops = Flops::of(
      rank_seqs * queries *
      attention_flops(model, w.phase, w.tokens, w.phase == Phase::prefill ? w.cached : w.context) /
      layout.tp * share);
  if (w.phase == Phase::decode) {
    term.read = kv_bytes_read_per_sequence(model, *w.kv_dtype, w.context) * rank_seqs * share /
                kv_split(model, layout.tp);
  }
  const KernelCurves& curves = gpu.curves_for(w.engine);
  const AttentionCurve* curve = attention_curve(curves, model);
  // Present only with an attention curve.
  const std::optional<FlopsPerSecond> peak = attention_peak(gpu, curves);
  const HeadWidths width = head_widths(model, w.phase);
  // A model known by its shape alone has no heads to price a kernel by.
  const bool heads = model.attention_heads > 0 && width.key > 0 && width.value > 0;
  if (!w.gemm_curves || curve == nullptr || !peak || !heads || !(rank_seqs > 0)) {
    const bool own = w.phase == Phase::prefill && w.prefill_attention_rate;
    return roofline(term, gpu, own ? *w.prefill_attention_rate : w.rate.achieved(), w.hbm_fraction);
  }
  const double layers = model.layers * share;
  const GemmTime one =
      w.phase == Phase::prefill
          ? prefill_attention_time(*curve, *peak, term.flops / layers,
                                   static_cast<double>(w.tokens), (width.key + width.value) / 2)
          : decode_attention_time(served_curve(*curve, w.gpu_tuning), gpu.hbm_bandwidth,
                                  {term.read / layers, rank_seqs, heads_per_gpu(model, layout.tp),
                                   w.kv_dtype->bytes_per_element, static_cast<double>(w.context),
                                   w.engine != nullptr
                                       ? w.engine->costs.context_walk / gpu.hbm_bandwidth
                                       : Seconds{}});
  term.seconds = one.seconds * layers;
  term.measured = term.seconds;
  term.compute = one.compute * layers;
  term.memory = one.memory * layers;
  term.bound = one.bound;
  return term;
}

} // namespace

StageWork stage_work(const Gpu& gpu, const Workload& workload, const Layout& layout,
                     const StepBatch& batch) {
  const Model& model = *workload.model;
  const double share = stage_share(model, layout);
  const GemmPricing pricing{&gpu,
                            workload.dtype,
                            workload.rate.achieved(),
                            workload.hbm_fraction,
                            workload.gemm_curves,
                            &gpu.curves_for(workload.engine)};
  // The shared weights run the rank's own sequences (data-parallel attention), the experts
  // the whole micro-batch, the LM head one row per sequence (the prompt's last token).
  const auto rank_seqs = static_cast<double>(batch.per_rank);
  const auto rank_tokens = static_cast<double>(batch.per_rank * batch.tokens_per_sequence);
  const std::int64_t micro_tokens = batch.micro * batch.tokens_per_sequence;
  StageWork work;
  for (const LayerWeight& weight : layer_weights(model)) {
    if (weight.op == StepOp::lm_head) {
      // The last stage's; counted on the busiest one, the conservative case.
      add_term(work.terms,
               price_gemms(pricing, weight.op, sharded(weight, layout.tp, rank_seqs), 1));
      continue;
    }
    const StepTerm one =
        weight.op == StepOp::experts_up || weight.op == StepOp::experts_down
            ? experts_term(pricing, workload, layout, weight, micro_tokens)
            : price_gemms(pricing, weight.op, sharded(weight, layout.tp, rank_tokens), 1);
    add_term(work.terms, times(one, weight.layers * share));
  }
  add_term(work.terms, attention_term(gpu, workload, layout, batch));
  for (const StepTerm& term : work.terms) {
    work.flops += term.flops;
    work.read += term.read;
    work.compute += term.compute;
    work.memory += term.memory;
    work.seconds += term.seconds;
    work.measured += term.measured;
  }
  return work;
}

} // namespace icx
