// One setup function per subcommand, each defined in its own cmd_<name>.cpp.
#pragma once

#include "commands/app.hpp"

namespace icx::cli {

Command setup_tp(CLI::App& app);
Command setup_ep(CLI::App& app);
Command setup_place(CLI::App& app);
Command setup_plan(CLI::App& app);
Command setup_topo(CLI::App& app);
Command setup_report(CLI::App& app);
Command setup_systems(CLI::App& app);
Command setup_links(CLI::App& app);
Command setup_gpus(CLI::App& app);
Command setup_models(CLI::App& app);
Command setup_dtypes(CLI::App& app);
Command setup_storage(CLI::App& app);
Command setup_loaders(CLI::App& app);
Command setup_engines(CLI::App& app);
Command setup_coldstart(CLI::App& app);
Command setup_offload(CLI::App& app);
Command setup_collective(CLI::App& app);
Command setup_calibrate(CLI::App& app);
Command setup_validate(CLI::App& app);
Command setup_completion(CLI::App& app);
Command setup_config(CLI::App& app);

} // namespace icx::cli
