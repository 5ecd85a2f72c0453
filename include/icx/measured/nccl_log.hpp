// Reading the output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf, …) exactly as
// those tools print it: "#" header and comment lines, the column header naming the fields
// (with or without the redop/root columns of older versions and other tests), one row per
// message size with an out-of-place and an in-place group, and the "# Avg bus bandwidth"
// trailer that every complete run ends with.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/units.hpp"

namespace icx {

/// One group of a row: out-of-place or in-place.
struct NcclTestTiming {
  Seconds time;
  BytesPerSecond algbw;
  BytesPerSecond busbw;
};

struct NcclTestRow {
  /// 1-based line number in the log.
  std::size_t line = 0;
  /// The message size S in bytes.
  Bytes size;
  NcclTestTiming out_of_place;
  std::optional<NcclTestTiming> in_place;
  /// The time a fit uses: the mean of the groups present.
  [[nodiscard]] Seconds mean_time() const;
};

struct NcclTestLog {
  /// "all_reduce_perf" from "# Collective test starting: …", when the log names its test.
  std::string test;
  /// Ranks listed under "# Using devices" (highest rank + 1), when the log lists them.
  std::optional<int> ranks;
  /// The host each listed rank ran on ("… Pid 6899 on host-a device 0 …"), when the log says.
  std::map<int, std::string> rank_hosts;
  std::vector<NcclTestRow> rows;
  /// The trailer's "# Avg bus bandwidth" figure.
  BytesPerSecond average_busbw;
};

/// Parses a complete log. Throws InputError "<origin>:<line>: <what was wrong>" for a
/// malformed row, a missing column header, a log with no rows, or one that ends before its
/// "# Avg bus bandwidth" trailer (truncated).
NcclTestLog parse_nccl_test_log(std::string_view text, const std::string& origin);

/// The ranks each host of `log` ran (the GPUs per node of a run with one GPU per rank);
/// nullopt unless the log names the host of every rank. Throws InputError "<origin>: …" when
/// the hosts run different numbers of ranks.
std::optional<int> ranks_per_host(const NcclTestLog& log, const std::string& origin);

} // namespace icx
