#include "options/load.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "icx/base/limits.hpp"
#include "options/common.hpp"

namespace icx::cli {

void add_load_options(CLI::App& app, LoadOptions& o, bool planned) {
  const std::size_t first = app.get_options().size();
  app.add_option("--rate", o.rate,
                 planned ? "Requests per second over the whole deployment, an open loop (or "
                           "--concurrency)"
                         : "Requests per second: evaluate the layout under this load "
                           "(TTFT and TPOT with prefills and decodes sharing the GPUs)")
      ->type_name("PER_S")
      ->transform(decimal_number(limits::requests_per_second));
  app.add_option("--input", o.input, "Prompt tokens of each request")
      ->type_name("N")
      ->default_str(std::to_string(default_load_input))
      ->transform(whole_number(1, limits::max_tokens));
  app.add_option("--output", o.output, "Tokens generated for each request")
      ->type_name("N")
      ->default_str(std::to_string(default_load_output))
      ->transform(whole_number(1, limits::max_tokens));
  add_prefix_hit_option(
      app, o.prefix_hit,
      "Fraction of each prompt found in the engine's prefix cache (a shared "
      "system prompt, earlier chat turns), in whole blocks of the engine's cache: "
      "prefill computes the rest, attending over all of it");
  app.add_option("--prefill-chunk", o.prefill_chunk,
                 "Prompt tokens one engine step prefills beside its decodes (vLLM's "
                 "--max-num-batched-tokens); default: vLLM V1's for the GPU")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
  group_options_from(app, first, "Load");
}

void add_prefix_hit_option(CLI::App& app, double& prefix_hit, const std::string& help) {
  app.add_option("--prefix-hit", prefix_hit, help)
      ->type_name("F")
      ->default_str("0")
      ->transform(decimal_number(limits::Bounds{0, 1}));
}

Load load_lengths_of(const LoadOptions& o) {
  Load load;
  load.input = o.input;
  load.output = o.output;
  load.prefix_hit = o.prefix_hit;
  return load;
}

std::optional<Load> load_of(const LoadOptions& o) {
  if (!o.rate) {
    return std::nullopt;
  }
  Load load = load_lengths_of(o);
  load.rate = *o.rate;
  return load;
}

void add_length_options(CLI::App& app, SimulationOptions& o, const std::string& spread_help) {
  const std::size_t first = app.get_options().size();
  app.add_option("--spread", o.spread, spread_help)
      ->type_name("F")
      ->transform(decimal_number(limits::length_spread));
  app.add_option<LengthShape, int>("--lengths", o.lengths,
                                   "How lengths are drawn around --input and --output: "
                                   "uniform or lognormal by --spread, or sharegpt (each "
                                   "request a prompt and output pair of a published vllm "
                                   "bench serve ShareGPT run, scaled to the means; no --spread)")
      ->type_name("SHAPE")
      ->default_str("uniform")
      ->transform(enum_choice<LengthShape>("length shape"));
  app.add_option("--seed", o.seed, "Seed of the simulation's draws (lengths)")
      ->type_name("N")
      ->default_str("1")
      ->transform(whole_number(0, static_cast<std::int64_t>(limits::max_exact_double)));
  group_options_from(app, first, "Load");
}

LengthShape length_shape_of(const SimulationOptions& o) {
  if (o.lengths == LengthShape::sharegpt) {
    if (o.spread > 0) {
      throw UsageError(fmt::format("--spread {:g} with --lengths sharegpt: the ShareGPT run's own "
                                   "lengths set the spread; drop --spread",
                                   o.spread));
    }
    return LengthShape::sharegpt;
  }
  const LengthShape shape = o.spread > 0 ? o.lengths : LengthShape::fixed;
  if (shape == LengthShape::uniform && o.spread > 1) {
    throw UsageError(fmt::format("--spread {:g}: a uniform spread is at most 1 (lengths from 0 "
                                 "to the nominal); give --lengths lognormal for a wider one",
                                 o.spread));
  }
  return shape;
}

void add_simulation_options(CLI::App& app, SimulationOptions& o) {
  const std::size_t first = app.get_options().size();
  app.add_option("--concurrency", o.concurrency,
                 "Clients, each sending its next request when the last one ends (a closed "
                 "loop, as vllm bench serve --max-concurrency runs), simulated step by step: "
                 "mean and p50/p90/p99 TTFT, TPOT, ITL and latency")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_simulated_requests));
  app.add_option<Arrivals, int>("--arrivals", o.arrivals,
                                "How --rate's requests arrive: poisson (exponential gaps, as "
                                "vllm bench serve --request-rate sends them) or constant (one "
                                "every 1/rate seconds)")
      ->type_name("KIND")
      ->default_str("poisson")
      ->transform(enum_choice<Arrivals>("arrivals"));
  app.add_flag("--fast", o.fast,
               "Price the load by the closed form alone (Little's law, M/D/1 queueing, mean TTFT "
               "and TPOT) instead of simulating it step by step; plan takes --concurrency too");
  add_length_options(app, o,
                     "Lengths drawn around --input and --output: uniform from (1 - F) x to 1 x "
                     "nominal (0.2: 80-100 %, as InferenceMAX draws; 1: 0-100 %, SGLang "
                     "bench_serving's default), or lognormal with F as its coefficient of "
                     "variation; default 0, every request the nominal length");
  app.add_option("--requests", o.requests,
                 "Requests simulated; default 1000 or 10 per client, whichever is more")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_simulated_requests));
  app.add_option("--warmup", o.warmup,
                 "Requests left out of the figures at each end (warm-up and cool-down); "
                 "default a tenth of --requests, 0 to count every request as a benchmark does")
      ->type_name("N")
      ->transform(whole_number(0, limits::max_simulated_requests));
  add_warm_prompts_option(
      app, o.warm_prompts,
      "The first N requests find their whole prompt in the engine's prefix cache, the "
      "benchmark client having sent it once before the run (vllm bench serve's initial test "
      "prompt and SGLang bench_serving's warm-up resend request 0's: give 1 to hold icx "
      "against their runs); default 0");
  group_options_from(app, first, "Load");
}

void add_warm_prompts_option(CLI::App& app, std::optional<std::int64_t>& warm_prompts,
                             const std::string& help) {
  app.add_option("--warm-prompts", warm_prompts, help)
      ->type_name("N")
      ->transform(whole_number(0, limits::max_simulated_requests));
}

void check_simulation_flags(const CLI::App& app, const LoadOptions& load,
                            const SimulationOptions& o, bool fast_clients) {
  if (o.concurrency && load.rate) {
    throw UsageError("--rate with --concurrency: give one load, an open loop of requests per "
                     "second or a closed loop of clients");
  }
  if (o.concurrency && o.fast && !fast_clients) {
    throw UsageError("--fast with --concurrency: place simulates its one layout in a moment; "
                     "drop --fast, or give --rate N for the closed form ('icx plan' prices "
                     "clients by the closed form under --fast)");
  }
  if (o.concurrency && app.count("--arrivals") > 0) {
    throw UsageError("--arrivals with --concurrency: a closed loop sends a client's next "
                     "request when its last one ends; give --rate N for an open loop");
  }
  if (o.arrivals == Arrivals::closed) {
    throw UsageError("--arrivals closed: give --concurrency N (clients) for a closed loop; "
                     "--arrivals takes poisson or constant");
  }
  const bool simulated = (o.concurrency || load.rate) && !o.fast;
  for (const char* flag : simulation_flags) {
    if (app.count(flag) == 0 || simulated) {
      continue;
    }
    throw UsageError(o.fast ? fmt::format("{} with --fast: the closed form simulates nothing; "
                                          "drop --fast or {}",
                                          flag, flag)
                            : fmt::format("{} describes a simulated load: give --rate N "
                                          "(requests per second) or --concurrency N (clients)",
                                          flag));
  }
  if (o.fast && !load.rate && !o.concurrency) {
    throw UsageError("--fast prices a load by the closed form: give --rate N or --concurrency N "
                     "with it");
  }
}

std::optional<Traffic> traffic_of(const LoadOptions& load, const SimulationOptions& o) {
  if (!o.concurrency && (!load.rate || o.fast)) {
    return std::nullopt;
  }
  Traffic t;
  if (o.concurrency) {
    t.arrivals = Arrivals::closed;
    t.concurrency = *o.concurrency;
  } else {
    t.arrivals = o.arrivals;
    t.rate = *load.rate;
  }
  const LengthShape shape = length_shape_of(o);
  t.input = {shape, load.input, o.spread};
  t.output = {shape, load.output, o.spread};
  t.prefix_hit = load.prefix_hit;
  // Unless given: 1000 or 10 per client, as many as one simulation runs at --output.
  const auto most = std::min(
      limits::max_simulated_requests,
      static_cast<std::int64_t>(limits::max_simulated_tokens / static_cast<double>(load.output)));
  if (!o.requests && most < t.concurrency) {
    throw UsageError(fmt::format("--concurrency {} with --output {}: one request per client "
                                 "already generates more than the {:.3g} tokens one simulation "
                                 "runs; give fewer clients or a shorter --output",
                                 t.concurrency, load.output, limits::max_simulated_tokens));
  }
  t.requests = o.requests.value_or(
      std::min(most, std::max(default_simulated_requests, requests_per_client * t.concurrency)));
  t.warmup = o.warmup.value_or(t.requests / warmup_share_divisor);
  t.warm_prompts = o.warm_prompts.value_or(0);
  t.seed = o.seed;
  return t;
}

} // namespace icx::cli
