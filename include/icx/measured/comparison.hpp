// What every table of published measurements shares: its files, the bound a prediction is
// held to, one measured row against its prediction, and the summary of a set of rows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icx {

/// A file of published measurements: where it came from (a path, or "<shipped>/<name>" for
/// one compiled into the binary) and its text.
struct MeasurementFile {
  std::string origin;
  std::string_view text;
};

/// How far a prediction may stray from its measurement: by a fraction of it either way
/// (|predicted / measured − 1| ≤ value), or by a factor either way (predicted / measured and
/// measured / predicted both ≤ value).
struct Bound {
  enum class Kind { tolerance, factor };
  Kind kind = Kind::tolerance;
  double value = 0;
};

/// A row's factor bound, absent for a row that states none.
std::optional<Bound> factor_bound(const std::optional<double>& factor);

/// Whether a prediction whose error is `error` (predicted / measured − 1) stays within
/// `bound`.
bool within_bound(double error, const Bound& bound);

/// One measured row against its prediction, in the unit of the table it belongs to (seconds,
/// bytes per second, tokens per second).
struct Comparison {
  /// Absent where the source states no figure.
  std::optional<double> measured;
  /// Absent where the model cannot price the row.
  std::optional<double> predicted;
  /// predicted / measured − 1 (0 without both).
  double error = 0;
  /// Absent for a row no bound is stated for.
  std::optional<Bound> bound;
  /// Whether the row is held to its bound (a fit or held-out row), not only shown (outside).
  bool held = false;

  /// Whether the row has a prediction, and it lies within the row's bound.
  [[nodiscard]] bool within() const;
  /// Whether the row fails the validation: held to its bound, predicted, and outside it.
  [[nodiscard]] bool misses() const;
};

/// The comparison of a prediction (absent when the model cannot price the row) with its
/// measurement. A prediction needs a measurement to be compared with.
Comparison compare(std::optional<double> measured, std::optional<double> predicted,
                   std::optional<Bound> bound, bool held);

/// What a row's last column says of it.
enum class RowVerdict {
  unpriced, ///< no prediction
  shown,    ///< predicted, not held to a bound
  within,   ///< held, and within its bound
  out,      ///< held, and outside its bound
};
RowVerdict verdict(const Comparison& c);

/// A set of rows: how many, how many predicted, how many within their bound, and the median
/// and worst |error| of the predicted ones.
struct ComparisonSummary {
  int rows = 0;
  int predicted = 0;
  int within = 0;
  double median_abs_error = 0;
  double worst_abs_error = 0;
};

/// Counts rows one at a time into a ComparisonSummary.
class ComparisonTally {
public:
  void add(const Comparison& c);
  [[nodiscard]] ComparisonSummary summary() const;

private:
  ComparisonSummary counts_;
  std::vector<double> abs_errors_;
};

} // namespace icx
