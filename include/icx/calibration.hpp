// Fitting a link's expected-model parameters to measured collective times (for example the
// rows of an nccl-tests log), so that a user's own cluster drives every other command.
#pragma once

#include <span>
#include <vector>

#include "icx/catalog.hpp"
#include "icx/collectives.hpp"
#include "icx/units.hpp"

namespace icx {

/// One measured operation: message size S and time per operation.
struct TimedSample {
  Bytes size;
  Seconds time;
};

struct SampleFit {
  TimedSample measured;
  Seconds predicted;
  /// predicted / measured - 1.
  double error = 0;
};

struct CalibrationResult {
  /// `prior` with the fitted latency and efficiency in place: step latency and efficiency for
  /// a ring, the in-network reduction's latency and efficiency for nvls. The ramp and
  /// small-message slowdown stay the prior's (shared across links; one log cannot separate
  /// them from latency and efficiency).
  ExpectedModel model;
  /// Total latency term L the fit found (steps · step latency for a ring).
  Seconds latency;
  std::vector<SampleFit> samples;
  /// Median of |error| over the samples.
  double median_abs_error = 0;
};

/// Fits the latency L and efficiency e of
///   t = L + tb + ramp·tb/(tb + ramp/slowdown),  tb = wire_factor·S/(per-direction bandwidth·e)
/// for `op` with `algorithm` over `gpus` GPUs on `link` by least squares on relative time
/// error, (t_model - t)/t, with e in (0, 1] and L >= 0. Rows are grouped by regime (bandwidth
/// term below 20 µs, above 2 ms, between); each group's mean squared error counts once and the
/// bandwidth-bound group's three times, so the large-message efficiency is not traded for
/// mid-size shape. `prior` supplies the shared ramp and slowdown. Throws InputError with
/// fewer than two distinct sizes or an invalid request.
CalibrationResult calibrate(const Link& link, const ExpectedModel& prior, Collective op,
                            Algorithm algorithm, int gpus, std::span<const TimedSample> samples);

} // namespace icx
