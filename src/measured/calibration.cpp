#include "icx/measured/calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/util/statistics.hpp"

namespace icx {

namespace {

// Regime bounds of the fit (tools/fit/fit_expected_model.py uses the same): a row whose bandwidth
// term is below 20 µs is latency-bound, above 2 ms bandwidth-bound.
constexpr double latency_bound_seconds = 20e-6;
constexpr double bandwidth_bound_seconds = 2e-3;
// The bandwidth-bound group counts three times: its accuracy bound (±10 %) is the tightest.
constexpr double bandwidth_group_weight = 3.0;
constexpr int simplex_iterations = 4000;
constexpr int simplex_restarts = 4;

using Point = std::array<double, 2>; // {L in seconds, efficiency}

/// The simplex has shrunk below the precision any caller needs (relative 1e-9).
bool converged(const Point& best, const Point& worst) {
  constexpr double tolerance = 1e-9;
  for (std::size_t i = 0; i < best.size(); ++i) {
    if (std::abs(worst[i] - best[i]) > tolerance * std::max(std::abs(best[i]), 1e-12)) {
      return false;
    }
  }
  return true;
}

/// Nelder–Mead minimisation of `f` in two dimensions from `start` with initial steps `step`.
Point minimise(const std::function<double(const Point&)>& f, Point start, Point step) {
  std::array<Point, 3> p{start, start, start};
  p[1][0] += step[0];
  p[2][1] += step[1];
  std::array<double, 3> v{f(p[0]), f(p[1]), f(p[2])};
  for (int it = 0; it < simplex_iterations; ++it) {
    std::array<std::size_t, 3> order{0, 1, 2};
    std::ranges::sort(order, [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    const Point best = p[order[0]];
    const Point mid = p[order[1]];
    const Point worst = p[order[2]];
    const double f_best = v[order[0]];
    const double f_mid = v[order[1]];
    const double f_worst = v[order[2]];
    if (converged(best, worst)) {
      break;
    }
    const Point c{(best[0] + mid[0]) / 2, (best[1] + mid[1]) / 2};
    auto along = [&](double t) {
      return Point{c[0] + t * (worst[0] - c[0]), c[1] + t * (worst[1] - c[1])};
    };
    Point next = along(-1.0);
    double f_next = f(next);
    if (f_next < f_best) {
      const Point expanded = along(-2.0);
      if (const double f_expanded = f(expanded); f_expanded < f_next) {
        next = expanded;
        f_next = f_expanded;
      }
    } else if (f_next >= f_mid) {
      next = along(0.5);
      f_next = f(next);
      if (f_next >= f_worst) {
        p = {best, Point{(best[0] + mid[0]) / 2, (best[1] + mid[1]) / 2},
             Point{(best[0] + worst[0]) / 2, (best[1] + worst[1]) / 2}};
        v = {f_best, f(p[1]), f(p[2])};
        continue;
      }
    }
    p = {best, mid, next};
    v = {f_best, f_mid, f_next};
  }
  const auto at = std::ranges::min_element(v) - v.begin();
  return p[static_cast<std::size_t>(at)];
}

ExpectedModel with_parameters(ExpectedModel model, bool in_network, Seconds latency,
                              double efficiency, std::int64_t steps) {
  if (in_network) {
    model.in_network_reduction = InNetworkReduction{efficiency, latency};
  } else {
    model.efficiency = efficiency;
    model.step_latency = latency / static_cast<double>(steps);
  }
  return model;
}

Seconds time_of(const FitTarget& target, const ExpectedModel& model, Bytes size) {
  CollectiveRequest request = target.request;
  request.size = size;
  return target.time(model, request);
}

/// The fit's objective: squared relative time errors, grouped by regime (the bandwidth term
/// at the model's efficiency below 20 µs, above 2 ms, between); each group's mean counts
/// once and the bandwidth-bound group's bandwidth_group_weight times.
double fit_error(const FitTarget& target, const ExpectedModel& model,
                 std::span<const TimedSample> samples) {
  const double efficiency =
      target.in_network ? model.in_network_reduction->efficiency : model.efficiency;
  const double seconds_per_byte = target.wire_factor / (target.bandwidth.value() * efficiency);
  std::map<int, std::pair<double, int>> groups; // regime -> (sum of squares, count)
  for (const TimedSample& sample : samples) {
    const double tb = sample.size.value() * seconds_per_byte;
    const int regime = tb < latency_bound_seconds ? 0 : (tb > bandwidth_bound_seconds ? 2 : 1);
    const double error = time_of(target, model, sample.size) / sample.time - 1.0;
    groups[regime].first += error * error;
    groups[regime].second += 1;
  }
  double total = 0;
  for (const auto& [regime, group] : groups) {
    total += group.first / group.second * (regime == 2 ? bandwidth_group_weight : 1.0);
  }
  return total;
}

/// One line t = L + r·S fitted to `samples` by least squares on relative error,
/// Σ((L + r·S)/t − 1)², with L ≥ 0 and r > 0: {L in seconds, r in seconds per byte}.
Point fit_line(std::span<const TimedSample> samples) {
  double aa = 0, ab = 0, bb = 0, a1 = 0, b1 = 0;
  for (const TimedSample& s : samples) {
    const double a = 1.0 / s.time.value();
    const double b = s.size.value() / s.time.value();
    aa += a * a;
    ab += a * b;
    bb += b * b;
    a1 += a;
    b1 += b;
  }
  const double det = aa * bb - ab * ab;
  Point line{(a1 * bb - b1 * ab) / det, (aa * b1 - ab * a1) / det};
  if (!(det > 0) || line[0] < 0) {
    line = {0.0, b1 / bb}; // through the origin: the latency is below what the rows resolve
  }
  if (!(line[1] > 0)) {
    line = {a1 / aa, std::numeric_limits<double>::min()};
  }
  return line;
}

/// The two protocols fitted as two regimes split at `split` (sizes sorted): the small
/// messages' line is LL (its latency, less the fixed part, gives the step latency; its rate the
/// slowdown), the large ones' is Simple (its rate gives the efficiency, its extra latency the
/// ramp).
ExpectedModel two_regime_model(const FitTarget& target, ExpectedModel model,
                               std::span<const TimedSample> sorted, std::size_t split) {
  const Point ll = fit_line(sorted.first(split));
  const Point simple = fit_line(sorted.subspan(split));
  const double steps = static_cast<double>(target.steps);
  const double efficiency =
      std::min(1.0, target.wire_factor / (target.bandwidth.value() * simple[1]));
  model.efficiency = efficiency;
  model.step_latency = Seconds::of(std::max(0.0, ll[0] - target.fixed_latency.value()) / steps);
  model.ramp = Seconds::of(std::max(0.0, simple[0] - ll[0]));
  model.small_message_slowdown = std::max(0.0, ll[1] / simple[1] - 1.0);
  return model;
}

/// Replaces `result`'s model by a two-regime one (LL below a split, Simple above) where that
/// fits the log clearly better: by at least two_regime_gain in the fit's objective. Needs
/// min_regime_sizes distinct sizes on each side of the split.
void try_two_regimes(const FitTarget& target, std::span<const TimedSample> samples,
                     CalibrationResult& result) {
  constexpr std::size_t min_regime_sizes = 2;
  constexpr double two_regime_gain = 0.5;
  std::vector<TimedSample> sorted(samples.begin(), samples.end());
  std::ranges::sort(sorted, {}, [](const TimedSample& s) { return s.size.value(); });
  const double single = fit_error(target, result.model, samples);
  double best = single * two_regime_gain;
  for (std::size_t split = min_regime_sizes; split + min_regime_sizes <= sorted.size(); ++split) {
    if (sorted[split].size.value() == sorted[split - 1].size.value()) {
      continue; // one size on both sides of a split would tie it to neither regime
    }
    const ExpectedModel model = two_regime_model(target, result.model, sorted, split);
    if (const double error = fit_error(target, model, samples); error < best) {
      best = error;
      result.model = model;
      result.latency = model.step_latency * static_cast<double>(target.steps);
      result.regimes = 2;
    }
  }
}

void check_samples(std::span<const TimedSample> samples) {
  std::set<double> sizes;
  for (const TimedSample& sample : samples) {
    if (!(sample.time.value() > 0) || !(sample.size.value() > 0)) {
      throw InputError("every sample needs a positive size and time");
    }
    sizes.insert(sample.size.value());
  }
  if (sizes.size() < 2) {
    throw InputError(fmt::format("a fit of latency and efficiency needs at least 2 message "
                                 "sizes, got {}",
                                 sizes.size()));
  }
}

/// {L, e} minimising the objective with the prior's ramp and slowdown, from the smallest
/// message's time as latency and the largest one's rate.
Point fit_latency_and_efficiency(const FitTarget& target, const ExpectedModel& prior,
                                 std::span<const TimedSample> samples) {
  auto objective = [&](const Point& x) {
    const double latency = x[0];
    const double efficiency = x[1];
    if (latency < 0 || !(efficiency > 0) || efficiency > 1) {
      return std::numeric_limits<double>::infinity();
    }
    return fit_error(
        target,
        with_parameters(prior, target.in_network, Seconds::of(latency), efficiency, target.steps),
        samples);
  };
  const double wire_seconds_per_byte = target.wire_factor / target.bandwidth.value();
  const auto [smallest, largest] = std::ranges::minmax_element(
      samples, [](const TimedSample& a, const TimedSample& b) { return a.size < b.size; });
  Point x{
      smallest->time.value() / 2,
      std::clamp(largest->size.value() * wire_seconds_per_byte / largest->time.value(), 0.05, 1.0)};
  for (int restart = 0; restart < simplex_restarts; ++restart) {
    x = minimise(objective, x, {std::max(x[0] / 4, 1e-7), x[1] / 8});
  }
  return x;
}

/// The fitted link's part of the fastest line, read off the pricing function: with the
/// fitted model at a low efficiency (so that its link, not another, sets the rate) and no step
/// latency, ramp or slowdown, a size S takes the fixed latency plus S · wire factor /
/// (bandwidth · efficiency); a unit of step latency adds the steps.
FitTarget probed(FitTarget target, const ExpectedModel& prior) {
  constexpr double large = gibi;      // any size where the bandwidth term dominates
  constexpr double probe_step = 1e-6; // any step latency: the time is linear in it
  constexpr double probe_efficiency = 0.01;
  ExpectedModel probe = prior;
  probe.efficiency = probe_efficiency;
  probe.step_latency = Seconds{};
  probe.ramp = Seconds{};
  probe.small_message_slowdown = 0;
  const double per_byte =
      (time_of(target, probe, Bytes::of(2 * large)) - time_of(target, probe, Bytes::of(large)))
          .value() /
      large;
  const Bytes one = Bytes::of(1);
  target.fixed_latency = Seconds::of(time_of(target, probe, one).value() - per_byte);
  ExpectedModel stepped = probe;
  stepped.step_latency = Seconds::of(probe_step);
  const double steps =
      (time_of(target, stepped, one) - time_of(target, probe, one)).value() / probe_step;
  target.steps = std::max<std::int64_t>(1, std::llround(steps));
  target.wire_factor = per_byte * target.bandwidth.value() * probe_efficiency;
  return target;
}

} // namespace

CalibrationResult fit_expected_model(const FitTarget& target, const ExpectedModel& prior,
                                     std::span<const TimedSample> samples) {
  check_samples(samples);
  const Point x = fit_latency_and_efficiency(target, prior, samples);
  // Published logs carry 3–5 significant digits: keep the efficiency to 1e-4 and the latency
  // to 1 ns, so the written overlay does not pretend to more.
  constexpr double efficiency_steps = 1e4; // per unit
  constexpr double latency_steps = 1e9;    // per second
  const double efficiency = std::round(x[1] * efficiency_steps) / efficiency_steps;
  CalibrationResult result;
  result.steps = target.steps;
  result.latency = Seconds::of(std::round(x[0] * latency_steps) / latency_steps);
  result.model =
      with_parameters(prior, target.in_network, result.latency, efficiency, target.steps);
  if (!target.in_network) {
    try_two_regimes(target, samples, result);
  }
  std::vector<double> errors;
  for (const TimedSample& sample : samples) {
    const Seconds predicted = time_of(target, result.model, sample.size);
    const double error = predicted / sample.time - 1.0;
    result.samples.push_back({sample, predicted, error});
    errors.push_back(std::abs(error));
  }
  result.median_abs_error = detail::median(errors);
  result.efficiency_at_limit =
      (target.in_network ? efficiency : result.model.efficiency) >= fit_bounds::efficiency_limit;
  return result;
}

CalibrationResult calibrate(const Link& link, const ExpectedModel& prior, Collective op,
                            Algorithm algorithm, int gpus, std::span<const TimedSample> samples) {
  if (gpus < min_collective_gpus || gpus > limits::max_domain) {
    throw InputError(fmt::format("a collective needs from {} to {} GPUs, got {}",
                                 min_collective_gpus, limits::max_domain, gpus));
  }
  check_samples(samples);
  if (const Check check = check_algorithm(link, op, algorithm); !check) {
    throw InputError(check.reason());
  }
  // A log is fitted as a ring unless nvls is named.
  if (algorithm == Algorithm::automatic) {
    algorithm = Algorithm::ring;
  }
  const bool in_network = algorithm == Algorithm::nvls;
  CollectiveRequest request;
  request.op = op;
  request.algorithm = algorithm;
  request.gpus = gpus;
  request.size = Bytes::of(1);
  const FitTarget target{[&link](const ExpectedModel& model, const CollectiveRequest& r) {
                           return expected_time(link, model, r);
                         },
                         request,
                         in_network,
                         in_network ? 1 : ring_steps(op, gpus),
                         Seconds{},
                         wire_factor(op, algorithm, gpus),
                         link.per_direction_bandwidth.high};
  return fit_expected_model(target, prior, samples);
}

CalibrationResult calibrate_fabric(const Fabric& fabric, const ExpectedModel& prior, Collective op,
                                   Algorithm algorithm, int gpus,
                                   std::span<const TimedSample> samples) {
  if (fabric_nodes(fabric, gpus) < 2) {
    throw InputError(fmt::format("{} GPUs fit in one node of {}: calibrate the link inside the "
                                 "node instead",
                                 gpus, fabric.gpus_per_node));
  }
  // fabric_lines prices with the scale-out link's own model present: a copy holds the prior.
  auto scale_out = std::make_shared<Link>(*fabric.scale_out);
  scale_out->expected = prior;
  Fabric priced = fabric;
  priced.scale_out = scale_out.get();
  if (const Check check = check_fabric(priced, op, algorithm, gpus); !check) {
    throw InputError(check.reason());
  }
  FitTarget target;
  target.time = [priced, scale_out](const ExpectedModel& model, const CollectiveRequest& request) {
    return fabric_time(priced, model, request);
  };
  target.request = {op, algorithm, gpus, Bytes::of(1), {}};
  target.bandwidth = fabric.scale_out->per_direction_bandwidth.high * fabric.nics_per_node;
  return fit_expected_model(probed(target, prior), prior, samples);
}

std::optional<double> median_abs_error_from(const CalibrationResult& fit, Bytes from) {
  std::vector<double> errors;
  for (const SampleFit& sample : fit.samples) {
    if (sample.measured.size.value() >= from.value()) {
      errors.push_back(std::abs(sample.error));
    }
  }
  if (errors.empty()) {
    return std::nullopt;
  }
  return detail::median(errors);
}

FitQuality fit_quality(const CalibrationResult& fit) {
  FitQuality quality;
  quality.median_within = fit.median_abs_error <= fit_bounds::max_median_abs_error;
  for (std::size_t i = 0; i < fit.samples.size(); ++i) {
    if (std::abs(fit.samples[i].error) > fit_bounds::max_row_abs_error) {
      quality.rows_beyond.push_back(i);
    }
  }
  quality.efficiency_at_limit = fit.efficiency_at_limit;
  return quality;
}

} // namespace icx
