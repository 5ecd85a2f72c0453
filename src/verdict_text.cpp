#include "icx/verdict_text.hpp"

#include <array>

#include <fmt/format.h>

#include "icx/units_format.hpp"

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
      {{Level::ok, "hidden by overlap"},
       {Level::marginal, "hard to hide behind compute"},
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
      fmt::format("{} of {} ({} model) vs {} of compute per {} ({})", format_seconds(verdict.comm),
                  traffic_kind(strategy), verdict.expected_model ? "expected" : "headline",
                  format_seconds(verdict.compute), phase, format_ratio(verdict.ratio));
  if (verdict.breaks_rule) {
    return fmt::format("{} parallel belongs on a scale-up (NVLink) link, not a {} link like "
                       "{}: {}",
                       to_string(strategy), to_string(wire->tier), wire->id, numbers);
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
  json["compute_seconds"] = json_number(verdict.compute.value());
  json["ratio"] = json_number(verdict.ratio);
  json["breaks_placement_rule"] = verdict.breaks_rule;
  return json;
}

std::string verdict_thresholds() {
  return fmt::format("ok ≤ {}× compute (hidden by overlap), marginal ≤ {}×, avoid above or off "
                     "the placement rule; the expected time where there is one",
                     ok_ratio, marginal_ratio);
}

std::string describe_rate(const ComputeRate& rate, int gpus) {
  return fmt::format("{} × {} at {} ({}) × {} utilisation", rate.gpu->id, gpus,
                     format_flops_rate(rate.peak), rate.peak_dtype, rate.utilization);
}

} // namespace icx
