// The table icx topo prints (its JSON is the core's, icx/reports/topo.hpp).
#pragma once

#include <optional>
#include <string>

#include "icx/reports/topo.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// The pairs by kind, the consequences, and with -o (`output`) what was assumed and where the
/// system `id` was written.
void print_topo(const Style& style, const TopoReport& report,
                const std::optional<std::string>& output, const std::string& id);

} // namespace icx::cli
