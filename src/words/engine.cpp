#include "icx/words/engine.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/knob.hpp"
#include "icx/base/units.hpp"
#include "icx/base/units_format.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/serving/engine.hpp"
#include "icx/util/text.hpp"

namespace icx {

std::string engine_text(const Engine& engine) {
  return fmt::format("{} {}", engine.name, engine.version);
}

namespace {

/// A tier's limit with its unit: a tier that prefills whole prompts has no chunk to give.
std::string tier_value_text(const SchedulerTier& tier, std::int64_t SchedulerTier::*field,
                            std::string_view unit) {
  if (field == &SchedulerTier::prefill_chunk && tier.whole_prompts) {
    return "whole prompts, up to the model's longest context";
  }
  return unit.empty() ? fmt::format("{}", tier.*field) : fmt::format("{} {}", tier.*field, unit);
}

} // namespace

std::string scheduler_default_text(const Engine& engine, std::int64_t SchedulerTier::*field,
                                   std::string_view unit) {
  std::vector<const SchedulerTier*> tiers;
  for (const SchedulerTier& tier : engine.scheduler) {
    tiers.push_back(&tier);
  }
  std::ranges::sort(tiers, [](const SchedulerTier* a, const SchedulerTier* b) {
    return a->min_hbm > b->min_hbm;
  });
  std::string first = tier_value_text(*tiers.front(), field, unit);
  const bool same = std::ranges::all_of(
      tiers, [&](const SchedulerTier* t) { return tier_value_text(*t, field, unit) == first; });
  if (same) {
    return first;
  }
  std::vector<std::string> parts;
  for (const SchedulerTier* tier : tiers) {
    // The unit once, after the first figure.
    const std::string value =
        tier_value_text(*tier, field, parts.empty() ? unit : std::string_view());
    if (tier->applies_to_every_gpu()) {
      parts.push_back(fmt::format("{} on the others", value));
    } else {
      parts.push_back(fmt::format(
          "{} on GPUs of at least {:g} GiB{}", value, tier->min_hbm.value() / gibi,
          tier->except.empty() ? "" : fmt::format(" except {}", fmt::join(tier->except, ", "))));
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string scheduler_setting_text(const Engine& engine, std::int64_t SchedulerTier::*field,
                                   std::optional<std::int64_t> given, std::string_view unit) {
  return given ? fmt::format("{} {}", *given, unit) : scheduler_default_text(engine, field, unit);
}

std::string engine_defaults_text(const Engine& engine, const Gpu& gpu) {
  const SchedulerTier& tier = scheduler_tier(engine, gpu);
  return fmt::format("{}, whose defaults on {} are {} sequences per scheduler and {}",
                     engine_text(engine), gpu.id, tier.max_batch,
                     tier.whole_prompts
                         ? std::string("whole prompts (no chunked prefill)")
                         : fmt::format("prefill chunks of {} tokens", tier.prefill_chunk));
}

std::string prefill_pass_text(const EngineCosts& costs) {
  std::vector<std::string> parts;
  if (costs.prefill_pass_scale != 1) {
    parts.push_back(fmt::format("{:.3g} × kernels", costs.prefill_pass_scale));
  }
  if (costs.prefill_step.value() > 0) {
    parts.push_back(fmt::format("+ {}", format_seconds(costs.prefill_step)));
  }
  return parts.empty() ? std::string("-") : fmt::format("{}", fmt::join(parts, " "));
}

namespace {

/// Where an engine's cost figures come from: its own fitted runs, or, for the figures its entry
/// borrows (costs_from) and which add anything, another engine's, an assumption.
std::string costs_origin_text(const Engine& engine) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> nouns{{
      {"step_us", "step"},
      {"layer_us", "layer"},
      {"request_us", "request"},
      {"sequence_us", "sequence"},
      {"prefill_step_us", "prefill step"},
      {"prefill_pass_scale", "prefill pass"},
      {"prompt_scale", "prompt scale"},
      {"context_walk_bytes", "context walk"},
  }};
  std::vector<std::string_view> borrowed;
  for (const auto& [figure, noun] : nouns) {
    if (engine_cost_counts(figure, engine.costs) && engine.borrows(figure)) {
      borrowed.push_back(noun);
    }
  }
  const bool any_own = engine.borrowed_costs.size() < engine_cost_figures.size();
  if (borrowed.empty()) {
    return "fitted on published serving runs";
  }
  if (!any_own) {
    return fmt::format("taken from catalog engine '{}', assumed: no published run of this "
                       "engine was fitted",
                       engine.costs_from);
  }
  return fmt::format("the {} {} taken from catalog engine '{}', assumed; the rest fitted on "
                     "published serving runs",
                     and_list(borrowed), borrowed.size() == 1 ? "figure" : "figures",
                     engine.costs_from);
}

} // namespace

std::string engine_costs_text(const Engine& engine) {
  const EngineCosts& c = engine.costs;
  std::string prompts =
      c.prefill_pass_scale != 1
          ? fmt::format(", a prefill pass {:.3g} × its measured kernels", c.prefill_pass_scale)
          : std::string();
  if (c.prompt_scale != 1) {
    prompts +=
        fmt::format(", prefills at {:.3g} × their priced kernels and collectives", c.prompt_scale);
  }
  const std::string sequences =
      c.sequence.value() > 0
          ? fmt::format(" + {} per sequence in the step", format_seconds(c.sequence))
          : std::string();
  if (c.prefill_step.value() > 0) {
    prompts += fmt::format(", {} more in each step that prefills (the prompt pass's own)",
                           format_seconds(c.prefill_step));
  }
  return fmt::format("{} per step{} + {} per layer, {} per request{} ({}; catalog engine '{}')",
                     format_seconds(c.step), sequences, format_seconds(c.layer),
                     format_seconds(c.request), prompts, costs_origin_text(engine), engine.id);
}

std::string layer_gaps_term(const StepTime& step) {
  return step.layer_gaps.value() > 0
             ? fmt::format(" + {} of gaps between layers", format_seconds(step.layer_gaps))
             : std::string();
}

std::string engine_terms(const StepTime& step) {
  std::string terms;
  if (step.engine.value() > 0) {
    terms += fmt::format(" + {} engine step", format_seconds(step.engine));
  }
  if (step.request.value() > 0) {
    terms += fmt::format(" + {} per request", format_seconds(step.request));
  }
  return terms;
}

std::string engine_memory_text(const Engine& engine) {
  if (!engine.memory) {
    return fmt::format("{:g} % kept free", default_memory_reserve * 100);
  }
  const EngineMemory& rule = *engine.memory;
  if (rule.reserve) {
    return fmt::format("{} from what it keeps back", rule.setting);
  }
  return fmt::format("{} {:g} of the {} memory", rule.setting, rule.fraction,
                     rule.basis == MemoryBasis::free ? "free" : "whole");
}

std::string memory_budget_text(const MemoryBudget& budget) {
  if (budget.reserve || budget.rule == nullptr) {
    return fmt::format("{} less a {:g} % reserve (--reserve)", format_bytes(budget.device),
                       budget.reserve.value_or(0) * 100);
  }
  const EngineMemory& rule = *budget.rule;
  std::string held;
  if (budget.activation.value() > 0) {
    held += fmt::format(" − {} of activations (a profiling forward over {} tokens)",
                        format_bytes(budget.activation), budget.profile_tokens);
  }
  if (budget.runtime.value() > 0) {
    held += fmt::format(" − {} of runtime", format_bytes(budget.runtime));
  }
  if (rule.basis == MemoryBasis::device) {
    return fmt::format("{} {:.3g} × {}{}", rule.setting, budget.fraction,
                       format_bytes(budget.device), held);
  }
  return fmt::format("the weights + {} {:.3g} × ({} − the weights{})", rule.setting,
                     budget.fraction, format_bytes(budget.device), held);
}

std::string kv_admission_text(KvAdmission admission) {
  return admission == KvAdmission::whole_request
             ? "each request reserving its prompt and every output token when admitted, so "
               "none is preempted (TensorRT-LLM's guaranteed-no-evict scheduler)"
             : "with the newest request preempted and recomputed when it fills";
}

std::string hbm_fraction_origin(const Workload& w, const Gpu& gpu) {
  return hbm_fraction_origin(w.hbm_fraction_given, w.gpu_tuning, gpu);
}

std::string hbm_fraction_origin(bool given, const GpuTuning* tuning, const Gpu& gpu) {
  if (given) {
    return " (as given)";
  }
  if (tuning != nullptr && tuning->hbm_fraction) {
    return fmt::format(" ({}'s '{}' tuning)", gpu.id, tuning->id);
  }
  return gpu.achievable_hbm_fraction ? fmt::format(" (catalog gpu '{}')", gpu.id)
                                     : std::string(": no measurement in the catalog");
}

std::optional<std::string> tuning_text(const Gpu& gpu, const GpuTuning* tuning,
                                       std::string_view asked) {
  if (tuning == nullptr) {
    if (asked.empty()) {
      return std::nullopt;
    }
    return fmt::format("tuning '{}' not applied: {} has no tunings in the catalog, its own "
                       "figures price it ({})",
                       asked, gpu.id, Knob::tuning);
  }
  std::vector<std::string> parts;
  if (tuning->hbm_fraction) {
    parts.push_back(fmt::format("HBM at {:g} %", *tuning->hbm_fraction * 100));
  }
  if (tuning->mfu) {
    parts.push_back(fmt::format("GEMMs at {:g} % of peak", *tuning->mfu * 100));
  }
  if (tuning->attention_mfu) {
    parts.push_back(fmt::format("a prefill's attention at {:g} % of the BF16 peak",
                                *tuning->attention_mfu * 100));
  }
  if (tuning->moe_mfu) {
    parts.push_back(fmt::format("an MoE model's routed experts (and a latent-attention model's "
                                "every GEMM) at {:g} %",
                                *tuning->moe_mfu * 100));
  }
  if (tuning->cache_read_scale) {
    parts.push_back(fmt::format("a decode's attention reading the KV cache at {:g} % of its "
                                "kernel curve's rate",
                                *tuning->cache_read_scale * 100));
  }
  if (tuning->ring_step.value() > 0) {
    parts.push_back(fmt::format("each step of an all-reduce's ring {} slower",
                                format_seconds(tuning->ring_step)));
  }
  std::vector<std::string> others;
  for (const GpuTuning& t : gpu.tunings) {
    if (&t != tuning) {
      others.push_back(t.id);
    }
  }
  // --mfu prices every kernel without its curve, which drops the cache-read share too.
  const bool overridden = tuning->hbm_fraction || tuning->mfu || tuning->attention_mfu ||
                          tuning->moe_mfu || parts.empty();
  return fmt::format(
      "tuning: {}'s '{}', {}: {} ({}{}{})", gpu.id, tuning->id, tuning->name,
      parts.empty() ? std::string("the GPU's own catalog figures")
                    : fmt::format("{}", fmt::join(parts, ", ")),
      Knob::tuning,
      others.empty() ? std::string() : fmt::format(", or {}", fmt::join(others, ", ")),
      overridden
          ? fmt::format("; {} and {} override its figures", Knob::hbm_fraction, Knob::mfu)
          : fmt::format("; {} prices every kernel at one share of peak without it", Knob::mfu));
}

} // namespace icx
