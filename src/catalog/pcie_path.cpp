// The PCIe path classes the catalog and the topology readers share (icx/catalog/pcie_path.hpp).
#include "icx/catalog/pcie_path.hpp"

namespace icx {

std::optional<PathKind> pcie_path_class(std::string_view token) {
  const std::optional<PathKind> kind = parse_enum<PathKind>(token);
  if (kind && distance_rank(*kind) >= distance_rank(PathKind::pix) &&
      distance_rank(*kind) <= distance_rank(PathKind::sys)) {
    return kind;
  }
  return std::nullopt;
}

} // namespace icx
