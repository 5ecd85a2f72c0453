// Reading `rocm-smi --showtopo` (icx/topo/matrix.hpp): its weight, hops, link-type and NUMA tables,
// by words rather than column positions (old and new layouts differ in both).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/topo/matrix.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/text_file.hpp"
#include "topo/read.hpp"

namespace icx::topo_read {

namespace {

constexpr std::string_view known_rocm_link_types = "XGMI, PCIE (0 or X on the diagonal)";

enum class RocmTable { weight, hops, link_type, numa, other };

/// The table a "=== … ===" banner opens.
RocmTable rocm_table(std::string_view banner) {
  if (banner.find("Weight between two GPUs") != std::string_view::npos) {
    return RocmTable::weight;
  }
  if (banner.find("Hops between two GPUs") != std::string_view::npos) {
    return RocmTable::hops;
  }
  if (banner.find("Link Type between two GPUs") != std::string_view::npos) {
    return RocmTable::link_type;
  }
  if (banner.find("Numa Nodes") != std::string_view::npos) {
    return RocmTable::numa;
  }
  return RocmTable::other;
}

bool is_banner(const std::vector<Word>& words) {
  return !words.empty() && words[0].text.starts_with("==");
}

struct RocmCells {
  std::vector<std::string> labels;
  /// Row-major words of the cells with where they were.
  std::vector<std::string> cells;
  std::vector<std::size_t> lines;
  std::vector<std::size_t> columns;
  std::size_t header_line = 0;
  bool complete = false;
};

/// Reads the output of `rocm-smi --showtopo`.
class RocmReader {
public:
  void line(std::string_view text, std::size_t number) {
    last_line_ = number;
    last_line_end_ = text.size() + 1;
    const std::vector<Word> words = split_words(text);
    if (is_banner(words)) {
      close_table();
      table_ = rocm_table(text);
      if (table_ != RocmTable::other && table_ != RocmTable::numa) {
        if (tables_.contains(table_)) {
          fail(number, words[0].column,
               "a second rocm-smi table of the same kind; give the output of one node per file");
        }
        current_ = &tables_[table_];
      }
      return;
    }
    if (table_ == RocmTable::numa) {
      numa_line(text, words, number);
      return;
    }
    if (current_ == nullptr) {
      return;
    }
    if (words.empty()) {
      if (!current_->labels.empty()) {
        close_table();
      }
      return;
    }
    if (current_->labels.empty()) {
      header(words, number);
    } else {
      row(words, number, text.size());
    }
  }

  TopoMatrix finish() {
    close_table();
    const auto link_types = tables_.find(RocmTable::link_type);
    if (link_types == tables_.end()) {
      throw InputError("rocm-smi output without a 'Link Type between two GPUs' table; give the "
                       "whole output of `rocm-smi --showtopo`");
    }
    const RocmCells& links = link_types->second;
    if (links.labels.empty()) {
      fail(links.header_line + 1, 1, "the 'Link Type between two GPUs' table has no rows");
    }
    for (const auto& [kind, table] : tables_) {
      if (table.labels != links.labels) {
        fail(table.header_line, 1,
             fmt::format("this table has {} GPUs but the link type table on line {} has {}",
                         table.labels.size(), links.header_line, links.labels.size()));
      }
    }
    TopoMatrix matrix;
    matrix.source = TopoSource::rocm_smi;
    const std::size_t count = links.labels.size();
    for (const std::string& label : links.labels) {
      TopoDevice device;
      device.label = label;
      matrix.devices.push_back(device);
    }
    matrix.weights = numbers(RocmTable::weight, "weight");
    matrix.hops = numbers(RocmTable::hops, "hops");
    matrix.paths.resize(count * count);
    std::vector<std::size_t> row_lines(count);
    for (std::size_t row = 0; row < count; ++row) {
      row_lines[row] = links.lines[row * count];
      for (std::size_t column = 0; column < count; ++column) {
        const std::size_t at = row * count + column;
        const Word word{links.cells[at], links.columns[at]};
        TopoPath path = rocm_path(word, row == column, links.lines[at]);
        if (path.kind == PathKind::xgmi) {
          const bool one_hop = matrix.hops.empty() || matrix.hops[at] == 1;
          path.links = one_hop ? 1 : 0;
        }
        check_cell(matrix, row, column, path, row_lines, word);
        matrix.paths[at] = std::move(path);
      }
    }
    for (const auto& [gpu, numa] : numa_) {
      if (gpu >= count) {
        fail(numa.line, numa.column,
             fmt::format("NUMA line for GPU {}, but the tables have {} GPUs", gpu, count));
      }
      matrix.devices[gpu].numa_affinity = numa.affinity.empty() ? numa.node : numa.affinity;
    }
    return matrix;
  }

private:
  struct Numa {
    std::string node;
    std::string affinity;
    std::size_t line = 0;
    std::size_t column = 0;
  };

  void header(const std::vector<Word>& words, std::size_t number) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i].text != fmt::format("GPU{}", i)) {
        fail(number, words[i].column,
             fmt::format("expected the column 'GPU{}' in the table header, found {}", i,
                         shown(words[i].text)));
      }
      if (i == max_devices) {
        fail(number, words[i].column, fmt::format("more than {} GPU columns", max_devices));
      }
      current_->labels.emplace_back(words[i].text);
    }
    current_->header_line = number;
  }

  void row(const std::vector<Word>& words, std::size_t number, std::size_t length) {
    RocmCells& table = *current_;
    const std::size_t count = table.labels.size();
    const std::size_t row = table.cells.size() / count;
    if (row == count) {
      fail(number, words[0].column,
           fmt::format("a row after the table's {} rows; expected a blank line", count));
    }
    if (words[0].text != table.labels[row]) {
      fail(number, words[0].column,
           fmt::format("expected the row of '{}', found {}", table.labels[row],
                       shown(words[0].text)));
    }
    if (words.size() != count + 1) {
      const std::size_t column = words.size() < count + 1 ? length + 1 : words[count + 1].column;
      fail(number, column,
           fmt::format("row '{}' has {} cells; the header has {}", table.labels[row],
                       words.size() - 1, count));
    }
    for (std::size_t i = 1; i < words.size(); ++i) {
      table.cells.emplace_back(words[i].text);
      table.lines.push_back(number);
      table.columns.push_back(words[i].column);
    }
    if (table.cells.size() == count * count) {
      table.complete = true;
    }
  }

  void close_table() {
    if (current_ != nullptr && !current_->labels.empty() && !current_->complete) {
      const std::size_t count = current_->labels.size();
      const std::size_t rows = current_->cells.size() / count;
      fail(last_line_, last_line_end_,
           fmt::format("the table ends after {} of its {} rows (no row '{}'); it looks truncated",
                       rows, count, current_->labels[rows]));
    }
    current_ = nullptr;
    table_ = RocmTable::other;
  }

  /// "GPU[0]\t\t: (Topology) Numa Node: 0" or, older, "GPU 0          : (Topology) Numa
  /// Affinity: 0".
  void numa_line(std::string_view text, const std::vector<Word>& words, std::size_t number) {
    if (words.empty()) {
      return;
    }
    constexpr std::string_view node_key = "Numa Node:";
    constexpr std::string_view affinity_key = "Numa Affinity:";
    const auto node_at = text.find(node_key);
    const auto affinity_at = text.find(affinity_key);
    if (node_at == std::string_view::npos && affinity_at == std::string_view::npos) {
      return;
    }
    std::string_view label = text.substr(0, text.find(':'));
    std::size_t first = 0;
    while (first < label.size() && is_blank(label[first])) {
      ++first;
    }
    label.remove_prefix(first);
    std::string digits;
    if (label.starts_with("GPU")) {
      for (const char c : label.substr(3)) {
        if (c >= '0' && c <= '9') {
          digits += c;
        } else if (c != '[' && c != ']' && !is_blank(c)) {
          digits.clear();
          break;
        }
      }
    }
    const auto gpu = parse_whole(digits);
    if (!gpu || *gpu >= static_cast<std::int64_t>(max_devices)) {
      fail(number, first + 1,
           fmt::format("expected 'GPU[<n>]' or 'GPU <n>' before the NUMA node, found {}",
                       shown(label)));
    }
    const bool is_node = node_at != std::string_view::npos;
    const std::size_t value_at =
        is_node ? node_at + node_key.size() : affinity_at + affinity_key.size();
    const std::vector<Word> value = split_words(text.substr(value_at));
    if (value.size() != 1) {
      fail(number, value_at + 1, "expected one NUMA node number after the colon");
    }
    Numa& numa = numa_[static_cast<std::size_t>(*gpu)];
    (is_node ? numa.node : numa.affinity) = std::string(value[0].text);
    numa.line = number;
    numa.column = first + 1;
  }

  [[nodiscard]] TopoPath rocm_path(const Word& word, bool diagonal, std::size_t line) const {
    TopoPath path;
    path.token = std::string(word.text);
    if (diagonal && (word.text == "0" || word.text == "X" || word.text == "N/A")) {
      path.kind = PathKind::self;
      return path;
    }
    if (word.text == "XGMI") {
      path.kind = PathKind::xgmi;
    } else if (word.text == "PCIE") {
      path.kind = PathKind::pcie;
    } else if (word.text == "N/A" && !diagonal) {
      path.kind = PathKind::unknown;
    } else {
      fail(line, word.column,
           fmt::format("unknown link type {}; known: {}", shown(word.text), known_rocm_link_types));
    }
    return path;
  }

  /// The weight or hops table as numbers (N/A as nothing), or empty without that table.
  std::vector<std::optional<int>> numbers(RocmTable kind, std::string_view what) const {
    std::vector<std::optional<int>> values;
    const auto table = tables_.find(kind);
    if (table == tables_.end()) {
      return values;
    }
    const RocmCells& cells = table->second;
    const std::size_t count = cells.labels.size();
    for (std::size_t at = 0; at < cells.cells.size(); ++at) {
      const std::string& cell = cells.cells[at];
      if (cell == "N/A") {
        values.emplace_back();
        continue;
      }
      const auto value = parse_whole(cell);
      if (!value || *value > 1000000) {
        fail(cells.lines[at], cells.columns[at],
             fmt::format("{} {} is not a whole number", what, shown(cell)));
      }
      values.emplace_back(static_cast<int>(*value));
      const std::size_t row = at / count;
      const std::size_t column = at % count;
      if (column < row && values[column * count + row] != values[at]) {
        fail(cells.lines[at], cells.columns[at],
             fmt::format("{} from GPU{} to GPU{} is {} but the other way on line {} is {}; the "
                         "table is not symmetric",
                         what, row, column, cell, cells.lines[column * count + row],
                         cells.cells[column * count + row]));
      }
    }
    return values;
  }

  std::map<RocmTable, RocmCells> tables_;
  RocmCells* current_ = nullptr;
  RocmTable table_ = RocmTable::other;
  std::map<std::size_t, Numa> numa_;
  std::size_t last_line_ = 1;
  std::size_t last_line_end_ = 1;
};

} // namespace

bool is_rocm_output(std::string_view text) {
  return text.find("between two GPUs") != std::string_view::npos;
}

TopoMatrix read_rocm_smi(std::string_view text) {
  return read_lines<RocmReader>(text);
}

} // namespace icx::topo_read
