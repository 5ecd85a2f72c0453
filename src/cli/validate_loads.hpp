// icx validate --loads: the expected load model against published load times, row by row,
// with each row's bound and the median and worst error per loader.
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

} // namespace icx::cli
