// The expert-parallel flags 'icx ep' and 'icx place' share: which kernels run dispatch and
// combine, what the dispatch sends, and the routing assumptions icx cannot know.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx::cli {

struct EpOptions {
  std::optional<EpMode> mode;
  std::string dispatch_dtype;
  EpRouting routing;
};

/// Adds `mode_flag` (--mode or --ep-mode; `mode_help` says its default), --dispatch-dtype,
/// --max-nodes-per-token, --skew and --redundant-experts.
void add_ep_options(CLI::App& app, EpOptions& options, const std::string& mode_flag,
                    const std::string& mode_help);

/// The dtype --dispatch-dtype names, or nullptr when it names none.
const Dtype* dispatch_dtype(const Catalog& catalog, const EpOptions& options);

} // namespace icx::cli
