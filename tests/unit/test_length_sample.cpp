#include "icx/serving/length_sample.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/serving/simulate.hpp"

namespace icx::unit_length_sample {
namespace {

// The published run the shipped sample comes from (data/measurements/README.md): its log
// reports 200 successful requests, 42,659 input and 42,722 generated tokens, and its
// per-request lengths run from 4 to 933 prompt tokens and 1 to 780 output tokens.
constexpr double requests = 200;
constexpr double mean_input = 42659 / requests;
constexpr double mean_output = 42722 / requests;

TEST(LengthSample, TheShippedSampleIsThePublishedRunsRequestsOverTheirMeans) {
  const auto sample = sharegpt_sample();
  ASSERT_EQ(sample.size(), 200U);
  const auto [shortest, longest] = std::ranges::minmax(sample, {}, &LengthPair::input);
  EXPECT_NEAR(shortest.input, 4 / mean_input, 1e-12);
  EXPECT_NEAR(longest.input, 933 / mean_input, 1e-12);
  const auto [fewest, most] = std::ranges::minmax(sample, {}, &LengthPair::output);
  EXPECT_NEAR(fewest.output, 1 / mean_output, 1e-12);
  EXPECT_NEAR(most.output, 780 / mean_output, 1e-12);
}

std::string error_of(const std::string& csv) {
  try {
    (void)parse_length_sample(csv, "lengths.csv");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(LengthSample, ErrorsNameTheFileLineAndColumn) {
  EXPECT_EQ(error_of("input,output\n10,0\n"),
            "lengths.csv:2: column 'output': expected a whole number from 1 to 100000000, got "
            "'0'");
  EXPECT_EQ(error_of("input,output\n1.5,3\n"),
            "lengths.csv:2: column 'input': expected a whole number from 1 to 100000000, got "
            "'1.5'");
  EXPECT_EQ(error_of("input,output\n"), "lengths.csv: no measurement rows after the header");
  EXPECT_EQ(error_of("prompt,output\n3,4\n").rfind("lengths.csv:1: ", 0), 0U);
}

TEST(LengthSample, PairsAreDividedByTheirColumnsMeans) {
  const auto pairs = parse_length_sample("input,output\n100,30\n300,10\n", "f.csv");
  ASSERT_EQ(pairs.size(), 2U);
  EXPECT_DOUBLE_EQ(pairs[0].input, 0.5);
  EXPECT_DOUBLE_EQ(pairs[0].output, 1.5);
  EXPECT_DOUBLE_EQ(pairs[1].input, 1.5);
  EXPECT_DOUBLE_EQ(pairs[1].output, 0.5);
}

TEST(LengthSample, ASimulationDrawsTheSamplesSkewAroundTheNominalMean) {
  // One client alone: each request's TTFT is its prompt step, 1 ms + 0.1 ms a prompt token.
  StepCosts costs;
  costs.batches = {1, 2};
  costs.decode = {Seconds::of(1e-3), Seconds::of(1e-3)};
  costs.per_context_token = {Seconds{}, Seconds{}};
  costs.base_context = 1;
  costs.per_prompt_token = Seconds::of(1e-4);
  costs.prefill_fixed = Seconds::of(1e-3);
  Traffic t;
  t.arrivals = Arrivals::closed;
  t.concurrency = 1;
  t.input = {LengthShape::sharegpt, 213, 0};
  t.output = {LengthShape::sharegpt, 4, 0};
  t.requests = 10000;
  const SimulationResult r = simulate(costs, {8, 4096, 1'000'000, SchedulePolicy::decode_first}, t);
  // The mean prompt is the nominal 213 tokens, within the 10,000 draws' standard error (the
  // sample's prompts vary by 1.1 x their mean: about 2.3 tokens, 0.23 ms).
  EXPECT_NEAR(r.ttft.mean.value(), 1e-3 + 213 * 1e-4, 1e-3);
  // Its median is far below the mean, as the run's was: its 95th to 102nd shortest of 200
  // prompts are 76 to 107 tokens (x 213 / 213.3 as scaled).
  EXPECT_GE(r.ttft.p50.value(), 1e-3 + 76 * 1e-4 - 1e-4);
  EXPECT_LE(r.ttft.p50.value(), 1e-3 + 107 * 1e-4 + 1e-4);
}

} // namespace
} // namespace icx::unit_length_sample
