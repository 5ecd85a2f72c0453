#include "commands/app.hpp"

#include <array>
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
#include "options/config.hpp"
#include "options/files.hpp"
#include "options/flags.hpp"
#include "output/invocation.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

void print_error(std::string_view message) {
  print_stderr_line(fmt::format("icx: error: {}", message));
}

void print_internal_error(const std::exception& error) {
  print_stderr_line(fmt::format("icx: internal error: {}", error.what()));
}

/// --help and --version, through the terminal like every other output: each flag's help
/// wraps under itself.
int print_help(const CLI::App& app, const CLI::Error& request) {
  std::ostringstream out;
  const int status = app.exit(request, out, out);
  write_wrapped(stdout, out.str());
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

/// "unknown subcommand 'tq'; choose one of: tp, ep, … (did you mean 'tp'?)".
std::string unknown_command_text(const std::string& typed, const std::vector<Command>& commands) {
  std::vector<std::string> names;
  for (const Command& command : commands) {
    names.push_back(command.app->get_name());
  }
  const auto suggestion = nearest(typed, names);
  return fmt::format("unknown subcommand '{}'; choose one of: {}{}", typed, fmt::join(names, ", "),
                     suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion)
                                : std::string());
}

/// No subcommand, or an unknown one: the subcommands, and the nearest name to what was typed.
std::string no_subcommand_message(const CLI::App& app, const std::vector<Command>& commands) {
  const std::vector<std::string> extra = app.remaining();
  if (extra.empty()) {
    return "no subcommand given (see 'icx --help')";
  }
  return fmt::format("{} (see 'icx --help')", unknown_command_text(extra.front(), commands));
}

/// Parses argv and runs the subcommand it names; every parse error is one line on stderr.
int parse_and_run(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv) {
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

/// Bare `icx` and `icx help` print the help, `icx help CMD` is `icx CMD --help`; nothing for
/// any other command line.
std::optional<int> help_command(CLI::App& app, const std::vector<Command>& commands, int argc,
                                char** argv) {
  if (argc == 1 || (argc == 2 && std::string_view(argv[1]) == "help")) {
    write_wrapped(stdout, app.help());
    return exit_ok;
  }
  if (argc != 3 || std::string_view(argv[1]) != "help") {
    return std::nullopt;
  }
  const std::string name = argv[2];
  if (std::ranges::none_of(commands, [&](const Command& c) { return c.app->get_name() == name; })) {
    print_error(fmt::format("help {}: {}", name, unknown_command_text(name, commands)));
    return exit_usage;
  }
  std::string help_flag = "--help";
  std::array<char*, 3> help_args{argv[0], argv[2], help_flag.data()};
  return parse_and_run(app, commands, static_cast<int>(help_args.size()), help_args.data());
}

/// The top-level help: what icx is, its version flag, examples and exit statuses.
void describe_app(CLI::App& app) {
  // Read before parsing (read_config); here so that 'icx --config FILE tp …' parses too.
  static std::string config;
  add_config_option(app, config);
  app.set_version_flag("-V,--version", version_text(),
                       "Print icx's version, commit and catalog date");
  app.require_subcommand(1, 1);
  app.footer("Examples:\n"
             "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
             "  icx tp --model 70b --tokens 4096       (the reference GPU's wires, fastest first)\n"
             "  icx place --model 405b --system dgx-h100 --gpus 32\n"
             "  icx coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4 --budget 30\n"
             "  icx offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c\n"
             "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4\n"
             "  icx links\n"
             "  icx help place                          (the same as icx place --help)\n\n"
             "Exit status:\n"
             "  0    success\n"
             "  1    internal fault, or the output could not be written\n"
             "  2    bad usage or input (the one line on stderr says which flag or file)\n"
             "  3    computed, but over budget (coldstart --budget), rows outside their bound "
             "(validate) or no plan meets the targets (plan)\n"
             "  141  stdout closed by its reader (icx ... | head)\n\n"
             "Environment:\n"
             "  COLUMNS      columns to fit tables and prose in when stdout is not a terminal "
             "(a pipe gets whole tables without it)\n"
             "  NO_COLOR     set and not empty: no colour unless --color always\n"
             "  TERM         'dumb': no colour unless --color always\n"
             "  LC_ALL       the first of LC_ALL, LC_CTYPE and LANG that is set decides UTF-8 "
             "or ASCII output (--ascii forces ASCII)\n"
             "  ICX_GNUPLOT  the gnuplot program --plot runs (default: gnuplot on PATH)\n"
             "  ICX_CONFIG   the config file of defaults for flags, when --config names none "
             "(else $XDG_CONFIG_HOME/icx/config.toml, ~/.config when unset; see icx config)");
}

int run_app(int argc, char** argv) {
  CLI::App app{"icx: what the wire between your GPUs costs, and whether a split of the "
               "model on that wire is a good idea.",
               "icx"};
  describe_app(app);
  const std::vector<Command> commands = add_commands(app);
  clear_file_arguments();
  if (const std::optional<int> status = help_command(app, commands, argc, argv)) {
    return *status;
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  invocation() = args;
  try {
    config_in_force() = read_config(app, args);
  } catch (const UsageError& error) {
    print_error(error.what());
    return exit_usage;
  } catch (const InputError& error) {
    print_error(fmt::format("--config: {}", error.what()));
    return exit_usage;
  }
  if (config_in_force()) {
    args = with_config(app, *config_in_force(), std::move(args));
  }
  // The command line as parsed: argv with the config file's flags after it.
  std::vector<char*> pointers{argv[0]};
  for (std::string& arg : args) {
    pointers.push_back(arg.data());
  }
  return parse_and_run(app, commands, static_cast<int>(pointers.size()), pointers.data());
}

} // namespace

std::vector<Command> add_commands(CLI::App& app) {
  return {setup_tp(app),        setup_ep(app),         setup_place(app),     setup_plan(app),
          setup_report(app),    setup_collective(app), setup_coldstart(app), setup_offload(app),
          setup_calibrate(app), setup_validate(app),   setup_links(app),     setup_gpus(app),
          setup_models(app),    setup_systems(app),    setup_storage(app),   setup_loaders(app),
          setup_engines(app),   setup_dtypes(app),     setup_topo(app),      setup_completion(app),
          setup_config(app)};
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
