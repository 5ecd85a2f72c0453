// Checking the expected model against published collective measurements (CSV files such as
// data/measurements/collectives.csv): predicted against measured per row, with the bound each row
// is held to.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/expected.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/comparison.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

namespace icx {

/// One published measurement. Columns: hardware, link, gpus, nodes, op, algo, size_bytes,
/// time_us, busbw_GBps, source, and optionally use (fit, held-out or outside; held-out
/// when absent). A row gives time_us, busbw_GBps or both; the other follows from
/// busbw = S / time · busbw_factor. A row over several nodes holds gpus / nodes GPUs on each;
/// with the optional columns scale_up (the link inside a node) or nics_per_node, its link is
/// one NIC's and the row is priced across nodes (icx/wire/fabric.hpp); without them the row is one
/// domain on its link (one GPU per node on a NIC, or an NVLink domain across trays).
struct MeasuredCollective {
  std::size_t line = 0;
  std::string hardware;
  std::string link;
  int gpus = 0;
  int nodes = 0;
  Collective op = Collective::all_reduce;
  Algorithm algorithm = Algorithm::ring;
  /// Optional columns impl (who ran an all-reduce; empty: NCCL) and topology (empty: the
  /// link's default).
  RunSetup setup;
  /// Optional column scale_up: the link inside each node of a row across nodes; empty for one
  /// domain on `link`.
  std::string scale_up;
  /// Optional column nics_per_node: the NICs of `link` each node uses; 0 when absent (one per
  /// GPU of the node).
  int nics_per_node = 0;
  Bytes size;
  Seconds time;
  BytesPerSecond busbw;
  /// "fit": used to fit the catalog's parameters; "held-out": not used, checked against its
  /// bound; "outside": a case the model is known not to cover, shown but not held to a bound.
  std::string use;
  std::string source;

  /// Whether the row is priced across nodes (fabric_collective): several nodes and scale_up
  /// or nics_per_node given.
  [[nodiscard]] bool spans_nodes() const;
  /// The group's GPUs on each node.
  [[nodiscard]] int gpus_per_node() const { return gpus / nodes; }
  /// The NICs each node uses: nics_per_node, or one per GPU of the node (rails) without it.
  [[nodiscard]] int nics() const { return nics_per_node > 0 ? nics_per_node : gpus_per_node(); }
};

/// The nodes of a row that spans them: scale_up inside (absent with one GPU per node), NICs of
/// the row's link between. Throws LookupError for a link the catalog lacks.
Fabric fabric_of(const Catalog& catalog, const MeasuredCollective& m);

/// Parses a measurements CSV (RFC 4180 quoting; columns as MeasuredCollective). Throws InputError
/// "<origin>:<line>: …" for a missing column, a malformed value or an unknown op, algorithm or use.
std::vector<MeasuredCollective> parse_measurements_csv(std::string_view text,
                                                       const std::string& origin);

enum class Metric { busbw, time };

constexpr std::array<EnumName<Metric>, 2> enum_names(Metric /*unused*/) {
  return {{{Metric::busbw, "busbw"}, {Metric::time, "time"}}};
}

/// The accuracy target for a message size: busbw within ±10 % from 1 GiB, ±25 % from
/// 128 MiB, and time within ±50 % below (where run-to-run and version-to-version spread of
/// published small-message times is itself of that order).
struct AccuracyBound {
  Metric metric = Metric::time;
  double tolerance = 0;
  /// The bound as every validation table holds a row to it: ±tolerance.
  [[nodiscard]] Bound bound() const { return {Bound::Kind::tolerance, tolerance}; }
};
AccuracyBound accuracy_bound(Bytes size);

struct AccuracyCheck {
  MeasuredCollective measured;
  /// The expected model's prediction, or why it does not cover the row.
  Expected<CollectiveCost> predicted = unexpected("not predicted");
  AccuracyBound bound;
  /// The bound's metric measured against predicted; rows of use "fit" and "held-out" are held
  /// to the bound, "outside" rows are only shown.
  Comparison comparison;
};

struct AccuracyReport {
  std::vector<AccuracyCheck> checks;
  /// By use: "fit", "held-out", "outside".
  std::map<std::string, ComparisonSummary, std::less<>> by_use;
  /// By wire (the link id, with the implementation and topology where a row names them:
  /// "nvlink4 vllm", "pcie4 host"), then by use.
  std::map<std::string, std::map<std::string, ComparisonSummary, std::less<>>, std::less<>> by_wire;
  /// Indices into `checks` of the rows held to a bound whose prediction misses it (a row the
  /// model cannot predict is not counted: it says why instead).
  [[nodiscard]] std::vector<std::size_t> out_of_bound() const;
};

/// The measurements inside the binary (data/measurements/collectives*.csv).
std::vector<MeasurementFile> shipped_measurements();

/// The by_wire key of a row: "nvlink4", "nvlink4 vllm", "pcie4 host", "ib-ndr across nodes".
std::string wire_label(const MeasuredCollective& m);

/// Predicts every row with the expected model of the catalog's link, or across nodes
/// (fabric_collective) for a row that spans them. Throws LookupError for a row naming an
/// unknown link.
AccuracyReport check_accuracy(const Catalog& catalog,
                              const std::vector<MeasuredCollective>& measurements);

} // namespace icx
