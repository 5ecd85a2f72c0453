// Fitting a link's expected-model parameters to measured collective times (for example the
// rows of an nccl-tests log), so that a user's own cluster drives every other command.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

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
  /// small-message slowdown stay the prior's unless the log shows two regimes (`regimes`).
  ExpectedModel model;
  /// Total latency term L the fit found (steps · step latency for a ring).
  Seconds latency;
  /// Steps L counts at the fitted step latency (1 for nvls).
  std::int64_t steps = 1;
  std::vector<SampleFit> samples;
  /// 2 when the log showed two regimes (NCCL's LL protocol for small messages, Simple for
  /// large ones) and the fit took the ramp and slowdown from it; 1 when they are the prior's.
  int regimes = 1;
  /// Median of |error| over the samples.
  double median_abs_error = 0;
  /// The fitted efficiency reached its bound of 1 (the wire's catalog per-direction figure):
  /// the measured runs moved data at least as fast as the wire allows, so the log is most
  /// likely from a faster wire, and the bound, not the data, fixed the efficiency.
  bool efficiency_at_limit = false;
};

/// Median of |error| over the samples of `fit` whose size is at least `from`; nullopt when
/// there are none.
std::optional<double> median_abs_error_from(const CalibrationResult& fit, Bytes from);

/// Bounds a fit must meet before its parameters may stand in for a wire. The expected model
/// is accurate to about ±10 % at large sizes and ±30 % in the mid-size ramp (icx validate);
/// a fit that misses these by far more than that describes another wire, algorithm or GPU
/// count than the one asked for.
namespace fit_bounds {
/// Median |predicted / measured - 1| over the rows.
constexpr double max_median_abs_error = 0.15;
/// Largest |predicted / measured - 1| of any one row.
constexpr double max_row_abs_error = 0.50;
/// A fitted efficiency at or above this has run into its bound of 1.
constexpr double efficiency_limit = 0.999;
} // namespace fit_bounds

/// How a fit compares with fit_bounds.
struct FitQuality {
  bool median_within = true;
  /// Indices into CalibrationResult::samples of rows beyond max_row_abs_error.
  std::vector<std::size_t> rows_beyond;
  bool efficiency_at_limit = false;

  [[nodiscard]] bool acceptable() const {
    return median_within && rows_beyond.empty() && !efficiency_at_limit;
  }
};

FitQuality fit_quality(const CalibrationResult& fit);

/// What a fit prices, and how the fitted parameters enter its lines.
struct FitTarget {
  /// Expected time of a request with a model in place of the fitted link's parameters.
  std::function<Seconds(const ExpectedModel&, const CollectiveRequest&)> time;
  /// The operation, algorithm and GPUs of the log (the size is each sample's).
  CollectiveRequest request;
  /// The in-network reduction's latency and efficiency are fitted (nvls), not the step
  /// latency and efficiency.
  bool in_network = false;
  /// Steps paid at the fitted step latency (the ring's steps on one link).
  std::int64_t steps = 1;
  /// Latency the fit does not change (hops at another link's parameters).
  Seconds fixed_latency;
  /// Bytes the fitted link carries per byte of S, at `bandwidth` when the efficiency is 1.
  double wire_factor = 1;
  BytesPerSecond bandwidth;
};

/// Fits the latency L = steps · step latency (or the in-network reduction's latency) and
/// efficiency e of `target` by least squares on relative time error, (t_model - t)/t, with e
/// in (0, 1] (1 = the catalog's per-direction bandwidth, so no fit claims more than the wire
/// carries) and L >= 0. Rows are grouped by regime (bandwidth term below 20 µs, above 2 ms,
/// between); each group's mean squared error counts once and the bandwidth-bound group's
/// three times, so the large-message efficiency is not traded for mid-size shape. `prior`
/// supplies the shared ramp and slowdown. Unless the in-network reduction is fitted, the log
/// is then also split into two regimes at every size: a line fitted to each (LL below, Simple
/// above) gives all four parameters, taken when that halves the objective or better (a log
/// shows only the protocol NCCL chose at each size, and switching protocols makes a kink a
/// single regime cannot follow). Throws InputError with fewer than two distinct sizes.
CalibrationResult fit_expected_model(const FitTarget& target, const ExpectedModel& prior,
                                     std::span<const TimedSample> samples);

/// The expected model of `link` fitted to `samples` (fit_expected_model): the faster of
/// ring/LL and ring/Simple for a ring, the nvls line for nvls; automatic is fitted as a ring.
/// Throws InputError with fewer than two distinct sizes or an invalid request.
CalibrationResult calibrate(const Link& link, const ExpectedModel& prior, Collective op,
                            Algorithm algorithm, int gpus, std::span<const TimedSample> samples);

/// The scale-out link's expected model fitted to a log whose `gpus` span nodes of `fabric`
/// (fit_expected_model through fabric_time): its step latency, efficiency and, when the log
/// shows two regimes, ramp and small-message slowdown; the scale-up link keeps its own
/// parameters. `algorithm` is ring, tree, nvls-tree or automatic (the fastest of them, as the
/// log holds what NCCL chose). Throws InputError for a group inside one node, and as
/// fabric_lines and calibrate do.
CalibrationResult calibrate_fabric(const Fabric& fabric, const ExpectedModel& prior, Collective op,
                                   Algorithm algorithm, int gpus,
                                   std::span<const TimedSample> samples);

} // namespace icx
