// --impl and --pcie-topology: who runs an all-reduce and how a host link's GPUs reach each
// other, the expected model's two assumptions a user can name (collective, tp, place).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx::cli {

struct RunSetupOptions {
  /// Absent: the command's default (the engine's, or NCCL's for 'icx collective').
  std::optional<std::string> impl;
  std::string topology;
};

/// Adds --impl (its default described by `default_text` in --help) and --pcie-topology to
/// `sub`.
void add_run_setup_options(CLI::App& sub, RunSetupOptions& options,
                           const std::string& default_text);

/// The setup the flags name, `fallback` without --impl; UsageError naming --impl for an
/// unknown implementation, or --pcie-topology for a topology no link of `catalog` has.
RunSetup parse_run_setup(const Catalog& catalog, const RunSetupOptions& options,
                         Implementation fallback);

/// Throws UsageError naming --impl when `link` has no figures for the engine kernels asked
/// for `op`, or --pcie-topology when `link` has topologies and none is named so.
void require_run_setup(const Link& link, Collective op, const RunSetup& setup);

} // namespace icx::cli
