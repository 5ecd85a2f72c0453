#include "icx/reports/serving_validation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "icx/serving/engine.hpp"
#include "icx/serving/ranking.hpp"

namespace icx {

namespace {

/// The traffic a run sent over the whole cluster (validate_serving's rules).
Traffic traffic_of_run(const ServingRun& run, const ServingValidationRequest& request) {
  Traffic t;
  t.requests = run.completed.value_or(default_simulated_requests);
  if (run.concurrency) {
    t.arrivals = Arrivals::closed;
    t.concurrency = std::min(*run.concurrency, t.requests);
  } else if (run.rate) {
    t.arrivals = Arrivals::poisson;
    t.rate = *run.rate;
  } else {
    // Every request sent at once: as many clients as requests, one request each.
    t.arrivals = Arrivals::closed;
    t.concurrency = t.requests;
  }
  const auto nominal = [](double mean) { return std::max<std::int64_t>(1, std::llround(mean)); };
  t.input = {request.lengths, nominal(run.input_tokens), request.spread};
  t.output = {request.lengths, nominal(run.output_tokens), request.spread};
  t.prefix_hit = request.prefix_hit;
  t.warm_prompts = request.warm_prompts.value_or(warm_prompts_of(run.tool));
  t.warmup = 0;
  t.seed = request.seed;
  return t;
}

void add_latency(std::vector<LatencyCheck>& checks, const char* latency,
                 const ReportedLatency& reported, const LatencySummary& simulated) {
  for (const auto& [statistic, figure] :
       {std::pair{Statistic::mean, reported.mean}, std::pair{Statistic::p50, reported.p50},
        std::pair{Statistic::p90, reported.p90}, std::pair{Statistic::p99, reported.p99}}) {
    if (figure) {
      checks.push_back({latency, statistic,
                        compare(figure->value(), statistic_of(simulated, statistic).value(),
                                std::nullopt, false)});
    }
  }
}

/// `run` priced as it was sent; `prefix_cache`: the engine keeps one for a client's warm-up.
ServingCheck check_run(const Catalog& catalog, const ServingValidationRequest& request,
                       const ServingRun& run, bool prefix_cache) {
  ServingCheck check;
  check.run = run;
  check.traffic = traffic_of_run(run, request);
  if (!prefix_cache && !request.warm_prompts) {
    // The tool's warm-up finds no cache to leave its prompt in.
    check.traffic.warm_prompts = 0;
  }
  PlaceRequest place = request.place;
  place.load = Load{};
  place.load->input = check.traffic.input.nominal;
  place.load->output = check.traffic.output.nominal;
  place.load->prefix_hit = check.traffic.prefix_hit;
  if (check.traffic.arrivals != Arrivals::closed) {
    place.load->rate = check.traffic.rate;
  }
  place.traffic = check.traffic;
  const PlaceReport report = place_figures(catalog, place);
  check.layout = report.placement().layout;
  check.simulated = *report.simulated;
  const SimulationResult& r = check.simulated.result;
  add_latency(check.latencies, "TTFT", run.ttft, r.ttft);
  add_latency(check.latencies, "TPOT", run.tpot, r.tpot);
  add_latency(check.latencies, "ITL", run.itl, r.itl);
  check.output_tokens_per_second = compare(
      run.output_tokens_per_second, check.simulated.output_tokens_per_second, std::nullopt, false);
  return check;
}

Json comparison_json(const Comparison& c) {
  return {{"measured", c.measured ? json_number(*c.measured) : Json()},
          {"predicted", c.predicted ? json_number(*c.predicted) : Json()},
          {"error", json_number(c.error)}};
}

Json load_json(const Traffic& t) {
  return {{"arrivals", std::string(to_string(t.arrivals))},
          {"concurrency", t.arrivals == Arrivals::closed ? Json(t.concurrency) : Json()},
          {"rate_per_second", t.arrivals == Arrivals::closed ? Json() : json_number(t.rate)},
          {"requests", t.requests},
          {"prefix_hit", json_number(t.prefix_hit)},
          {"warm_prompts", t.warm_prompts}};
}

} // namespace

std::string figure_name(const LatencyCheck& check) {
  return fmt::format("{} {}", check.latency, to_string(check.statistic));
}

ServingValidation validate_serving(const Catalog& catalog, const ServingValidationRequest& request,
                                   std::span<const ServingRun> runs) {
  ServingValidation out;
  out.prefix_cache = engine_of(catalog, request.place.serving.engine).prefix_cache.has_value();
  std::map<std::string, ComparisonTally, std::less<>> tallies;
  for (const ServingRun& run : runs) {
    ServingCheck check = check_run(catalog, request, run, out.prefix_cache);
    for (const LatencyCheck& c : check.latencies) {
      tallies[figure_name(c)].add(c.comparison);
    }
    tallies["output tokens/s"].add(check.output_tokens_per_second);
    out.checks.push_back(std::move(check));
  }
  for (const auto& [figure, tally] : tallies) {
    out.summary.emplace(figure, tally.summary());
  }
  return out;
}

void to_json(Json& json, const ServingValidation& validation) {
  json = json_document("icx.serving-validation/1");
  Json runs = Json::array();
  for (const ServingCheck& c : validation.checks) {
    Json latencies = Json::array();
    for (const LatencyCheck& l : c.latencies) {
      Json row = comparison_json(l.comparison);
      row["latency"] = l.latency;
      row["statistic"] = std::string(to_string(l.statistic));
      latencies.push_back(std::move(row));
    }
    runs.push_back({{"origin", c.run.origin},
                    {"line", c.run.line},
                    {"tool", std::string(to_string(c.run.tool))},
                    {"model", c.run.model},
                    {"load", load_json(c.traffic)},
                    {"input_tokens", json_number(c.run.input_tokens)},
                    {"output_tokens", json_number(c.run.output_tokens)},
                    {"layout", layout_json(c.layout)},
                    {"latencies", std::move(latencies)},
                    {"output_tokens_per_second", comparison_json(c.output_tokens_per_second)}});
  }
  json["runs"] = std::move(runs);
  Json summary = Json::array();
  for (const auto& [figure, s] : validation.summary) {
    summary.push_back({{"figure", figure},
                       {"rows", s.predicted},
                       {"median_abs_error", json_number(s.median_abs_error)},
                       {"worst_abs_error", json_number(s.worst_abs_error)}});
  }
  json["summary"] = std::move(summary);
}

} // namespace icx
