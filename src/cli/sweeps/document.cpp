#include "sweeps/document.hpp"

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

Json sweep_document(std::string_view command, const Sweep& sweep) {
  Json document = json_document("icx.sweep/1");
  document["command"] = std::string(command);
  Json head;
  head["param"] = std::string(to_string(sweep.param));
  head["values"] = sweep.values;
  document["sweep"] = std::move(head);
  return document;
}

std::string sweep_value_text(SweepParam param, std::int64_t value) {
  if (param == SweepParam::size) {
    return format_bytes(Bytes::of(static_cast<double>(value)));
  }
  return std::to_string(value);
}

void check_sweep_phase(Phase phase, const Sweep& sweep) {
  if (phase == Phase::decode && sweep.param == SweepParam::tokens) {
    throw UsageError(fmt::format("--sweep {}: a decode step takes one token per sequence; sweep "
                                 "batch, context or gpus, or give --phase prefill",
                                 sweep.text));
  }
  if (phase == Phase::prefill && sweep.param == SweepParam::context) {
    throw UsageError(fmt::format("--sweep {}: a prefill pass has no context before it; sweep "
                                 "tokens, batch or gpus, or give --phase decode",
                                 sweep.text));
  }
}

bool set_serving_point(SweepParam param, std::int64_t value, ServingRequest& serving) {
  switch (param) {
  case SweepParam::tokens:
    serving.tokens = value;
    return true;
  case SweepParam::batch:
    serving.batch = value;
    return true;
  case SweepParam::context:
    serving.context = value;
    return true;
  case SweepParam::gpus:
  case SweepParam::size:
    break;
  }
  return false;
}

std::string serving_axis_label(SweepParam param, Phase phase, std::string_view gpus) {
  switch (param) {
  case SweepParam::tokens:
    return "prompt tokens per sequence";
  case SweepParam::batch:
    return phase == Phase::prefill ? "prompts per pass (batch)" : "sequences per step (batch)";
  case SweepParam::context:
    return "context tokens per sequence";
  case SweepParam::gpus:
    return std::string(gpus);
  case SweepParam::size:
    break;
  }
  return "message size (bytes)";
}

void check_sweep_flags(const SweepOptions& options, const Style& style, bool has_sweep,
                       std::string_view sweep_hint) {
  if (!options.plot.empty()) {
    if (!has_sweep) {
      throw UsageError(
          fmt::format("--plot {}: a chart needs a sweep; add {}", options.plot, sweep_hint));
    }
    require_plot(options.plot);
  }
  if (style.explain && !options.sweep.empty()) {
    throw UsageError(fmt::format("--explain: derives one point, not a sweep; drop --sweep {} "
                                 "or --explain",
                                 options.sweep));
  }
}

} // namespace icx::cli
