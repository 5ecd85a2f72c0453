// Serving benchmark result files as their tools write them, read by hand.
#include "icx/measured/serving_run.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/reports/serving_calibration.hpp"
#include "icx/reports/serving_validation.hpp"
#include "icx/serving/engine.hpp"

namespace icx::unit_serving_run {
namespace {

/// vllm_llama33_70b_tp8_a100_qps_inf.json's summary (tests/golden/serving): 200 ShareGPT
/// prompts sent at once.
constexpr const char* vllm_inf =
    R"({"date": "20250414-141743", "backend": "vllm", "model_id": "meta-llama/Llama-3.3-70B-Instruct",
 "num_prompts": 200, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": null,
 "duration": 23.81432977400027, "completed": 200, "total_input_tokens": 42659,
 "total_output_tokens": 42398, "request_throughput": 8.398304797910107, "request_goodput:": null,
 "output_throughput": 1780.3566341089636, "mean_ttft_ms": 360.36056903502185,
 "median_ttft_ms": 349.84637349998593, "p99_ttft_ms": 450.3786364301777,
 "mean_tpot_ms": 39.06266014106353, "median_tpot_ms": 36.973057458311075,
 "p99_tpot_ms": 75.76524432244929, "mean_itl_ms": 34.188907868808926,
 "median_itl_ms": 35.05137500019373, "p99_itl_ms": 43.595131400124956})";

TEST(ServingRun, ReadsVllmsSavedResult) {
  const std::vector<ServingRun> runs = parse_serving_runs(vllm_inf, "qps_inf.json");
  ASSERT_EQ(runs.size(), 1U);
  const ServingRun& r = runs.front();
  EXPECT_EQ(r.tool, BenchTool::vllm);
  EXPECT_EQ(r.model, "meta-llama/Llama-3.3-70B-Instruct");
  // "inf" and no cap: every request at once.
  EXPECT_FALSE(r.rate.has_value());
  EXPECT_FALSE(r.concurrency.has_value());
  EXPECT_EQ(r.completed, 200);
  EXPECT_DOUBLE_EQ(r.input_tokens, 42659.0 / 200);
  EXPECT_DOUBLE_EQ(r.output_tokens, 42398.0 / 200);
  EXPECT_DOUBLE_EQ(r.ttft.mean->value(), 0.36036056903502185);
  EXPECT_DOUBLE_EQ(r.ttft.p50->value(), 0.34984637349998593);
  EXPECT_FALSE(r.ttft.p90.has_value());
  EXPECT_DOUBLE_EQ(r.tpot.p99->value(), 0.07576524432244929);
  EXPECT_DOUBLE_EQ(r.itl.mean->value(), 0.034188907868808926);
  EXPECT_DOUBLE_EQ(r.output_tokens_per_second, 1780.3566341089636);
}

TEST(ServingRun, ReadsSglangsLinesWithTheirBareInfinity) {
  // Two runs of SGLang's 2024 format: medians only, the request rate of the first Python's
  // Infinity (unlimited), a tag naming Infinity inside a string, the throughput from the
  // duration.
  const std::string text =
      R"({"backend": "sglang", "tag": "Infinity, NaN", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": 64, "total_input_tokens": 3000, "total_output_tokens": 1500, "median_ttft_ms": 85.5, "median_itl_ms": 13.5, "output_throughput": 500.0, "duration": 3.0, "completed": 30})"
      "\n\n"
      R"({"backend": "sglang", "dataset_name": "random", "request_rate": 2.0, "max_concurrency": null, "total_input_tokens": 3000, "total_output_tokens": 1500, "median_ttft_ms": 90.0, "median_itl_ms": 14.0, "output_throughput": 400.0, "duration": 15.0, "completed": 30})"
      "\n";
  const std::vector<ServingRun> runs = parse_serving_runs(text, "runs.jsonl");
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].tool, BenchTool::sglang);
  EXPECT_EQ(runs[0].line, 1U);
  EXPECT_EQ(runs[1].line, 3U);
  EXPECT_FALSE(runs[0].rate.has_value());
  EXPECT_EQ(runs[0].concurrency, 64);
  EXPECT_DOUBLE_EQ(*runs[1].rate, 2.0);
  EXPECT_DOUBLE_EQ(runs[0].requests_per_second, 10.0);
  EXPECT_DOUBLE_EQ(runs[1].requests_per_second, 2.0);
  EXPECT_DOUBLE_EQ(runs[0].input_tokens, 100.0);
  EXPECT_FALSE(runs[0].tpot.any());
  EXPECT_DOUBLE_EQ(runs[0].itl.p50->value(), 0.0135);
}

TEST(ServingRun, ReadsGenaiPerfsExportOldAndNew) {
  const std::string metrics =
      R"("time_to_first_token": {"unit": "ms", "avg": 20.0, "p50": 19.0, "p90": 25.0, "p99": 30.0},
 "inter_token_latency": {"unit": "ms", "avg": 7.0, "p50": 7.0, "p90": 7.5, "p99": 8.0},
 "request_throughput": {"unit": "requests/sec", "avg": 3.0},
 "output_token_throughput": {"unit": "tokens/sec", "avg": 150.0},
 "output_sequence_length": {"unit": "tokens", "avg": 50.0},
 "input_sequence_length": {"unit": "tokens", "avg": 100.0},)";
  const ServingRun old = parse_serving_runs(
      "{" + metrics + R"( "input_config": {"model": ["ensemble"], "concurrency": 100}})", "a")[0];
  EXPECT_EQ(old.tool, BenchTool::genai_perf);
  EXPECT_EQ(old.model, "ensemble");
  EXPECT_EQ(old.concurrency, 100);
  EXPECT_FALSE(old.completed.has_value());
  // genai-perf's inter-token latency is per request: TPOT.
  EXPECT_DOUBLE_EQ(old.tpot.p90->value(), 0.0075);
  EXPECT_FALSE(old.itl.any());
  const ServingRun nested = parse_serving_runs("{" + metrics +
                                                   R"( "request_count": {"unit": "count", "avg": 8},
 "input_config": {"perf_analyzer": {"stimulus": {"request_rate": 4.0}}}})",
                                               "b")[0];
  EXPECT_FALSE(nested.concurrency.has_value());
  EXPECT_DOUBLE_EQ(*nested.rate, 4.0);
  EXPECT_EQ(nested.completed, 8);
}

TEST(ServingRun, RefusesWhatIsNoRunOrLacksItsFigures) {
  EXPECT_THROW(parse_serving_runs("", "x"), InputError);
  EXPECT_THROW(parse_serving_runs("[1, 2]", "x"), InputError);
  EXPECT_THROW(parse_serving_runs(R"({"mean_ttft_ms": 1})", "x"), InputError);
  std::string zero = vllm_inf;
  zero.replace(zero.find("\"completed\": 200"), 16, "\"completed\": 0");
  EXPECT_THROW(parse_serving_runs(zero, "x"), InputError);
  std::string negative = vllm_inf;
  negative.replace(negative.find("\"mean_ttft_ms\": 3"), 17, "\"mean_ttft_ms\": -3");
  EXPECT_THROW(parse_serving_runs(negative, "x"), InputError);
  try {
    std::string one_line = vllm_inf;
    std::ranges::replace(one_line, '\n', ' ');
    parse_serving_runs(one_line + "\n" + R"({"median_ttft_ms": "a"})", "two.jsonl");
    FAIL() << "a second line without its figures is refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two.jsonl:2"), std::string::npos) << e.what();
  }
}

/// Llama 3.1 8B in BF16 on one H100, the shipped engine (vLLM).
ServingValidationRequest eight_b_on_one_h100(const Catalog& catalog) {
  ServingValidationRequest request;
  request.place.model = &catalog.model("8b");
  request.place.dtype = &catalog.dtype("bf16");
  request.place.serving = with_default_dtypes(catalog, *request.place.dtype, request.place.serving);
  request.place.cluster = {&catalog.gpu("h100-sxm"), 1, 8, 8, &catalog.link("nvlink4"), nullptr, 8};
  return request;
}

TEST(ServingValidation, ARunIsSimulatedAsItWasSent) {
  const Catalog catalog = Catalog::shipped();
  const ServingValidationRequest request = eight_b_on_one_h100(catalog);
  ServingRun run = parse_serving_runs(vllm_inf, "x")[0];
  run.completed = 20;
  // Every request at once: as many clients as requests, none left out, at the mean lengths.
  ServingValidation v = validate_serving(catalog, request, std::span(&run, 1));
  const Traffic& all = v.checks[0].traffic;
  EXPECT_EQ(all.arrivals, Arrivals::closed);
  EXPECT_EQ(all.concurrency, 20);
  EXPECT_EQ(all.requests, 20);
  EXPECT_EQ(all.warmup, 0);
  EXPECT_EQ(all.input.nominal, 213);
  EXPECT_EQ(all.output.nominal, 212);
  EXPECT_EQ(v.checks[0].simulated.result.measured, 20);
  // A rate: Poisson arrivals at it; a cap: a closed loop of that many clients.
  run.rate = 4;
  v = validate_serving(catalog, request, std::span(&run, 1));
  EXPECT_EQ(v.checks[0].traffic.arrivals, Arrivals::poisson);
  EXPECT_DOUBLE_EQ(v.checks[0].traffic.rate, 4);
  run.concurrency = 5;
  v = validate_serving(catalog, request, std::span(&run, 1));
  EXPECT_EQ(v.checks[0].traffic.arrivals, Arrivals::closed);
  EXPECT_EQ(v.checks[0].traffic.concurrency, 5);
  // Each of the run's nine latency figures and its throughput, compared.
  EXPECT_EQ(v.checks[0].latencies.size(), 9U);
  EXPECT_EQ(v.summary.count("TTFT p99"), 1U);
}

TEST(ServingValidation, TheFirstPromptIsCachedWhereTheToolWarmedItUp) {
  const Catalog catalog = Catalog::shipped();
  ServingValidationRequest request = eight_b_on_one_h100(catalog);
  ServingRun run = parse_serving_runs(vllm_inf, "x")[0];
  run.completed = 4;
  run.concurrency = 1;
  // vllm bench serve sends request 0's prompt as its test before the run: one warm prompt.
  const ServingCheck vllm = validate_serving(catalog, request, std::span(&run, 1)).checks[0];
  EXPECT_EQ(vllm.traffic.warm_prompts, 1);
  const LatencySummary& warm = vllm.simulated.result.ttft;
  // genai-perf sends none: every request prefills its whole prompt, the mean at the median.
  run.tool = BenchTool::genai_perf;
  const ServingCheck genai = validate_serving(catalog, request, std::span(&run, 1)).checks[0];
  EXPECT_EQ(genai.traffic.warm_prompts, 0);
  const LatencySummary& cold = genai.simulated.result.ttft;
  EXPECT_NEAR(cold.mean.value(), cold.p50.value(), 1e-12);
  // One request in four is faster, the other three as cold: the mean falls, the median holds.
  EXPECT_LT(warm.mean.value(), cold.mean.value() * 0.95);
  EXPECT_NEAR(warm.p50.value(), cold.p50.value(), 1e-12);
  // --warm-prompts overrides the tool's own.
  request.warm_prompts = 0;
  run.tool = BenchTool::vllm;
  EXPECT_EQ(validate_serving(catalog, request, std::span(&run, 1)).checks[0].traffic.warm_prompts,
            0);
}

} // namespace
} // namespace icx::unit_serving_run

namespace icx::unit_serving_run {
namespace {

/// A run of 8B on one H100 as the simulation gives it with `costs` (on the request's engine):
/// its mean TTFT and TPOT.
ServingRun simulated_run(const Catalog& catalog, const ServingValidationRequest& request,
                         const EngineCosts& costs, std::int64_t clients) {
  Engine engine = engine_of(catalog, request.place.serving.engine);
  engine.costs = costs;
  ServingValidationRequest with = request;
  with.place.serving.engine = &engine;
  ServingRun run;
  run.concurrency = clients;
  run.completed = 200;
  run.input_tokens = 500;
  run.output_tokens = 100;
  // Figures to be replaced by the simulation's.
  run.ttft.mean = Seconds::of(1);
  run.tpot.mean = Seconds::of(1);
  const ServingCheck check = validate_serving(catalog, with, std::span(&run, 1)).checks[0];
  run.ttft.mean = check.simulated.result.ttft.mean;
  run.tpot.mean = check.simulated.result.tpot.mean;
  run.output_tokens_per_second = check.simulated.output_tokens_per_second;
  return run;
}

TEST(ServingCalibration, RecoversTheCostsRunsWereMadeWith) {
  const Catalog catalog = Catalog::shipped();
  const ServingValidationRequest request = eight_b_on_one_h100(catalog);
  EngineCosts truth = engine_of(catalog, nullptr).costs;
  truth.step = Seconds::of(2e-3);
  truth.request = Seconds::of(30e-3);
  truth.prompt_scale = 0.5;
  const std::vector<ServingRun> runs = {simulated_run(catalog, request, truth, 1),
                                        simulated_run(catalog, request, truth, 16)};
  const ServingCalibration c = calibrate_serving(catalog, request, runs);
  EXPECT_NEAR(c.fitted.step.value(), 2e-3, 0.05 * 2e-3);
  EXPECT_NEAR(c.fitted.request.value(), 30e-3, 0.05 * 30e-3);
  EXPECT_NEAR(c.fitted.prompt_scale, 0.5, 0.05 * 0.5);
  EXPECT_EQ(c.fitted.layer, truth.layer);
  EXPECT_LT(c.median_abs_error, 0.02);
  EXPECT_TRUE(c.misses.empty()) << c.misses;
  // The overlay is the engine's catalog entry with the fitted costs.
  const nlohmann::ordered_json overlay = serving_overlay(c);
  EXPECT_EQ(overlay["engines"][0]["id"], "vllm");
  EXPECT_NEAR(overlay["engines"][0]["costs"]["step_us"].get<double>(), 2000, 100);
  EXPECT_NEAR(overlay["engines"][0]["costs"]["prompt_scale"].get<double>(), 0.5, 0.025);
}

// SGLang's catalog prices 64.4 ms in every prefilling step. Runs made with 20 ms there and no
// time per request have a shorter TTFT than any request time can give with 64.4 ms; the fit
// lowers the prefill step once the request's time is none, and the runs come back.
TEST(ServingCalibration, LowersThePrefillStepWhereTheRunsNeedLess) {
  const Catalog catalog = Catalog::shipped();
  ServingValidationRequest request = eight_b_on_one_h100(catalog);
  request.place.serving.engine = &catalog.engine("sglang");
  EngineCosts truth = catalog.engine("sglang").costs;
  ASSERT_NEAR(truth.prefill_step.value(), 64.4e-3, 1e-4);
  truth.prefill_step = Seconds::of(20e-3);
  truth.request = Seconds::of(0);
  const std::vector<ServingRun> runs = {simulated_run(catalog, request, truth, 1),
                                        simulated_run(catalog, request, truth, 16)};
  const ServingCalibration c = calibrate_serving(catalog, request, runs);
  EXPECT_LT(c.fitted.prefill_step.value(), 64.4e-3 / 2);
  EXPECT_LT(c.median_abs_error, 0.02);
  EXPECT_TRUE(c.misses.empty()) << c.misses;
  // Runs that need more time keep the catalog's prefill step and take the rest per request.
  truth.prefill_step = catalog.engine("sglang").costs.prefill_step;
  truth.request = Seconds::of(30e-3);
  const std::vector<ServingRun> slower = {simulated_run(catalog, request, truth, 1),
                                          simulated_run(catalog, request, truth, 16)};
  const ServingCalibration kept = calibrate_serving(catalog, request, slower);
  EXPECT_EQ(kept.fitted.prefill_step, truth.prefill_step);
  EXPECT_LT(kept.median_abs_error, 0.02);
}

// TensorRT-LLM's PyTorch backend takes its step, layer and request times from vLLM's entry
// (costs_from). Calibrated on the user's runs, every figure is the overlay's own.
TEST(ServingCalibration, TheOverlayBorrowsNoFigure) {
  const Catalog catalog = Catalog::shipped();
  ServingValidationRequest request = eight_b_on_one_h100(catalog);
  request.place.serving.engine = &catalog.engine("trtllm");
  ASSERT_EQ(catalog.engine("trtllm").costs_from, "vllm");
  const EngineCosts truth = catalog.engine("trtllm").costs;
  const std::vector<ServingRun> runs = {simulated_run(catalog, request, truth, 1),
                                        simulated_run(catalog, request, truth, 16)};
  const nlohmann::ordered_json entry =
      serving_overlay(calibrate_serving(catalog, request, runs))["engines"][0];
  EXPECT_FALSE(entry.contains("costs_from")) << entry.dump();
  // vLLM's 19.1 µs a layer, which the calibration does not fit, now written as the entry's own.
  EXPECT_DOUBLE_EQ(entry["costs"]["layer_us"].get<double>(), 19.1);
  EXPECT_TRUE(entry["costs"].contains("step_us"));
  EXPECT_TRUE(entry["costs"].contains("request_us"));
}

} // namespace
} // namespace icx::unit_serving_run
