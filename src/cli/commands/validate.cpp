// icx validate: its options, and which table of published measurements they check.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/load.hpp"
#include "options/numbers.hpp"
#include "options/place.hpp"
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
  /// The setup of --serving runs, and how their lengths are drawn.
  PlaceOptions place;
  SimulationOptions simulation;
};

/// Flags of the setup that the runs set themselves, or that only --serving reads.
constexpr std::array<const char*, 6> set_by_runs{"--phase", "--tokens",    "--context",
                                                 "--batch", "--objective", "--top"};

ServingValidationRequest serving_request_of(const Catalog& catalog, const CLI::App& app,
                                            const ValidateOptions& o) {
  for (const char* flag : set_by_runs) {
    if (app.count(flag) > 0) {
      throw UsageError(fmt::format("{} with --serving: each run sets its own load and step; "
                                   "drop {}",
                                   flag, flag));
    }
  }
  if (o.files.empty()) {
    throw UsageError("--serving reads benchmark result files: give one or more (vllm bench "
                     "serve --save-result JSON, SGLang bench_serving JSONL, genai-perf's "
                     "profile_export_genai_perf.json)");
  }
  if (o.place.model.model.empty() && o.place.model.hf_config.empty()) {
    throw UsageError("--serving needs the model the runs served: give --model (the files do "
                     "not say which of icx's models it is), e.g. --model 70b");
  }
  PlaceOptions place = o.place;
  place.common = o.common;
  const ResolvedModel model = resolve_model(catalog, place.model);
  ServingValidationRequest r;
  r.place = place_request(catalog, place, model);
  r.lengths = o.simulation.spread > 0 ? o.simulation.lengths : LengthShape::fixed;
  r.spread = o.simulation.spread;
  r.seed = o.simulation.seed;
  return r;
}

int run_validate(const CLI::App& app, const ValidateOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  if (options.serving) {
    return run_validate_serving(catalog, options.files, serving_request_of(catalog, app, options),
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
  CLI::Option_group* setup =
      sub->add_option_group("Setup of --serving runs", "The model, cluster, engine and layout "
                                                       "the runs were measured on");
  add_place_options(*setup, options->place);
  setup
      ->add_option("--spread", options->simulation.spread,
                   "Draw the runs' lengths around their means: uniform from (1 - F) x to 1 x, "
                   "or lognormal with F as its coefficient of variation; default 0")
      ->type_name("F")
      ->transform(decimal_number(limits::length_spread));
  setup
      ->add_option<LengthShape, int>("--lengths", options->simulation.lengths,
                                     "How --spread draws lengths: uniform or lognormal")
      ->type_name("SHAPE")
      ->default_str("uniform")
      ->transform(enum_choice<LengthShape>("length shape"));
  setup->add_option("--seed", options->simulation.seed, "Seed of the simulation's draws")
      ->type_name("N")
      ->default_str("1")
      ->transform(whole_number(0, static_cast<std::int64_t>(limits::max_exact_double)));
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
