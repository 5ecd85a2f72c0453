#include "app.hpp"

#include <cstdio>
#include <exception>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/error.hpp"

namespace icx::cli {

namespace {

void print_error(std::string_view message) {
  fmt::print(stderr, "icx: error: {}\n", message);
}

/// The chosen subcommand's name, for "see 'icx tp --help'".
std::string help_hint(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    return fmt::format("icx {} --help", sub->get_name());
  }
  return "icx --help";
}

int run_guarded(const Command& command) {
  try {
    return command.run();
  } catch (const UsageError& error) {
    print_error(fmt::format("{} (see 'icx {} --help')", error.what(), command.app->get_name()));
    return exit_usage;
  } catch (const InputError& error) {
    print_error(error.what());
    return exit_usage;
  } catch (const std::exception& error) {
    fmt::print(stderr, "icx: internal error: {}\n", error.what());
    return exit_internal;
  }
}

} // namespace

int run(int argc, char** argv) {
  CLI::App app{"icx: what the wire between your GPUs costs, and whether a split of the "
               "model on that wire is a good idea.",
               "icx"};
  app.set_version_flag("--version", ICX_VERSION);
  app.require_subcommand(1, 1);
  app.footer("Examples:\n"
             "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
             "  icx tp --model 70b --tokens 4096            (every wire, fastest first)\n"
             "  icx links\n\n"
             "Exit status: 0 success, 2 bad usage or input, 1 internal fault.");
  const std::vector<Command> commands{setup_tp(app), setup_links(app), setup_gpus(app),
                                      setup_models(app), setup_dtypes(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(fmt::format("{} (see '{}')", e.what(), help_hint(app)));
    return exit_usage;
  }
  for (const Command& command : commands) {
    if (command.app->parsed()) {
      return run_guarded(command);
    }
  }
  print_error("no subcommand given (see 'icx --help')");
  return exit_usage;
}

} // namespace icx::cli
