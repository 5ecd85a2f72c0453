// Checking icx offload's expected decode step against published offloaded runs (CSV files
// such as data/measurements/offload.csv): tokens per second predicted against measured per row.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/host/host_link.hpp"

#include "icx/measured/comparison.hpp"

namespace icx {

/// One published run. Columns: hardware, gpu, hbm_held_GB, gpus, host_link, model, dtype,
/// batch, engine, measured_tokens_per_s, bound, use (held-out or outside), note, source. An
/// outside row (a run icx cannot price) needs only hardware, use, note and source.
struct MeasuredOffload {
  std::string origin;
  std::size_t line = 0;
  std::string hardware;
  /// The catalog GPU whose HBM bandwidth prices the resident bytes.
  std::string gpu;
  /// HBM the run held weights in; the rest of the weights is the spill.
  Bytes hbm_held;
  int gpus = 0;
  std::string host_link;
  std::string model;
  std::string dtype;
  int batch = 0;
  OffloadEngine engine = OffloadEngine::vllm;
  std::optional<double> measured_tokens_per_s;
  /// The factor the prediction must stay within (a held-out row).
  std::optional<double> bound;
  std::string use;
  std::string note;
  std::string source;
};

/// Parses an offload CSV. Throws InputError "<origin>:<line>: column '…': …".
std::vector<MeasuredOffload> parse_offloads_csv(std::string_view text, const std::string& origin);

/// The shipped file (data/measurements/offload.csv, embedded).
std::vector<MeasurementFile> shipped_offloads();

} // namespace icx
