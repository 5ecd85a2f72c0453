// icx validate --serving: a user's own benchmark runs against icx's simulation of them.
#include "views/comparison.hpp"
#include "views/validate.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/util/table.hpp"
#include "icx/words/engine.hpp"
#include "output/json.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

std::string load_text(const Traffic& t) {
  return t.arrivals == Arrivals::closed ? fmt::format("{} clients", t.concurrency)
                                        : fmt::format("{:g}/s {}", t.rate, to_string(t.arrivals));
}

std::string percent(const Comparison& c) {
  return c.predicted && c.measured ? fmt::format("{:+.0f} %", c.error * 100) : std::string("-");
}

void print_runs(const Style& style, const ServingValidation& v) {
  TextTable table({{"run", Align::left},
                   {"load", Align::left},
                   {"in/out", Align::right},
                   {"layout", Align::left},
                   {"figure", Align::left},
                   {"measured", Align::right},
                   {"icx", Align::right},
                   {"error", Align::right}});
  for (const ServingCheck& c : v.checks) {
    std::vector<std::string> lead = {
        serving_run_name(c.run), load_text(c.traffic),
        fmt::format("{}/{}", c.traffic.input.nominal, c.traffic.output.nominal),
        layout_name(c.layout)};
    for (const LatencyCheck& l : c.latencies) {
      table.add_row({lead[0], lead[1], lead[2], lead[3], figure_name(l),
                     format_seconds(Seconds::of(*l.comparison.measured)),
                     format_seconds(Seconds::of(*l.comparison.predicted)), percent(l.comparison)});
      lead = {"", "", "", ""};
    }
    const Comparison& tokens = c.output_tokens_per_second;
    table.add_row({lead[0], lead[1], lead[2], lead[3], "output tokens/s",
                   format_count(*tokens.measured), format_count(*tokens.predicted),
                   percent(tokens)});
  }
  print_out("{}\n", fit_table(style, table));
}

void print_summary(const Style& style, const ServingValidation& v) {
  TextTable table({{"figure", Align::left},
                   {"runs", Align::right},
                   {"median |error|", Align::right},
                   {"worst |error|", Align::right}});
  for (const auto& [figure, s] : v.summary) {
    table.add_row({figure, std::to_string(s.predicted),
                   fmt::format("{:.0f} %", s.median_abs_error * 100),
                   fmt::format("{:.0f} %", s.worst_abs_error * 100)});
  }
  print_out("{}\n", fit_table(style, table));
  const char* cached =
      v.prefix_cache
          ? "no prompt in the engine's prefix cache unless --prefix-hit says what share was, "
            "but for the first request of a vllm bench serve or SGLang bench_serving run, whose "
            "prompt the client sent once before it (--warm-prompts)"
          : "no prompt cached (the engine keeps no prefix cache)";
  print_out("each run simulated as it was sent: its client cap as a closed loop, else its rate "
            "as Poisson arrivals, else every request at once; as many requests as it completed, "
            "none left out, at its mean lengths (--spread and --lengths draw them around the "
            "means), {}; error: icx / measured - 1\n",
            cached);
}

} // namespace

std::string serving_run_name(const ServingRun& run) {
  const std::size_t slash = run.origin.find_last_of('/');
  const std::string file = slash == std::string::npos ? run.origin : run.origin.substr(slash + 1);
  return run.line > 1 ? fmt::format("{}:{}", file, run.line) : file;
}

int run_validate_serving(const Catalog& catalog, const std::vector<std::string>& files,
                         const ServingValidationRequest& request, const Style& style) {
  std::vector<std::string> texts;
  const std::vector<ServingRun> runs = rows_of<ServingRun>(
      measurement_files(files, {}, "a benchmark result file", texts), parse_serving_runs);
  const ServingValidation v = validate_serving(catalog, request, runs);
  Json doc;
  to_json(doc, v);
  emit(style, doc, "runs", {}, [&] {
    const Cluster& c = request.place.cluster;
    print_out("Serving runs of {} ({}) against icx on {} × {}\n\n", request.place.model->id,
              request.place.dtype->id, c.gpus, c.gpu->id);
    print_runs(style, v);
    print_summary(style, v);
    const ServingRequest& serving = request.place.serving;
    if (const std::optional<std::string> tuning =
            tuning_text(*c.gpu, gpu_tuning(*c.gpu, serving.tuning), serving.tuning)) {
      print_out("{}\n", *tuning);
    }
  });
  return exit_ok;
}

} // namespace icx::cli
