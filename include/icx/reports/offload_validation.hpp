// Published offloaded runs priced by icx offload's expected decode step: tokens per second
// predicted against measured per row (the rows are read by icx/measured/offload_validation.hpp).
#pragma once

#include <span>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/measured/offload_validation.hpp"

namespace icx {

struct OffloadCheck {
  MeasuredOffload row;
  /// Tokens per second: batch / the expected step against the measured rate, for a held-out
  /// row (an outside row has no prediction).
  Comparison comparison;
};

/// Every held-out row priced by icx offload's expected step (the resident bytes in the HBM the
/// run held them in, no reserve). Throws InputError naming the file, line and column for an id
/// the catalog lacks.
std::vector<OffloadCheck> check_offloads(const Catalog& catalog,
                                         std::span<const MeasuredOffload> rows);

} // namespace icx
