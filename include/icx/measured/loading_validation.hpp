// Checking the expected load model (icx/host/weight_loading.hpp) against published load times (CSV
// files such as data/measurements/loads.csv): predicted against measured per row, each row held to
// its own bound.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

#include "icx/measured/comparison.hpp"

namespace icx {

/// One published load. Columns: hardware, gpus (all on one node), host_link, weights_GB,
/// from (a storage tier id, or "storage" for a per-node tier at storage_GBps), storage_GBps,
/// loader, measured_s, use (fit, held-out or outside), bound (the factor a fit or held-out
/// prediction must stay within), source.
struct MeasuredLoad {
  /// The file the row was read from, and its line there.
  std::string origin;
  std::size_t line = 0;
  std::string hardware;
  int gpus = 0;
  std::string host_link;
  Bytes weights;
  std::string from;
  std::optional<BytesPerSecond> storage;
  std::string loader;
  Seconds measured;
  std::string use;
  /// measured / predicted and predicted / measured must both stay at or below it (absent for an
  /// outside row).
  std::optional<double> bound;
  std::string source;
};

/// --from's value in a row for a tier the catalog lacks: one node's storage at storage_GBps.
inline constexpr std::string_view row_storage = "storage";

/// Parses a loads CSV. Throws InputError "<origin>:<line>: column '…': …" for a missing column or
/// a malformed value.
std::vector<MeasuredLoad> parse_loads_csv(std::string_view text, const std::string& origin);

/// The shipped loads file (data/measurements/loads.csv, embedded).
std::vector<MeasurementFile> shipped_loads();

struct LoadCheck {
  MeasuredLoad row;
  /// Seconds: the expected load against the measured one, held to the row's factor bound
  /// unless the row is outside.
  Comparison comparison;
};

/// Every row priced by the catalog's loaders. Throws InputError "<origin>:<line>: column '…': …"
/// for a host link, tier or loader the catalog lacks, or a host link of another tier.
std::vector<LoadCheck> check_loads(const Catalog& catalog, std::span<const MeasuredLoad> rows);

/// The rows summarised per loader and use, in name order.
std::map<std::pair<std::string, std::string>, ComparisonSummary>
summarise_loads(std::span<const LoadCheck> checks);

} // namespace icx
