// Reading `nvidia-smi topo -m` and `rocm-smi --showtopo` (icx/topo.hpp). Both are read by
// words, not by column positions: drivers differ in column widths and in tabs or spaces.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include <fmt/format.h>

#include "icx/error.hpp"
#include "icx/topo.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/text_file.hpp"

namespace icx {

namespace {

/// The most devices (GPUs and NICs) one matrix may have: far above any node (8 GPUs and 13
/// NICs in the largest fixture), low enough that the n² cells of a hostile input stay small.
constexpr std::size_t max_devices = 512;
/// The most NVLinks one NV<n> cell may name.
constexpr std::int64_t max_links_per_cell = 999;

constexpr std::string_view known_nvidia_paths = "X, NV<n>, PIX, PXB, PHB, NODE, SYS";
constexpr std::string_view known_rocm_link_types = "XGMI, PCIE (0 or X on the diagonal)";

struct Word {
  std::string_view text;
  /// 1-based byte column in the line.
  std::size_t column = 0;
};

/// The length of the ANSI escape sequence starting at `at` (an ESC byte): CSI "ESC [ params
/// intermediates final" or ESC and one more byte.
std::size_t escape_length(std::string_view line, std::size_t at) {
  if (at + 1 >= line.size()) {
    return 1;
  }
  if (line[at + 1] != '[') {
    return 2;
  }
  std::size_t end = at + 2;
  while (end < line.size() && line[end] >= 0x20 && line[end] <= 0x3f) {
    ++end;
  }
  return std::min(end + 1, line.size()) - at;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/// The words of `line`: runs of characters between blanks, ANSI escapes removed.
std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t at = 0;
  while (at < line.size()) {
    if (is_blank(line[at])) {
      ++at;
      continue;
    }
    if (line[at] == '\x1b') {
      at += escape_length(line, at);
      continue;
    }
    const std::size_t start = at;
    while (at < line.size() && !is_blank(line[at]) && line[at] != '\x1b') {
      ++at;
    }
    words.push_back({line.substr(start, at - start), start + 1});
  }
  return words;
}

/// `text` for a message: printable ASCII as is, other bytes as \xNN, at most 32 characters.
std::string shown(std::string_view text) {
  constexpr std::size_t max_shown = 32;
  std::string text_shown;
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      text_shown += static_cast<char>(byte);
    } else {
      text_shown += fmt::format("\\x{:02x}", byte);
    }
  }
  if (text.size() > max_shown) {
    text_shown += "...";
  }
  return "'" + text_shown + "'";
}

[[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what) {
  throw InputError(fmt::format("line {}, column {}: {}", line, column, what));
}

bool is_numbered(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix) || text.size() == prefix.size() ||
      text.size() > prefix.size() + 4) {
    return false;
  }
  return std::ranges::all_of(text.substr(prefix.size()),
                             [](char c) { return c >= '0' && c <= '9'; });
}

bool is_gpu_label(std::string_view text) {
  return is_numbered(text, "GPU");
}

/// A NIC column: "NIC3", or the device's own name as old drivers print it ("mlx5_0",
/// "mlx4_1", "bnxt_re0"): a letter, then letters, digits and "_.-:", with a digit.
bool is_nic_label(std::string_view text) {
  if (is_numbered(text, "NIC")) {
    return true;
  }
  if (text.empty() || text.size() > 32 || is_gpu_label(text)) {
    return false;
  }
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!letter(text.front())) {
    return false;
  }
  const bool allowed = std::ranges::all_of(text, [&](char c) {
    return letter(c) || digit(c) || c == '_' || c == '.' || c == '-' || c == ':';
  });
  return allowed && std::ranges::any_of(text, digit) && text.back() != ':';
}

/// `nvidia-smi topo -m`'s header line: "GPU0 GPU1 … NIC0 … CPU Affinity …".
bool is_nvidia_header(const std::vector<Word>& words) {
  if (words.size() < 2 || !is_gpu_label(words[0].text)) {
    return false;
  }
  const std::string_view second = words[1].text;
  return is_gpu_label(second) || is_nic_label(second) || second == "CPU" || second == "NUMA";
}

enum class Affinity { cpu, numa, gpu_numa_id };

struct NvidiaHeader {
  std::vector<TopoDevice> devices;
  std::vector<Affinity> affinities;
};

NvidiaHeader read_nvidia_header(const std::vector<Word>& words, std::size_t line) {
  NvidiaHeader header;
  const auto at = [&](std::size_t i, std::string_view text) {
    return i < words.size() && words[i].text == text;
  };
  for (std::size_t i = 0; i < words.size();) {
    const Word& word = words[i];
    if (at(i, "CPU") && at(i + 1, "Affinity")) {
      header.affinities.push_back(Affinity::cpu);
      i += 2;
    } else if (at(i, "NUMA") && at(i + 1, "Affinity")) {
      header.affinities.push_back(Affinity::numa);
      i += 2;
    } else if (at(i, "GPU") && at(i + 1, "NUMA") && at(i + 2, "ID")) {
      header.affinities.push_back(Affinity::gpu_numa_id);
      i += 3;
    } else if (header.affinities.empty() && (is_gpu_label(word.text) || is_nic_label(word.text))) {
      const bool duplicate = std::ranges::any_of(
          header.devices, [&](const TopoDevice& device) { return device.label == word.text; });
      if (duplicate) {
        fail(line, word.column,
             fmt::format("column {} appears twice in the header", shown(word.text)));
      }
      if (header.devices.size() == max_devices) {
        fail(line, word.column, fmt::format("more than {} device columns", max_devices));
      }
      TopoDevice device;
      device.kind = is_gpu_label(word.text) ? DeviceKind::gpu : DeviceKind::nic;
      device.label = std::string(word.text);
      header.devices.push_back(std::move(device));
      ++i;
    } else {
      fail(line, word.column,
           fmt::format("unknown column {} in the matrix header; known: GPU<n>, NIC<n> or a NIC "
                       "name, then CPU Affinity, NUMA Affinity, GPU NUMA ID",
                       shown(word.text)));
    }
  }
  return header;
}

/// A cell of `nvidia-smi topo -m`, or nothing when the token is unknown.
std::optional<TopoPath> nvidia_path(std::string_view token) {
  TopoPath path;
  path.token = std::string(token);
  if (token.starts_with("NV") && token.size() > 2) {
    const auto links = parse_whole(token.substr(2));
    if (!links || *links < 1 || *links > max_links_per_cell) {
      return std::nullopt;
    }
    path.kind = PathKind::nvlink;
    path.links = static_cast<int>(*links);
    return path;
  }
  if (token == "NV") {
    return std::nullopt;
  }
  const auto kind = parse_enum<PathKind>(token);
  if (!kind || *kind == PathKind::xgmi || *kind == PathKind::pcie) {
    return std::nullopt;
  }
  path.kind = *kind;
  return path;
}

/// Checks the cell at (row, column) against the diagonal rule and, below the diagonal,
/// against the mirror cell already read.
void check_cell(const TopoMatrix& matrix, std::size_t row, std::size_t column, const TopoPath& path,
                const std::vector<std::size_t>& row_lines, const Word& word) {
  const std::string& from = matrix.devices[row].label;
  const std::string& to = matrix.devices[column].label;
  const std::size_t line = row_lines[row];
  if (row == column && path.kind != PathKind::self) {
    fail(line, word.column,
         fmt::format("{} to itself is {}; expected 'X'", from, shown(word.text)));
  }
  if (row != column && path.kind == PathKind::self) {
    fail(line, word.column,
         fmt::format("{} to {} is 'X', which only the diagonal may be", from, to));
  }
  if (column < row) {
    const TopoPath& mirror = matrix.path(column, row);
    if (mirror.kind != path.kind || mirror.links != path.links) {
      fail(line, word.column,
           fmt::format("{} to {} is {} but {} to {} on line {} is {}; the matrix is not symmetric",
                       from, to, shown(word.text), to, from, row_lines[column],
                       shown(mirror.token)));
    }
  }
}

/// Reads the output of `nvidia-smi topo -m`.
class NvidiaReader {
public:
  void line(std::string_view text, std::size_t number) {
    last_line_ = number;
    last_line_end_ = text.size() + 1;
    const std::vector<Word> words = split_words(text);
    switch (state_) {
    case State::before:
      if (is_nvidia_header(words)) {
        start(words, number);
      }
      return;
    case State::rows:
      if (!words.empty()) {
        row(words, number, text.size());
      }
      return;
    case State::after:
      after(words, number);
      return;
    }
  }

  TopoMatrix finish() {
    if (state_ == State::before) {
      throw InputError("no GPU topology matrix: expected the header line of `nvidia-smi topo -m` "
                       "('GPU0  GPU1  …  CPU Affinity …') or the tables of `rocm-smi "
                       "--showtopo`");
    }
    if (state_ == State::rows) {
      truncated(last_line_, last_line_end_);
    }
    return std::move(matrix_);
  }

private:
  enum class State { before, rows, after };

  void start(const std::vector<Word>& words, std::size_t number) {
    NvidiaHeader header = read_nvidia_header(words, number);
    matrix_.source = TopoSource::nvidia_smi;
    matrix_.devices = std::move(header.devices);
    matrix_.paths.resize(matrix_.devices.size() * matrix_.devices.size());
    affinities_ = std::move(header.affinities);
    state_ = State::rows;
  }

  [[noreturn]] void truncated(std::size_t line, std::size_t column) const {
    fail(line, column,
         fmt::format("the matrix ends after {} of its {} rows (no row '{}'); it looks truncated",
                     row_lines_.size(), matrix_.devices.size(),
                     matrix_.devices[row_lines_.size()].label));
  }

  void row(const std::vector<Word>& words, std::size_t number, std::size_t length) {
    const std::size_t row = row_lines_.size();
    const std::size_t count = matrix_.devices.size();
    TopoDevice& device = matrix_.devices[row];
    if (words[0].text != device.label) {
      const bool labelled = is_gpu_label(words[0].text) || is_nic_label(words[0].text);
      if (!labelled) {
        truncated(number, words[0].column);
      }
      fail(number, words[0].column,
           fmt::format("expected the row of '{}', found {}", device.label, shown(words[0].text)));
    }
    row_lines_.push_back(number);
    if (words.size() < count + 1) {
      fail(number, length + 1,
           fmt::format("row '{}' has {} of the header's {} cells; it looks truncated", device.label,
                       words.size() - 1, count));
    }
    for (std::size_t column = 0; column < count; ++column) {
      const Word& word = words[column + 1];
      auto path = nvidia_path(word.text);
      if (!path) {
        fail(number, word.column,
             fmt::format("unknown path {}; known: {}", shown(word.text), known_nvidia_paths));
      }
      check_cell(matrix_, row, column, *path, row_lines_, word);
      matrix_.paths[row * count + column] = std::move(*path);
    }
    const std::size_t extra = words.size() - count - 1;
    if (extra > affinities_.size()) {
      const Word& word = words[count + 1 + affinities_.size()];
      fail(number, word.column,
           fmt::format("{} after the last column of the header", shown(word.text)));
    }
    for (std::size_t i = 0; i < extra; ++i) {
      std::string value(words[count + 1 + i].text);
      switch (affinities_[i]) {
      case Affinity::cpu:
        device.cpu_affinity = std::move(value);
        break;
      case Affinity::numa:
        device.numa_affinity = std::move(value);
        break;
      case Affinity::gpu_numa_id:
        device.gpu_numa_id = std::move(value);
        break;
      }
    }
    if (row_lines_.size() == count) {
      state_ = State::after;
    }
  }

  /// The legend and NIC Legend after the matrix; other text (the rest of a pasted report)
  /// is not part of the topology.
  void after(const std::vector<Word>& words, std::size_t number) {
    if (words.empty()) {
      return;
    }
    if (is_nvidia_header(words)) {
      fail(number, words[0].column,
           "a second topology matrix; give the output of one node per file");
    }
    if (words.size() == 2 && words[0].text == "NIC" && words[1].text == "Legend:") {
      in_nic_legend_ = true;
      return;
    }
    if (!in_nic_legend_) {
      return;
    }
    if (words.size() != 2 || !words[0].text.ends_with(':')) {
      in_nic_legend_ = false;
      return;
    }
    const std::string_view label = words[0].text.substr(0, words[0].text.size() - 1);
    const auto nic = std::ranges::find_if(matrix_.devices, [&](const TopoDevice& device) {
      return device.kind == DeviceKind::nic && device.label == label;
    });
    if (nic == matrix_.devices.end()) {
      fail(number, words[0].column,
           fmt::format("the NIC Legend names {}, which is not a column of the matrix",
                       shown(label)));
    }
    nic->legend_name = std::string(words[1].text);
  }

  TopoMatrix matrix_;
  std::vector<Affinity> affinities_;
  std::vector<std::size_t> row_lines_;
  State state_ = State::before;
  bool in_nic_legend_ = false;
  std::size_t last_line_ = 1;
  std::size_t last_line_end_ = 1;
};

// rocm-smi --showtopo --------------------------------------------------------------------

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

bool is_rocm_output(std::string_view text) {
  return text.find("between two GPUs") != std::string_view::npos;
}

} // namespace

namespace {

std::vector<std::size_t> indices_of(const std::vector<TopoDevice>& devices, DeviceKind kind) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].kind == kind) {
      indices.push_back(i);
    }
  }
  return indices;
}

} // namespace

std::vector<std::size_t> TopoMatrix::gpu_indices() const {
  return indices_of(devices, DeviceKind::gpu);
}

std::vector<std::size_t> TopoMatrix::nic_indices() const {
  return indices_of(devices, DeviceKind::nic);
}

TopoMatrix parse_topo(std::string_view text) {
  if (is_rocm_output(text)) {
    RocmReader reader;
    for_each_line(text,
                  [&](std::string_view line, std::size_t number) { reader.line(line, number); });
    return reader.finish();
  }
  NvidiaReader reader;
  for_each_line(text,
                [&](std::string_view line, std::size_t number) { reader.line(line, number); });
  return reader.finish();
}

} // namespace icx
