// Reading `nvidia-smi topo -m` (icx/topo/matrix.hpp), by words rather than column positions:
// drivers differ in column widths and in tabs or spaces.
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

constexpr std::string_view known_nvidia_paths = "X, NV<n>, PIX, PXB, PHB, NODE, SYS";

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

} // namespace

TopoMatrix read_nvidia_smi(std::string_view text) {
  return read_lines<NvidiaReader>(text);
}

} // namespace icx::topo_read
