#include "icx/words/verdict.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"
#include "icx/serving/attention.hpp"
#include "icx/serving/compute.hpp"
#include "icx/serving/ranking.hpp"

namespace icx {

std::string_view traffic_kind(Strategy strategy) {
  constexpr std::array<EnumName<Strategy>, 4> kinds{{{Strategy::tensor, "all-reduce"},
                                                     {Strategy::expert, "all-to-all"},
                                                     {Strategy::pipeline, "activation transfer"},
                                                     {Strategy::data, "traffic"}}};
  return name_in(kinds, strategy);
}

namespace {

std::string_view consequence(Level level) {
  constexpr std::array<EnumName<Level>, 3> consequences{
      {{Level::ok, "a small part of the step"},
       {Level::marginal, "the wire eats a large part of the step"},
       {Level::avoid, "the wire eats the win"}}};
  return name_in(consequences, level);
}

} // namespace

std::string verdict_reason(Strategy strategy, const Link* wire, const Verdict& verdict,
                           std::string_view phase) {
  if (strategy == Strategy::data) {
    return "replicas exchange nothing";
  }
  if (wire == nullptr || verdict.comm.value() <= 0) {
    return "no traffic crosses a wire";
  }
  const std::string numbers =
      fmt::format("{} of {} ({} model) in a {} of {} ({:.0f} %)", format_seconds(verdict.comm),
                  traffic_kind(strategy), verdict.expected_model ? "expected" : "headline", phase,
                  format_seconds(verdict.step), verdict.share * 100);
  if (verdict.breaks_rule) {
    return fmt::format("{} parallel leaves the node for {}, a {} link: {}", to_string(strategy),
                       wire->id, to_string(wire->tier), numbers);
  }
  return fmt::format("{}: {}", numbers, consequence(verdict.level));
}

Json verdict_json(Strategy strategy, const Link* wire, const Verdict& verdict,
                  std::string_view phase) {
  Json json = Json::object();
  json["level"] = to_string(verdict.level);
  json["reason"] = verdict_reason(strategy, wire, verdict, phase);
  json["comm_seconds"] = json_number(verdict.comm.value());
  json["comm_model"] = verdict.expected_model ? "expected" : "headline";
  json["step_seconds"] = json_number(verdict.step.value());
  json["share"] = json_number(verdict.share);
  json["breaks_placement_rule"] = verdict.breaks_rule;
  return json;
}

std::string verdict_thresholds() {
  return fmt::format("a layout is ok while its exposed communication (a stage's all-reduces and "
                     "all-to-alls together) is at most {:g} % of the step, marginal above; it is "
                     "avoid when it does not fit, or a "
                     "fitting layout on the same GPUs is at least {:g}× better on the objective; "
                     "tensor or expert parallel across nodes or on a scale-out link is at best "
                     "marginal, avoid when the best layout that keeps every group inside a node "
                     "is that much better or when no expected model prices its wire",
                     ok_share * 100, clearly_better);
}

std::string describe_rate(const ComputeRate& rate, int gpus) {
  return fmt::format("{} × {} at {} ({}) × {} utilisation", rate.gpu->id, gpus,
                     format_flops_rate(rate.peak), rate.peak_dtype, rate.utilization);
}

std::string describe_pricing(const Workload& workload, int gpus) {
  const Gpu& gpu = *workload.rate.gpu;
  const KernelCurves& curves = gpu.curves_for(workload.engine);
  const std::string_view gemm_dtype = curve_dtype(curves.gemm, gpu, *workload.dtype);
  const bool gemm = workload.gemm_curves && curves.gemm.contains(gemm_dtype);
  const AttentionCurve* curve =
      workload.model != nullptr ? attention_curve(curves, *workload.model) : nullptr;
  const bool attention =
      workload.gemm_curves && curve != nullptr && attention_peak(gpu, curves).has_value();
  // Latent attention priced by its own kernels' curve says so.
  const bool latent = attention && curves.mla && curve == &*curves.mla;
  if (!gemm && !attention) {
    const GpuTuning* tuning = workload.gpu_tuning;
    return workload.rate_from_tuning && tuning != nullptr
               ? fmt::format("{} ({}'s '{}' tuning, {})", describe_rate(workload.rate, gpus),
                             gpu.id, tuning->id, Knob::tuning)
               : describe_rate(workload.rate, gpus);
  }
  const std::string rate =
      fmt::format("{} ({}) × {} utilisation", format_flops_rate(workload.rate.peak),
                  workload.rate.peak_dtype, workload.rate.utilization);
  // A GPU priced by another's curves says whose.
  const std::string whose =
      gpu.curves_from.empty() ? std::string("its") : fmt::format("{}'s", gpu.curves_from);
  std::vector<std::string> parts;
  parts.push_back(gemm ? fmt::format("GEMMs by {} measured {} GEMM curve", whose, gemm_dtype)
                       : fmt::format("GEMMs at {}", rate));
  if (workload.model != nullptr && workload.model->is_moe()) {
    const Dtype& stored = workload.experts_dtype();
    const std::string_view peak_dtype = kernel_dtype(gpu, stored);
    const std::string_view moe_dtype = curve_dtype(curves.moe, gpu, stored);
    // Experts stored in another dtype than their kernel computes in say both.
    const bool apart = stored.id != peak_dtype;
    const std::string experts =
        apart ? fmt::format("routed {} experts", stored.id) : std::string("routed experts");
    parts.push_back(workload.gemm_curves && curves.moe.contains(moe_dtype)
                        ? fmt::format("{} by {} measured {} MoE kernel", experts, whose, moe_dtype)
                        : fmt::format("{} as grouped GEMMs{}", experts,
                                      apart ? fmt::format(" at the {} peak", peak_dtype) : ""));
  }
  parts.push_back(attention ? fmt::format("{} by {} measured {} kernels",
                                          latent ? "latent attention" : "attention", whose,
                                          latent ? "MLA" : "attention")
                            : fmt::format("attention at {}", rate));
  // An engine with curves of its own on this GPU says so: they are its kernels' times.
  const bool own =
      workload.engine != nullptr && gpu.engine_curves.contains(workload.engine->kernels_id());
  return fmt::format(
      "{} × {}: {}{} (catalog gpu '{}'; {} U prices every operation at U × {})", gpu.id, gpus,
      fmt::join(parts, ", "),
      own ? fmt::format(", {}'s own curves where fitted", workload.engine->kernels_id()) : "",
      gpu.id, Knob::mfu, format_flops_rate(workload.rate.peak));
}

} // namespace icx
