// icx validate: its options, and which table of published measurements they check.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/serving_runs.hpp"
#include "output/output.hpp"
#include "views/validate.hpp"

namespace icx::cli {

namespace {

struct ValidateOptions {
  CommonOptions common;
  std::vector<std::string> files;
  bool loads = false;
  bool offload = false;
  bool serving = false;
  /// The setup of --serving runs.
  ServingRunOptions runs;
};

int run_validate(const CLI::App& app, const ValidateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  if (options.serving) {
    const ResolvedModel model = serving_run_model(catalog, app, options.runs, options.files);
    return run_validate_serving(catalog, options.files,
                                serving_run_request(catalog, options.runs, options.common, model),
                                style_of(options.common));
  }
  if (app.count("--model") > 0 || app.count("--system") > 0 || app.count("--gpu") > 0) {
    throw UsageError("--model, --system and --gpu describe the setup of --serving runs: give "
                     "--serving with them");
  }
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
      "validate", "Compare the expected model with published collective measurements (or "
                  "load times, offloaded runs, your own serving benchmark runs)");
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
  sub->add_flag("--serving", options->serving,
                "Compare your own serving benchmark runs (vllm bench serve --save-result JSON, "
                "SGLang bench_serving JSONL, genai-perf's profile export) with icx's simulation "
                "of each, on the setup --model, --system (or --gpu) and --tp… describe")
      ->excludes("--loads")
      ->excludes("--offload");
  add_serving_run_options(*sub, options->runs);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx validate\n"
              "  icx validate --json\n"
              "  icx validate my-cluster.csv --catalog my-nvlink4.json\n"
              "  icx validate --loads\n"
              "  icx validate --offload --json\n"
              "  icx validate --serving run-qps4.json --model 70b --system aws-p4d --tp 8\n\n"
              "Exit status: 0 every predicted fit and held-out row is within its bound, 3 some "
              "are not (listed on stderr), 2 bad input.");
  return {sub, [sub, options] { return run_validate(*sub, *options); }};
}

} // namespace icx::cli
