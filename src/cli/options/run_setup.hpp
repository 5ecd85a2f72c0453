// --impl and --pcie-topology: who runs an all-reduce and how a host link's GPUs reach each
// other, the expected model's two assumptions a user can name (collective, tp, place).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx::cli {

struct RunSetupOptions {
  std::string impl;
  std::string topology;
};

/// Adds --impl (default `default_impl`) and --pcie-topology to `sub`.
void add_run_setup_options(CLI::App& sub, RunSetupOptions& options, Implementation default_impl);

/// The setup the flags name; UsageError naming --impl for an unknown implementation, or
/// --pcie-topology for a topology no link of `catalog` has.
RunSetup parse_run_setup(const Catalog& catalog, const RunSetupOptions& options);

/// Throws UsageError naming --impl when `link` has no figures for the engine kernels asked
/// for `op`, or --pcie-topology when `link` has topologies and none is named so.
void require_run_setup(const Link& link, Collective op, const RunSetup& setup);

} // namespace icx::cli
