// What every table of published measurements shares: its files, and the bound a prediction
// is held to against a measured row.
#pragma once

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

/// Whether a prediction whose error is `error` (predicted / measured − 1) stays within
/// `bound`.
bool within_bound(double error, const Bound& bound);

} // namespace icx
