// Reading a node's topology report (icx/topo.hpp): which tool printed it decides the reader.
#include <cstddef>
#include <vector>

#include "icx/topo.hpp"
#include "topo_read.hpp"

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

} // namespace

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
