#include "icx/measured/loading_validation.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/csv_rows.hpp"
#include "base/embedded_files.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/host/weight_loading.hpp"

namespace icx {

namespace {

constexpr std::array required_columns{"hardware", "gpus",       "host_link", "weights_GB", "from",
                                      "loader",   "measured_s", "use",       "source"};
constexpr std::array uses{"fit", "held-out", "outside"};

/// A number in `bounds` (limits.hpp); an empty field is an error.
/// from, and storage_GBps for a row read from storage the catalog lacks.
void read_storage(const detail::CsvRow& row, MeasuredLoad& m) {
  m.from = row.text("from");
  const bool has_rate = row.has("storage_GBps") && !row.text("storage_GBps").empty();
  if (m.from == row_storage) {
    if (!has_rate) {
      row.fail("storage_GBps", "expected the storage's read rate for from = storage");
    }
    m.storage = gigabytes_per_second(row.bounded("storage_GBps", limits::bandwidth_GBps));
  } else if (m.from.empty()) {
    row.fail("from", "expected a storage tier id (e.g. page-cache) or 'storage'");
  } else if (has_rate) {
    row.fail("storage_GBps", fmt::format("given with from = {}; the tier has its own rate; "
                                         "leave it empty",
                                         m.from));
  }
}

void read_use(const detail::CsvRow& row, MeasuredLoad& m) {
  m.use = row.text("use");
  if (std::ranges::find(uses, m.use) == uses.end()) {
    row.fail("use", fmt::format("unknown use '{}'; known: {}", m.use, fmt::join(uses, ", ")));
  }
  const bool has_bound = row.has("bound") && !row.text("bound").empty();
  if (m.use != "outside") {
    if (!has_bound) {
      row.fail("bound", "expected the factor a fit or held-out row must stay within, e.g. 2");
    }
    m.bound = row.bounded("bound", limits::validation_bound);
  }
}

MeasuredLoad read_row(const detail::CsvRow& row, std::size_t line) {
  MeasuredLoad m;
  m.line = line;
  m.hardware = row.text("hardware");
  m.gpus = row.whole("gpus", 1, limits::max_domain);
  m.host_link = row.text("host_link");
  m.weights = Bytes::of(row.bounded("weights_GB", limits::capacity_GB) * giga);
  read_storage(row, m);
  m.loader = row.text("loader");
  m.measured = Seconds::of(row.bounded("measured_s", limits::budget_seconds));
  read_use(row, m);
  m.source = row.text("source");
  return m;
}

/// Looks a row's id up; an unknown one is an error naming the file, line and column.

} // namespace

std::vector<MeasuredLoad> parse_loads_csv(std::string_view text, const std::string& origin) {
  std::vector<MeasuredLoad> rows =
      detail::read_csv_rows<MeasuredLoad>(text, origin, required_columns, read_row);
  for (MeasuredLoad& row : rows) {
    row.origin = origin;
  }
  return rows;
}

std::vector<MeasurementFile> shipped_loads() {
  const detail::EmbeddedFile& file = detail::embedded_load_files().front();
  return {{"<shipped>/" + std::string(file.name), file.text}};
}

std::vector<LoadCheck> check_loads(const Catalog& catalog, std::span<const MeasuredLoad> rows) {
  std::vector<LoadCheck> checks;
  for (const MeasuredLoad& row : rows) {
    const Link& link = detail::look_up(
        row, "host_link", [&]() -> const Link& { return catalog.link(row.host_link); });
    if (link.tier != Tier::host) {
      throw InputError(fmt::format("{}:{}: column 'host_link': '{}' is a {} link; a load "
                                   "crosses a host link (e.g. pcie5)",
                                   row.origin, row.line, row.host_link, to_string(link.tier)));
    }
    StorageTier storage;
    const StorageTier* tier = &storage;
    if (row.storage) {
      storage.id = std::string(row_storage);
      storage.read_bandwidth = {*row.storage, *row.storage};
    } else {
      tier = &detail::look_up(row, "from",
                              [&]() -> const StorageTier& { return catalog.storage(row.from); });
    }
    const Loader& loader = detail::look_up(
        row, "loader", [&]() -> const Loader& { return catalog.loader(row.loader); });
    // Every row is one node: its GPUs share the node's reads.
    const ColdStartInput path{row.weights, row.gpus, row.gpus, &link, tier};
    const std::optional<Bound> bound = factor_bound(row.bound);
    checks.push_back({row, compare(row.measured.value(), expected_load(path, loader).total.value(),
                                   bound, row.use != "outside")});
  }
  return checks;
}

std::map<std::pair<std::string, std::string>, ComparisonSummary>
summarise_loads(std::span<const LoadCheck> checks) {
  std::map<std::pair<std::string, std::string>, ComparisonTally> tallies;
  for (const LoadCheck& c : checks) {
    tallies[{c.row.loader, c.row.use}].add(c.comparison);
  }
  std::map<std::pair<std::string, std::string>, ComparisonSummary> summaries;
  for (const auto& [key, tally] : tallies) {
    summaries[key] = tally.summary();
  }
  return summaries;
}

} // namespace icx
