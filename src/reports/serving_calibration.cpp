#include "icx/reports/serving_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/limits.hpp"
#include "icx/catalog/json.hpp"
#include "icx/measured/calibration.hpp"
#include "icx/serving/engine.hpp"
#include "icx/util/statistics.hpp"

namespace icx {

namespace {

/// Rounds of fitting the step's time, the prompt scale and the request's time in turn: each
/// depends on the others (a prompt's cost shows in TTFT and TPOT alike), and five rounds settle
/// them to within a percent on runs simulated with known costs (test_serving_run.cpp).
constexpr int fit_rounds = 5;
/// Golden-section steps over each range: its width shrinks 0.618 times a step, so 40 steps
/// leave a hundred-millionth of it.
constexpr int search_steps = 40;

/// The run's central figure of a latency: its mean, else its median; absent when neither.
std::optional<double> central(const std::vector<LatencyCheck>& checks, const char* latency) {
  for (const Statistic statistic : {Statistic::mean, Statistic::p50}) {
    for (const LatencyCheck& c : checks) {
      if (c.latency == latency && c.statistic == statistic && c.comparison.measured) {
        return c.comparison.error;
      }
    }
  }
  return std::nullopt;
}

/// The runs' central errors of `latency` (TPOT, else ITL for runs without it) with `costs`.
std::vector<double> errors_with(const Catalog& catalog, ServingValidationRequest request,
                                Engine engine, const EngineCosts& costs,
                                std::span<const ServingRun> runs, const char* latency) {
  engine.costs = costs;
  request.place.serving.engine = &engine;
  std::vector<double> errors;
  for (const ServingCheck& c : validate_serving(catalog, request, runs).checks) {
    std::optional<double> e = central(c.latencies, latency);
    if (!e && std::string_view(latency) == "TPOT") {
      e = central(c.latencies, "ITL");
    }
    if (e) {
      errors.push_back(*e);
    }
  }
  return errors;
}

/// Summed squared log error: a run twice too slow weighs as one twice too fast.
double log_cost(const std::vector<double>& errors) {
  double sum = 0;
  for (const double e : errors) {
    const double l = std::log(std::max(1 + e, 1e-9));
    sum += l * l;
  }
  return sum;
}

/// The x in [low, high] that minimises `cost` (golden-section search; the cost is taken as
/// unimodal over the range).
double golden_minimum(double low, double high, const std::function<double(double)>& cost) {
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double a = low;
  double b = high;
  double c = b - ratio * (b - a);
  double d = a + ratio * (b - a);
  double fc = cost(c);
  double fd = cost(d);
  for (int step = 0; step < search_steps; ++step) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = cost(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = cost(d);
    }
  }
  return (a + b) / 2;
}

/// The engine costs' range in seconds (limits::engine_cost_us).
double cost_max() {
  return limits::engine_cost_us.max * 1e-6;
}

/// A request's time below which it is taken as none: the golden search's resolution over
/// cost_max() is far finer.
constexpr double no_request_s = 1e-6;

/// The engine's time a prefilling step, lowered where the runs' TTFT is shorter than it alone
/// allows: once the request's own time has fallen to none, the prefill step is searched between
/// none and its catalog figure. At one load the two cannot be told apart, so the catalog's
/// figure stands until the runs need less; it is never raised.
Seconds lowered_prefill_step(const EngineCosts& costs,
                             const std::function<double(const EngineCosts&)>& cost) {
  if (costs.prefill_step.value() <= 0 || costs.request.value() > no_request_s) {
    return costs.prefill_step;
  }
  return Seconds::of(golden_minimum(0, costs.prefill_step.value(), [&](double prefill_step) {
    EngineCosts trial = costs;
    trial.prefill_step = Seconds::of(prefill_step);
    return cost(trial);
  }));
}

/// The fitted costs' errors on the runs (out.after_check) and the bounds they miss.
void judge_fit(ServingCalibration& out) {
  std::vector<double> abs_errors;
  for (const ServingCheck& c : out.after_check.checks) {
    for (const char* latency : {"TTFT", "TPOT"}) {
      if (const std::optional<double> e = central(c.latencies, latency)) {
        abs_errors.push_back(std::abs(*e));
      }
    }
  }
  out.median_abs_error = abs_errors.empty() ? 0 : detail::median(abs_errors);
  out.worst_abs_error = abs_errors.empty() ? 0 : *std::ranges::max_element(abs_errors);
  std::vector<std::string> misses;
  if (out.median_abs_error > fit_bounds::max_median_abs_error) {
    misses.push_back(fmt::format("median |error| {:.1f} % above {:.0f} %",
                                 out.median_abs_error * 100,
                                 fit_bounds::max_median_abs_error * 100));
  }
  if (out.worst_abs_error > fit_bounds::max_row_abs_error) {
    misses.push_back(fmt::format("a figure off by {:.1f} %, above {:.0f} %",
                                 out.worst_abs_error * 100, fit_bounds::max_row_abs_error * 100));
  }
  out.misses = fmt::format("{}", fmt::join(misses, "; "));
}

} // namespace

ServingCalibration calibrate_serving(const Catalog& catalog,
                                     const ServingValidationRequest& request,
                                     std::span<const ServingRun> runs) {
  ServingCalibration out;
  out.engine = engine_of(catalog, request.place.serving.engine);
  out.before = out.engine.costs;
  out.before_check = validate_serving(catalog, request, runs);
  EngineCosts costs = out.before;
  for (int round = 0; round < fit_rounds; ++round) {
    costs.step = Seconds::of(golden_minimum(0, cost_max(), [&](double step) {
      EngineCosts trial = costs;
      trial.step = Seconds::of(step);
      return log_cost(errors_with(catalog, request, out.engine, trial, runs, "TPOT"));
    }));
    // A prompt's cost shows in both: its own TTFT and the decode steps it shares.
    costs.prompt_scale = std::exp(golden_minimum(
        std::log(limits::prompt_scale.min), std::log(limits::prompt_scale.max),
        [&](double log_scale) {
          EngineCosts trial = costs;
          trial.prompt_scale = std::exp(log_scale);
          return log_cost(errors_with(catalog, request, out.engine, trial, runs, "TTFT")) +
                 log_cost(errors_with(catalog, request, out.engine, trial, runs, "TPOT"));
        }));
    costs.request = Seconds::of(golden_minimum(0, cost_max(), [&](double per_request) {
      EngineCosts trial = costs;
      trial.request = Seconds::of(per_request);
      return log_cost(errors_with(catalog, request, out.engine, trial, runs, "TTFT"));
    }));
    costs.prefill_step = lowered_prefill_step(costs, [&](const EngineCosts& trial) {
      return log_cost(errors_with(catalog, request, out.engine, trial, runs, "TTFT")) +
             log_cost(errors_with(catalog, request, out.engine, trial, runs, "TPOT"));
    });
  }
  out.fitted = costs;
  out.engine.costs = costs;
  // The overlay states every figure as the user's runs left it: none is borrowed any more.
  out.engine.costs_from.clear();
  out.engine.borrowed_costs.clear();
  ServingValidationRequest fitted = request;
  fitted.place.serving.engine = &out.engine;
  out.after_check = validate_serving(catalog, fitted, runs);
  judge_fit(out);
  return out;
}

nlohmann::ordered_json serving_overlay(const ServingCalibration& calibration) {
  nlohmann::ordered_json engine;
  to_json(engine, calibration.engine);
  return {{"engines", nlohmann::ordered_json::array({engine})}};
}

namespace {

Json costs_json(const EngineCosts& c) {
  Json json = {{"step_us", json_number(c.step.value() * 1e6)},
               {"layer_us", json_number(c.layer.value() * 1e6)},
               {"request_us", json_number(c.request.value() * 1e6)},
               {"sequence_us", json_number(c.sequence.value() * 1e6)},
               {"prompt_scale", json_number(c.prompt_scale)}};
  if (c.prefill_step.value() > 0) {
    // The catalog's, lowered only where the runs' TTFT needs less (lowered_prefill_step).
    json["prefill_step_us"] = json_number(c.prefill_step.value() * 1e6);
  }
  return json;
}

} // namespace

void to_json(Json& json, const ServingCalibration& calibration) {
  json = json_document("icx.serving-calibration/1");
  json["engine"] = calibration.engine.id;
  json["before"] = costs_json(calibration.before);
  json["fitted"] = costs_json(calibration.fitted);
  json["median_abs_error"] = json_number(calibration.median_abs_error);
  json["worst_abs_error"] = json_number(calibration.worst_abs_error);
  json["misses"] = calibration.misses.empty() ? Json() : Json(calibration.misses);
  Json before;
  to_json(before, calibration.before_check);
  Json after;
  to_json(after, calibration.after_check);
  json["runs_before"] = before["runs"];
  json["runs_after"] = after["runs"];
}

} // namespace icx
