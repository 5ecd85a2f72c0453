#include "icx/words/step.hpp"

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/words/engine.hpp"

namespace icx {

void add_operation_terms(Derivations& d, const StepTime& step, const Gpu& gpu,
                         std::string_view label) {
  for (const StepTerm& term : step.work.terms) {
    d.push_back({fmt::format("{}{} per stage", label, to_string(term.op)),
                 fmt::format("{} FLOP, {} B: {}-bound", format_count(term.flops.value()),
                             format_count(term.read.value()), to_string(term.bound)),
                 term.seconds.value(), format_seconds(term.seconds)});
  }
  d.push_back({fmt::format("{}compute per stage", label),
               fmt::format("{} FLOP, each operation alone at its rate",
                           format_count(step.work.flops.value())),
               step.work.compute.value(), format_seconds(step.work.compute)});
  d.push_back({fmt::format("{}memory per stage", label),
               fmt::format("{} B, each operation alone at its share of {}",
                           format_count(step.work.read.value()), format_rate(gpu.hbm_bandwidth)),
               step.work.memory.value(), format_seconds(step.work.memory)});
}

void add_step_terms(Derivations& d, const StepTime& step, const Gpu& gpu, std::string_view label) {
  add_operation_terms(d, step, gpu, label);
  std::string work = fmt::format("{} of operations", format_seconds(step.work.seconds));
  if (step.pass_scale != 1 && step.work.measured.value() > 0) {
    work += fmt::format(" ({} of them measured kernels, × {:.3g} the engine's prefill pass)",
                        format_seconds(step.work.measured), step.pass_scale);
  }
  work += fmt::format(" + {} exposed", format_seconds(step.exposed_comm));
  if (step.prompt_scale != 1) {
    work = fmt::format("({}) × {:.3g} (the engine's prompt scale)", work, step.prompt_scale);
  }
  d.push_back({fmt::format("{}stage", label), work + layer_gaps_term(step), step.stage.value(),
               format_seconds(step.stage)});
}

std::string latency_formula(const StepTime& step, int pp) {
  std::string pass = fmt::format("pp {} × {} + {} of sends{}", pp, format_seconds(step.stage),
                                 format_seconds(step.pipeline), engine_terms(step));
  if (step.draft.value() <= 0) {
    return pass;
  }
  // A speculative decode step: its drafts before the pass, over the tokens it emits.
  return fmt::format("({} + {} of drafts) / {:g} tokens emitted", pass, format_seconds(step.draft),
                     step.emitted);
}

std::string weights_formula(const Model& model, const Dtype& weights, const Dtype& experts) {
  if (weights.id == experts.id) {
    return fmt::format("{} parameters × {} B", format_count(model.total_params),
                       weights.bytes_per_element);
  }
  const ParamSplit split = param_split(model);
  return fmt::format("{} dense parameters × {} B + {} expert parameters × {} B",
                     format_count(split.dense), weights.bytes_per_element,
                     format_count(split.per_expert * model.experts), experts.bytes_per_element);
}

std::string weights_dtype_text(const Dtype& weights, const Dtype& experts) {
  return weights.id == experts.id ? weights.id
                                  : fmt::format("{} and {}-expert", weights.id, experts.id);
}

} // namespace icx
