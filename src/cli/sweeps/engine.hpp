// The one sweep engine's output: a command's sweep starts it with its document's head, its
// table's columns and its rows' keys, adds the rows of each point as it computes them, and
// ends it with its notes and chart. JSON and CSV rows are written as they come, so memory does
// not grow with the point count; a table (its widths depend on every row) and a chart (drawn
// before anything is printed) are written at the end.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/util/table.hpp"
#include "options/sweep.hpp"
#include "output/output.hpp"
#include "output/plot.hpp"
#include "output/progress.hpp"

namespace icx::cli {

/// The keys of a sweep's rows, in order: "key", or "key.field" for a field of a nested object
/// (a CSV column of its own).
using RowKeys = std::vector<std::string>;

/// A row whose every key is null: a point (or series) that could not be computed fills in
/// what it knows and its note.
Json null_row(const RowKeys& keys);

/// What a sweep has to say once its last point is computed.
struct SweepEnd {
  /// The document's keys after rows[].
  Json tail = Json::object();
  /// Lines under the table: what was assumed, points that could not be computed.
  std::vector<std::string> notes;
  PlotSpec plot;
};

/// Where a sweep's rows go.
class SweepSink {
public:
  SweepSink() = default;
  SweepSink(const SweepSink&) = delete;
  SweepSink& operator=(const SweepSink&) = delete;
  SweepSink(SweepSink&&) = delete;
  SweepSink& operator=(SweepSink&&) = delete;
  virtual ~SweepSink() = default;
  /// Once, before the first row: the document's keys before rows[] (icx.sweep/1, see
  /// sweep_document), the table's columns and the rows' keys.
  virtual void start(Json head, std::vector<Column> columns, RowKeys keys) = 0;
  /// A row of the document and its table cells (one per column, or none when not tabulating).
  virtual void add(const Json& row, std::vector<std::string> cells) = 0;
  /// Whether the table's cells are wanted (each costs a formatted number).
  [[nodiscard]] virtual bool tabulating() const = 0;
  /// Whether the chart's points are wanted.
  [[nodiscard]] virtual bool charting() const = 0;
};

/// A sweep's output on stdout in the format the flags ask for, and its --plot chart.
class SweepWriter final : public SweepSink {
public:
  SweepWriter(const Style& style, const SweepOptions& options);
  void start(Json head, std::vector<Column> columns, RowKeys keys) override;
  void add(const Json& row, std::vector<std::string> cells) override;
  [[nodiscard]] bool tabulating() const override { return style_.format == Format::table; }
  [[nodiscard]] bool charting() const override { return !options_.plot.empty(); }
  /// Draws the chart (when asked), then ends the table with its notes or the document.
  void finish(const SweepEnd& end);

private:
  Style style_;
  SweepOptions options_;
  TextTable table_{{}};
  RowKeys keys_;
  bool any_rows_ = false;
  /// Rows computed, on stderr while a long sweep runs.
  std::unique_ptr<Progress> progress_;
};

/// A sweep's rows kept whole, without a table: what icx report's page and the tests read.
class SweepRows final : public SweepSink {
public:
  void start(Json /*head*/, std::vector<Column> /*columns*/, RowKeys /*keys*/) override {}
  void add(const Json& row, std::vector<std::string> /*cells*/) override { rows.push_back(row); }
  [[nodiscard]] bool tabulating() const override { return false; }
  [[nodiscard]] bool charting() const override { return true; }
  Json rows = Json::array();
};

} // namespace icx::cli
