// libFuzzer target for the topology reader (`nvidia-smi topo -m`, `rocm-smi --showtopo`): any
// input must either parse or be rejected with an InputError; any other exception, crash or
// sanitizer report is a bug. A parsed matrix is also described, as `icx topo` would.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/error.hpp"
#include "icx/topo.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const icx::TopoMatrix matrix =
        icx::parse_topo(std::string_view(reinterpret_cast<const char*>(data), size));
    const icx::NodeTopology node = icx::describe_topology(matrix);
    for (const icx::GpuPair& pair : node.pairs) {
      (void)icx::pair_bandwidth_each_way(pair, icx::BytesPerSecond::of(1.0));
    }
  } catch (const icx::InputError&) {
  }
  return 0;
}
