// icx validate --loads and --offload: the expected load and the offloaded decode step against
// published runs, row by row, with each row's bound (and, for loads, the error per loader).
#pragma once

#include <string>
#include <vector>

#include "icx/catalog.hpp"
#include "output.hpp"

namespace icx::cli {

/// Prints the check of `files` (the shipped loads when empty); returns the exit status: 0 every
/// fit and held-out row within its bound, 3 otherwise (named on stderr).
int run_validate_loads(const Catalog& catalog, const std::vector<std::string>& files,
                       const Style& style);

/// Prints the check of published offloaded runs (tests/data/offload.csv when `files` is empty);
/// the exit status as run_validate_loads.
int run_validate_offload(const Catalog& catalog, const std::vector<std::string>& files,
                         const Style& style);

/// 0 when no row is `outside` its bound; else 3, with one line on stderr naming them.
int validation_status(const std::vector<std::string>& outside);

} // namespace icx::cli
