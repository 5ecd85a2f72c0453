// icx validate, --loads and --offload: the expected collective model, the expected load and the
// offloaded decode step against published runs, row by row, with each row's bound and the
// error per wire or loader.
#pragma once

#include <string>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/serving_validation.hpp"
#include "output/output.hpp"

namespace icx::cli {

/// Prints the check of published collective measurements in `files` (the shipped ones when
/// empty); returns the exit status: 0 every predicted fit and held-out row within its bound, 3
/// otherwise (named on stderr).
int run_validate_collectives(const Catalog& catalog, const std::vector<std::string>& files,
                             const Style& style);

/// Prints the check of published load times (data/measurements/loads.csv when `files` is
/// empty); the exit status as run_validate_collectives.
int run_validate_loads(const Catalog& catalog, const std::vector<std::string>& files,
                       const Style& style);

/// Prints the check of published offloaded runs (data/measurements/offload.csv when `files` is
/// empty); the exit status as run_validate_collectives.
int run_validate_offload(const Catalog& catalog, const std::vector<std::string>& files,
                         const Style& style);

/// A run as a table names it: its file's name, and its line when the file holds several.
std::string serving_run_name(const ServingRun& run);

/// Prints the user's serving benchmark runs in `files` (vllm bench serve, SGLang bench_serving
/// or genai-perf results) against icx's simulation of each on the request's setup; returns 0.
int run_validate_serving(const Catalog& catalog, const std::vector<std::string>& files,
                         const ServingValidationRequest& request, const Style& style);

} // namespace icx::cli
