// Internal to the topology readers (src/topo_*.cpp): splitting a pasted report into words
// with their columns, device labels, error positions and the cell checks both tools share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "icx/topo/matrix.hpp"
#include "icx/util/text_file.hpp"

namespace icx::topo_read {

/// The most devices (GPUs and NICs) one matrix may have: far above any node (8 GPUs and 13
/// NICs in the largest fixture), low enough that the n² cells of a hostile input stay small.
constexpr std::size_t max_devices = 512;
/// The most NVLinks one NV<n> cell may name.
constexpr std::int64_t max_links_per_cell = 999;

struct Word {
  std::string_view text;
  /// 1-based byte column in the line.
  std::size_t column = 0;
};

/// A blank between words: space, tab, or the other whitespace bytes pasted text carries.
bool is_blank(char c);

/// The words of `line`: runs of characters between blanks, ANSI escapes removed.
std::vector<Word> split_words(std::string_view line);

/// `text` for a message: printable ASCII as is, other bytes as \xNN, at most 32 characters.
std::string shown(std::string_view text);

/// Throws InputError "line L, column C: <what>".
[[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what);

/// `prefix` followed by a decimal number ("GPU0", "NIC12").
bool is_numbered(std::string_view text, std::string_view prefix);
bool is_gpu_label(std::string_view text);
/// A NIC column: "NIC3", or the device's own name as old drivers print it ("mlx5_0").
bool is_nic_label(std::string_view text);

/// Checks the cell at (row, column) against the diagonal rule and, below the diagonal,
/// against the mirror cell already read.
void check_cell(const TopoMatrix& matrix, std::size_t row, std::size_t column, const TopoPath& path,
                const std::vector<std::size_t>& row_lines, const Word& word);

/// Feeds `text` to a Reader line by line (line(text, number), numbered from 1) and returns
/// its finish().
template <class Reader> TopoMatrix read_lines(std::string_view text) {
  Reader reader;
  for_each_line(text,
                [&](std::string_view line, std::size_t number) { reader.line(line, number); });
  return reader.finish();
}

/// The two tools' readers.
TopoMatrix read_nvidia_smi(std::string_view text);
TopoMatrix read_rocm_smi(std::string_view text);
/// Whether `text` is rocm-smi's output (its tables are "… between two GPUs").
bool is_rocm_output(std::string_view text);

} // namespace icx::topo_read
