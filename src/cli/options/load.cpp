#include "options/load.hpp"

#include <string>

#include "icx/base/limits.hpp"
#include "options/common.hpp"

namespace icx::cli {

void add_load_options(CLI::App& app, LoadOptions& o, bool rate_required) {
  CLI::Option* rate =
      app.add_option("--rate", o.rate,
                     rate_required ? "Requests per second over the whole deployment"
                                   : "Requests per second: evaluate the layout under this load "
                                     "(TTFT and TPOT with prefills and decodes sharing the GPUs)")
          ->type_name("PER_S")
          ->transform(decimal_number(limits::requests_per_second));
  if (rate_required) {
    rate->required();
  }
  app.add_option("--input", o.input, "Prompt tokens of each request")
      ->type_name("N")
      ->default_str(std::to_string(default_load_input))
      ->transform(whole_number(1, limits::max_tokens));
  app.add_option("--output", o.output, "Tokens generated for each request")
      ->type_name("N")
      ->default_str(std::to_string(default_load_output))
      ->transform(whole_number(1, limits::max_tokens));
  app.add_option("--prefill-chunk", o.prefill_chunk,
                 "Prompt tokens one engine step prefills beside its decodes (vLLM's "
                 "--max-num-batched-tokens); default: vLLM V1's for the GPU")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
}

std::optional<Load> load_of(const LoadOptions& o) {
  if (!o.rate) {
    return std::nullopt;
  }
  Load load;
  load.rate = *o.rate;
  load.input = o.input;
  load.output = o.output;
  return load;
}

} // namespace icx::cli
