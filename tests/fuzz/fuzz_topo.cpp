// libFuzzer target for the topology reader (`nvidia-smi topo -m`, `rocm-smi --showtopo`): any
// input must either parse or be rejected with an InputError; any other exception, crash or
// sanitizer report is a bug. A parsed matrix is also described, reported and made into a
// catalog system, as `icx topo -o` would.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/reports/topo.hpp"
#include "icx/topo/matrix.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  std::optional<icx::TopoReport> report;
  try {
    const icx::NodeTopology node = icx::describe_topology(
        icx::parse_topo(std::string_view(reinterpret_cast<const char*>(data), size)));
    icx::TopoReportRequest request;
    request.file = "fuzz";
    request.gpu = &catalog.gpu("h100-sxm");
    request.pcie = &catalog.link("pcie5");
    request.size = icx::Bytes::of(1 << 20);
    request.system = icx::TopoSystemRequest{
        "fuzz", "fuzz", request.gpu, nullptr, request.pcie, &catalog.link("roce"), std::nullopt};
    report = icx::topo_report(catalog, node, request);
  } catch (const icx::InputError&) {
    return 0;
  }
  // What icx topo -o writes must read back as a catalog: a CatalogError here is a bug.
  icx::Catalog joined = catalog;
  joined.overlay_text(icx::topo_overlay(*report->system).dump(), "fuzz.json");
  return 0;
}
