#include "commands/app.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/commands.hpp"
#include "icx/base/error.hpp"
#include "icx/util/spelling.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/flags.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

void print_error(std::string_view message) {
  print_stderr_line(fmt::format("icx: error: {}", message));
}

void print_internal_error(const std::exception& error) {
  print_stderr_line(fmt::format("icx: internal error: {}", error.what()));
}

/// --help and --version, through the terminal like every other output.
int print_help(const CLI::App& app, const CLI::Error& request) {
  std::ostringstream out;
  const int status = app.exit(request, out, out);
  write_unwrapped(stdout, out.str());
  return status;
}

/// The chosen subcommand's name, for "see 'icx tp --help'".
std::string help_hint(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    return fmt::format("icx {} --help", sub->get_name());
  }
  return "icx --help";
}

/// "unknown option '--tokenz' (did you mean '--tokens'?)" for the first unexpected flag,
/// CLI11's own message otherwise.
std::string describe_extras(const CLI::App& app, const CLI::ParseError& error) {
  const CLI::App* sub = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  for (const std::string& arg : sub->remaining()) {
    if (arg.size() < 2 || arg[0] != '-') {
      continue;
    }
    const std::string flag = arg.substr(0, arg.find('='));
    std::vector<std::string> names;
    for (const CLI::Option* option : sub->get_options()) {
      for (const std::string& name : option->get_lnames()) {
        names.push_back("--" + name);
      }
    }
    const auto suggestion = nearest(flag, names);
    return fmt::format("unknown option '{}'{}", flag,
                       suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion) : "");
  }
  return error.what();
}

/// Runs the command; its output reaches stdout only when it succeeds (or reports a check that
/// failed), so a failure never leaves a partial table or JSON document behind its error.
int run_guarded(const Command& command) {
  try {
    check_outputs_spare_inputs();
    const int status = command.run();
    flush_stdout();
    return status;
  } catch (const std::system_error& error) {
    if (std::ferror(stdout) != 0) {
      throw; // a failed write to stdout: run() reports it
    }
    discard_stdout();
    print_internal_error(error);
    return exit_internal;
  } catch (const UsageError& error) {
    discard_stdout();
    print_error(fmt::format("{} (see 'icx {} --help')", error.what(), command.app->get_name()));
    return exit_usage;
  } catch (const InputError& error) {
    discard_stdout();
    print_error(error.what());
    return exit_usage;
  } catch (const std::exception& error) {
    discard_stdout();
    print_internal_error(error);
    return exit_internal;
  }
}

/// stdout could not take the output (`code` is the errno): a closed pipe ends quietly, any
/// other reason is one line on stderr.
int output_failed(int code) {
  if (code == EPIPE) {
    return exit_broken_pipe;
  }
  print_error(fmt::format("cannot write output: {}",
                          std::generic_category().message(code == 0 ? EIO : code)));
  return exit_internal;
}

/// No subcommand, or an unknown one: the subcommands, and the nearest name to what was typed.
std::string no_subcommand_message(const CLI::App& app, const std::vector<Command>& commands) {
  std::vector<std::string> names;
  for (const Command& command : commands) {
    names.push_back(command.app->get_name());
  }
  const std::vector<std::string> extra = app.remaining();
  const auto suggestion = extra.empty() ? std::nullopt : nearest(extra.front(), names);
  return fmt::format("{}; choose one of: {}{} (see 'icx --help')",
                     extra.empty() ? std::string("no subcommand given")
                                   : fmt::format("unknown subcommand '{}'", extra.front()),
                     fmt::join(names, ", "),
                     suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion)
                                : std::string());
}

int run_app(int argc, char** argv) {
  CLI::App app{"icx: what the wire between your GPUs costs, and whether a split of the "
               "model on that wire is a good idea.",
               "icx"};
  app.set_version_flag("--version", ICX_VERSION);
  app.require_subcommand(1, 1);
  app.footer("Examples:\n"
             "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
             "  icx tp --model 70b --tokens 4096            (every wire, fastest first)\n"
             "  icx place --model 405b --system dgx-h100 --gpus 32\n"
             "  icx coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4 --budget 30\n"
             "  icx offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c\n"
             "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4\n"
             "  icx links\n\n"
             "Exit status: 0 success, 2 bad usage or input, 3 over budget (coldstart --budget) "
             "or rows outside their bound (validate) or no plan meets the targets (plan), 1 "
             "internal fault or output not written, "
             "141 stdout closed by its reader.");
  const std::vector<Command> commands = add_commands(app);
  clear_file_arguments();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return print_help(app, e);
  } catch (const CLI::CallForAllHelp& e) {
    return print_help(app, e);
  } catch (const CLI::CallForVersion& e) {
    return print_help(app, e);
  } catch (const CLI::ExtrasError& e) {
    print_error(fmt::format("{} (see '{}')", describe_extras(app, e), help_hint(app)));
    return exit_usage;
  } catch (const CLI::RequiredError& e) {
    print_error(app.get_subcommands().empty()
                    ? no_subcommand_message(app, commands)
                    : fmt::format("{} (see '{}')", e.what(), help_hint(app)));
    return exit_usage;
  } catch (const CLI::ExcludesError& e) {
    print_error(fmt::format("{}: give only one of them (see '{}')", e.what(), help_hint(app)));
    return exit_usage;
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

} // namespace

std::vector<Command> add_commands(CLI::App& app) {
  return {setup_tp(app),        setup_ep(app),         setup_place(app),     setup_plan(app),
          setup_report(app),    setup_collective(app), setup_coldstart(app), setup_offload(app),
          setup_calibrate(app), setup_validate(app),   setup_links(app),     setup_gpus(app),
          setup_models(app),    setup_systems(app),    setup_storage(app),   setup_loaders(app),
          setup_engines(app),   setup_dtypes(app),     setup_topo(app)};
}

int run(int argc, char** argv) {
  use_knob_spellings(flag_spellings()); // the core's sentences name knobs by these flags
  // A closed pipe shows up as EPIPE from the write instead of killing the process, so it is
  // told apart from a full disk in one place.
  std::signal(SIGPIPE, SIG_IGN);
  terminal() = detect_terminal();
  try {
    const int status = run_app(argc, argv);
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
      return output_failed(errno);
    }
    return status;
  } catch (const std::system_error& error) {
    return output_failed(error.code().value());
  }
}

} // namespace icx::cli
