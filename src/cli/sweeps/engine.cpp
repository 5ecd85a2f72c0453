#include "sweeps/engine.hpp"

#include <utility>

#include "output/json.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

Json null_row(const RowKeys& keys) {
  Json row = Json::object();
  for (const std::string& key : keys) {
    row[key.substr(0, key.find('.'))] = nullptr;
  }
  return row;
}

SweepWriter::SweepWriter(const Style& style, const SweepOptions& options)
    : style_(style), options_(options) {}

void SweepWriter::start(Json head, std::vector<Column> columns, RowKeys keys) {
  keys_ = std::move(keys);
  progress_ = std::make_unique<Progress>("rows computed", 0, stderr_is_terminal());
  // A chart is drawn before anything is written, so its rows wait for it in memory.
  if (style_.format != Format::table && options_.plot.empty()) {
    stream_stdout();
  }
  switch (style_.format) {
  case Format::table:
    table_ = TextTable(std::move(columns));
    return;
  case Format::json:
    print_out("{}", json_rows_open(head));
    return;
  case Format::csv:
    print_out("{}", csv_header(keys_));
    return;
  }
}

void SweepWriter::add(const Json& row, std::vector<std::string> cells) {
  switch (style_.format) {
  case Format::table:
    table_.add_row(cells);
    break;
  case Format::json:
    append_stdout(json_row(row, !any_rows_));
    break;
  case Format::csv:
    print_out("{}", csv_line(row, keys_));
    break;
  }
  any_rows_ = true;
  if (progress_) {
    progress_->step();
  }
}

void SweepWriter::finish(const SweepEnd& end) {
  if (progress_) {
    progress_->done();
  }
  if (!options_.plot.empty()) {
    write_plot(end.plot, options_.plot);
  }
  switch (style_.format) {
  case Format::table:
    print_out("{}\n", fit_table(style_, table_));
    for (const std::string& note : end.notes) {
      print_out("{}\n", note);
    }
    if (!options_.plot.empty()) {
      print_out("chart: {}\n", options_.plot);
    }
    return;
  case Format::json:
    print_out("{}", json_rows_close(end.tail, any_rows_));
    return;
  case Format::csv:
    return;
  }
}

} // namespace icx::cli
