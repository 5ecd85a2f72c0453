// Reading a node's topology report (icx/topo/matrix.hpp): which tool printed it decides the reader.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "icx/topo/matrix.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text_file.hpp"
#include "topo/read.hpp"

namespace icx {

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

/// Where a vendor's product name starts on `line` ("NVIDIA H100 80GB HBM3"), or npos.
std::size_t product_start(std::string_view line) {
  for (const std::string_view vendor : {"NVIDIA ", "Instinct "}) {
    if (const std::size_t at = line.find(vendor); at != std::string_view::npos) {
      return at;
    }
  }
  return std::string_view::npos;
}

} // namespace

std::optional<GpuMention> gpu_mentioned(std::string_view text) {
  std::optional<GpuMention> found;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    const std::size_t at = found ? std::string_view::npos : product_start(line);
    if (at == std::string_view::npos) {
      return;
    }
    std::vector<std::string_view> words;
    for (const topo_read::Word& word : topo_read::split_words(line.substr(at))) {
      words.push_back(word.text);
    }
    if (words.size() < 2) {
      return;
    }
    words.erase(words.begin()); // the vendor
    // Printable ASCII only, and not much of it: the name is echoed in the report.
    constexpr std::size_t longest = 48;
    GpuMention mention{number, {}, {}};
    for (const char c : line.substr(at, longest)) {
      mention.product.push_back(c >= ' ' && c <= '~' ? c : '?');
    }
    while (!mention.product.empty() && mention.product.back() == ' ') {
      mention.product.pop_back();
    }
    std::string first = fold_case(words.front());
    if (words.size() > 1) {
      mention.candidates.push_back(first + "-" + fold_case(words[1]));
    }
    for (; !first.empty(); first = first.substr(0, std::min(first.rfind('-'), first.size()))) {
      mention.candidates.push_back(first);
      if (first.find('-') == std::string::npos) {
        break;
      }
    }
    found = std::move(mention);
  });
  return found;
}

std::vector<std::size_t> TopoMatrix::gpu_indices() const {
  return indices_of(devices, DeviceKind::gpu);
}

std::vector<std::size_t> TopoMatrix::nic_indices() const {
  return indices_of(devices, DeviceKind::nic);
}

TopoMatrix parse_topo(std::string_view text) {
  return topo_read::is_rocm_output(text) ? topo_read::read_rocm_smi(text)
                                         : topo_read::read_nvidia_smi(text);
}

} // namespace icx
