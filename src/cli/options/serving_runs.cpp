#include "options/serving_runs.hpp"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "icx/base/limits.hpp"
#include "options/numbers.hpp"

namespace icx::cli {

namespace {

/// Flags of the setup that each run sets itself.
constexpr std::array<const char*, 6> set_by_runs{"--phase", "--tokens",    "--context",
                                                 "--batch", "--objective", "--top"};

} // namespace

void add_serving_run_options(CLI::App& app, ServingRunOptions& o, bool fabric) {
  const std::size_t first = app.get_options().size();
  CLI::Option_group* setup =
      app.add_option_group("Setup of --serving runs", "The model, cluster, engine and layout "
                                                      "the runs were measured on");
  add_place_options(*setup, o.place, fabric);
  add_prefix_hit_option(*setup, o.prefix_hit,
                        "Fraction of each prompt the engine found in its prefix cache, in whole "
                        "blocks of the engine's cache, e.g. 0.95 for runs that resend an "
                        "earlier run's prompts to the same server "
                        "(vLLM keeps prefix caching on): prefill computes the rest");
  add_warm_prompts_option(*setup, o.warm_prompts,
                          "Requests at each run's start whose whole prompt the engine found in "
                          "its prefix cache, the client having sent it before the run; default "
                          "the client's own: 1 for vllm bench serve (its initial test prompt) "
                          "and SGLang bench_serving (its warm-up), 0 for genai-perf");
  add_length_options(*setup, o.simulation,
                     "Draw the runs' lengths around their means: uniform from (1 - F) x to 1 x, "
                     "or lognormal with F as its coefficient of variation (--lengths sharegpt "
                     "needs none); default 0");
  group_options_from(app, first, "Benchmark runs");
}

ResolvedModel serving_run_model(const Catalog& catalog, const CLI::App& app,
                                const ServingRunOptions& o, const std::vector<std::string>& files) {
  for (const char* flag : set_by_runs) {
    if (app.count(flag) > 0) {
      throw UsageError(fmt::format("{} with --serving: each run sets its own load and step; "
                                   "drop {}",
                                   flag, flag));
    }
  }
  if (files.empty()) {
    throw UsageError("--serving reads benchmark result files: give one or more (vllm bench "
                     "serve --save-result JSON, SGLang bench_serving JSONL, genai-perf's "
                     "profile_export_genai_perf.json)");
  }
  if (o.place.model.model.empty() && o.place.model.hf_config.empty()) {
    throw UsageError("--serving needs the model the runs served: give --model (the files do "
                     "not say which of icx's models it is), e.g. --model 70b");
  }
  return resolve_model(catalog, o.place.model);
}

ServingValidationRequest serving_run_request(const Catalog& catalog, const ServingRunOptions& o,
                                             const CommonOptions& common,
                                             const ResolvedModel& model) {
  PlaceOptions place = o.place;
  place.common = common;
  ServingValidationRequest r;
  r.place = place_request(catalog, place, model);
  r.lengths = length_shape_of(o.simulation);
  r.spread = o.simulation.spread;
  r.seed = o.simulation.seed;
  r.prefix_hit = o.prefix_hit;
  r.warm_prompts = o.warm_prompts;
  return r;
}

} // namespace icx::cli
