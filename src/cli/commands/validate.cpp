// icx validate: its options, and which table of published measurements they check.
#include <memory>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "output/output.hpp"
#include "views/validate.hpp"

namespace icx::cli {

namespace {

struct ValidateOptions {
  CommonOptions common;
  std::vector<std::string> files;
  bool loads = false;
  bool offload = false;
};

int run_validate(const ValidateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  if (options.loads) {
    return run_validate_loads(catalog, options.files, style_of(options.common));
  }
  if (options.offload) {
    return run_validate_offload(catalog, options.files, style_of(options.common));
  }
  return run_validate_collectives(catalog, options.files, style_of(options.common));
}

} // namespace

Command setup_validate(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Compare the expected model with published collective measurements");
  sub->add_option(
         "files", options->files,
         "Measurement CSVs (columns as data/measurements/collectives.csv; with --loads or "
         "--offload as data/measurements/loads.csv or offload.csv); default: the shipped ones")
      ->type_name("FILE")
      ->check(input_file("FILE"));
  sub->add_flag("--loads", options->loads,
                "Check the expected load model of 'icx coldstart --loader' against published "
                "load times instead");
  sub->add_flag("--offload", options->offload,
                "Check the expected decode step of 'icx offload' against published offloaded "
                "runs instead")
      ->excludes("--loads");
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx validate\n"
              "  icx validate --json\n"
              "  icx validate my-cluster.csv --catalog my-nvlink4.json\n"
              "  icx validate --loads\n"
              "  icx validate --offload --json\n\n"
              "Exit status: 0 every predicted fit and held-out row is within its bound, 3 some "
              "are not (listed on stderr), 2 bad input.");
  return {sub, [options] { return run_validate(*options); }};
}

} // namespace icx::cli
