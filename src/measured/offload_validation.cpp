#include "icx/measured/offload_validation.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/csv_rows.hpp"
#include "base/embedded_files.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"

namespace icx {

namespace {

constexpr std::array required_columns{
    "hardware", "gpu",    "hbm_held_GB",           "gpus",  "host_link", "model", "dtype",
    "batch",    "engine", "measured_tokens_per_s", "bound", "use",       "note",  "source"};
constexpr std::array uses{"held-out", "outside"};

/// The columns a held-out row must give to be priced.
void read_priced(const detail::CsvRow& row, MeasuredOffload& m) {
  m.gpu = row.text("gpu");
  m.hbm_held = Bytes::of(row.bounded("hbm_held_GB", limits::capacity_GB) * giga);
  m.gpus = row.whole("gpus", 1, limits::max_domain);
  m.host_link = row.text("host_link");
  m.model = row.text("model");
  m.dtype = row.text("dtype");
  m.batch = row.whole("batch", 1, limits::max_domain);
  const auto engine = parse_enum<OffloadEngine>(row.text("engine"));
  if (!engine) {
    row.fail("engine", fmt::format("unknown engine '{}'; known: {}", row.text("engine"),
                                   fmt::join(names<OffloadEngine>(), ", ")));
  }
  m.engine = *engine;
  m.measured_tokens_per_s = row.bounded("measured_tokens_per_s", limits::tokens_per_second);
  m.bound = row.bounded("bound", limits::validation_bound);
}

MeasuredOffload read_row(const detail::CsvRow& row, std::size_t line) {
  MeasuredOffload m;
  m.line = line;
  m.hardware = row.text("hardware");
  m.use = row.text("use");
  if (std::ranges::find(uses, m.use) == uses.end()) {
    row.fail("use", fmt::format("unknown use '{}'; known: {}", m.use, fmt::join(uses, ", ")));
  }
  m.note = row.text("note");
  m.source = row.text("source");
  if (m.use == "outside") {
    if (m.note.empty()) {
      row.fail("note", "expected why icx cannot price an outside row");
    }
    if (!row.text("measured_tokens_per_s").empty()) {
      m.measured_tokens_per_s = row.bounded("measured_tokens_per_s", limits::tokens_per_second);
    }
    return m;
  }
  read_priced(row, m);
  return m;
}

} // namespace

std::vector<MeasuredOffload> parse_offloads_csv(std::string_view text, const std::string& origin) {
  std::vector<MeasuredOffload> rows =
      detail::read_csv_rows<MeasuredOffload>(text, origin, required_columns, read_row);
  for (MeasuredOffload& row : rows) {
    row.origin = origin;
  }
  return rows;
}

std::vector<MeasurementFile> shipped_offloads() {
  const detail::EmbeddedFile& file = detail::embedded_offload_files().front();
  return {{"<shipped>/" + std::string(file.name), file.text}};
}

} // namespace icx
