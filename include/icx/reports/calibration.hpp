// `icx calibrate` as data: the operation a log measured, the fit of the wire's expected-model
// latency and efficiency, how it meets its quality bounds, and the wire's catalog entry with
// the fitted parameters (a --catalog overlay).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/calibration.hpp"
#include "icx/measured/nccl_log.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

namespace icx {

struct CalibrationRequest {
  const Link* link = nullptr;
  NcclTestLog log;
  /// Where the log came from (a file name), for the overlay's source and for messages.
  std::string log_name;
  /// Absent: the test the log names (collective_of_test), else all-reduce.
  std::optional<Collective> op;
  Algorithm algorithm = Algorithm::ring;
  int gpus = min_collective_gpus;
  /// Present when the log's GPUs span nodes: `link` is then the fabric's scale-out link,
  /// fitted through the fabric (calibrate_fabric).
  std::optional<Fabric> fabric;
};

/// Messages from 16 MiB up: there the bandwidth term dominates, and the expected model is
/// judged at its large-message accuracy.
constexpr double large_message_bytes = 16 * mebi;

struct CalibrationReport {
  const Link* link = nullptr;
  std::string log_name;
  Collective op = Collective::all_reduce;
  Algorithm algorithm = Algorithm::ring;
  int gpus = 0;
  /// Present when the log spans nodes: the fitted link is its scale-out link.
  std::optional<Fabric> fabric;
  int nodes = 1;
  CalibrationResult fit;
  /// Across nodes: median |error| over the rows of large_message_bytes or more.
  std::optional<double> median_abs_error_large;
  /// The log line of each of fit.samples.
  std::vector<std::size_t> lines;
  /// The fitted parameters as the algorithm uses them (ring steps and step latency, or the
  /// in-network reduction's fixed latency) and their efficiency.
  AlgorithmParameters fitted;
  FitQuality quality;
  /// Why the fit misses its bounds ("median |error| 534.2 % is above 15 %; …"); empty when
  /// it meets them.
  std::string misses;
  /// The wire's catalog entry with the fitted expected model in place.
  Link overlay;
};

/// The operation an nccl-tests binary measures: "all_reduce_perf" → all-reduce, "sendrecv"
/// → point-to-point; nullopt for a test icx does not model.
std::optional<Collective> collective_of_test(std::string_view test);

/// The GPUs per node of a log whose ranks run on several hosts (the ranks per host); nullopt
/// for one host or when the log does not name every rank's host. A node holds whole hosts
/// (several may share one scale-up domain, as on GB200 NVL72), so `given` (--gpus-per-node)
/// must be a multiple of the ranks per host: InputError naming --gpus-per-node otherwise, and
/// as ranks_per_host throws.
std::optional<int> log_gpus_per_node(const NcclTestLog& log, const std::string& log_name,
                                     std::optional<int> given);

/// The operation the fit uses: request.op, else the test the log names, else all-reduce.
/// Throws InputError naming the log for a test icx does not model.
Collective measured_collective(const CalibrationRequest& request);

/// Fits the link's expected model to the log: latency and efficiency from the rows (the mean
/// of each row's out-of-place and in-place times), ramp and small-message slowdown kept from
/// the link's own model, else from the first catalog link that has one (all four from the log
/// when it shows two regimes). With a fabric, the scale-out link's model through the fabric. Throws
/// InputError for a test icx does not model, an algorithm the link cannot run (check_algorithm), a
/// catalog without any expected model, and what calibrate() rejects.
CalibrationReport calibration_report(const Catalog& catalog, const CalibrationRequest& request);

/// What was fitted: "all-reduce over 8 GPUs on NVLink 4 [nvlink4], ring", or across nodes
/// which link the fit is for and how the GPUs spread over the nodes.
std::string fit_subject(const CalibrationReport& report);

/// A --catalog file holding `link` alone, in the catalog's own field names and units.
Json catalog_overlay(const Link& link);

/// The icx.calibrate/1 document.
void to_json(Json& json, const CalibrationReport& report);

} // namespace icx
