// One collective operation on one wire, at one size or a sweep of sizes: the headline and
// expected time, algbw and busbw as nccl-tests reports them, with the terms of each figure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "icx/base/expected.hpp"
#include "icx/base/json_values.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/nccl_log.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

namespace icx {

struct CollectiveReportRequest {
  Collective op = Collective::all_reduce;
  Algorithm algorithm = Algorithm::automatic;
  int gpus = min_collective_gpus;
  /// The message sizes S, in order; more than one makes a sweep.
  std::vector<Bytes> sizes;
  /// nccl-tests' NCCL unless an engine's all-reduce is asked for.
  RunSetup setup;
};

/// The expected model's terms at one size: the latency and bandwidth terms of the line that
/// runs (collectives.hpp).
struct ExpectedTimeTerms {
  Seconds latency;
  Seconds bandwidth;
};

struct CollectiveRow {
  Bytes size;
  CollectiveCost headline;
  /// Absent when the expected model is unavailable (CollectiveReport::expected_model says why);
  /// its kernel is the line that ran.
  std::optional<CollectiveCost> expected;
  std::optional<ExpectedTimeTerms> terms;
  /// With a measured run (attach_measured): the log's row of this size, if it has one.
  std::optional<CollectiveCost> measured;
};

/// One line of the expected model as a reader sees it: latency + S / rate.
struct LineFormula {
  Kernel kernel = Kernel::ring_simple;
  Seconds latency;
  /// S over the line's bandwidth term.
  BytesPerSecond rate;
};

/// What the expected model's formula uses for this operation, algorithm and link.
struct ExpectedFormula {
  /// NCCL's lines for the requested algorithm (every algorithm for auto).
  std::vector<LineFormula> lines;
  /// The size at which the full-rate line's latency and bandwidth terms are equal.
  Bytes crossover;
  /// The link topology assumed (PCIe); nullptr where the link has none.
  const LinkTopology* topology = nullptr;
};

struct CollectiveReport {
  Collective op = Collective::all_reduce;
  /// As requested; each row's expected cost names the line that ran.
  Algorithm algorithm = Algorithm::automatic;
  RunSetup setup;
  int gpus = 0;
  /// The wire: the scale-up link inside one node, the scale-out link (one NIC's) when the
  /// group spans nodes.
  const Link* link = nullptr;
  /// Present when the group spans nodes: how its GPUs are spread (fabric.hpp).
  std::optional<Fabric> fabric;
  int nodes = 1;
  /// More than one size was asked for.
  bool sweep = false;
  std::vector<CollectiveRow> rows;
  /// The headline formula: headline_factor × S over the headline bandwidth (fast end).
  double headline_factor = 0;
  BytesPerSecond headline_bandwidth;
  Convention headline_convention = Convention::each_way;
  /// nccl-tests' busbw = algbw × busbw_factor.
  double busbw_factor = 0;
  /// Whether the link has an expected model for the algorithm (check_expected_model); when it
  /// has not, the reason, and `expected` is absent.
  Check expected_model;
  std::optional<ExpectedFormula> expected;
  /// What the figures assume beyond the formulas' own terms (empty when nothing more).
  std::vector<std::string> assumptions;
  /// The nccl-tests log attached (attach_measured), as the user named it; empty without one.
  std::string measured_from;
  /// Every row of that log as a cost (its sizes need not be the report's).
  std::vector<std::pair<Bytes, CollectiveCost>> measured_points;
};

/// Throws InputError (GroupError for a group the link cannot hold) when `algorithm` cannot
/// run `op` on `link` (check_algorithm), for nvls on a link without in-network
/// reduction parameters, and for a size that is not positive.
CollectiveReport collective_report(const Link& link, const CollectiveReportRequest& request);

/// The same across nodes: the fabric's lines (fabric.hpp) when the group spans nodes, the
/// scale-up link's inside one. Throws InputError with check_fabric's reason as well.
CollectiveReport collective_report(const Fabric& fabric, const CollectiveReportRequest& request);

/// Lays a measured nccl-tests run over the report: each log row becomes a cost whose time is
/// the mean of its out-of-place and in-place times (NcclTestRow::mean_time), algbw S / time
/// and busbw algbw × the report's factor, as nccl-tests computes them; rows of the report with
/// the same size get it as `measured`. Throws InputError "<origin>: …" when the log names
/// another operation's test or lists another number of ranks than the report's GPUs.
void attach_measured(CollectiveReport& report, const NcclTestLog& log, const std::string& origin);

/// Adds what ran to a JSON object: `algo` and `protocol` (null for an engine kernel) of
/// `kernel` when there is one, and `topology` when one was assumed.
void put_route(Json& json, std::optional<Kernel> kernel, const LinkTopology* topology);

/// The icx.collective/1 document without its rows: "rows" is an empty array, in its place.
Json collective_frame(const CollectiveReport& report);

/// One element of the document's rows[].
Json collective_row_json(const CollectiveReport& report, const CollectiveRow& row);

/// The icx.collective/1 document: the frame with every row.
void to_json(Json& json, const CollectiveReport& report);

} // namespace icx
