// --ttft and --tpot: a duration, optionally after the statistic it holds ("p99:2s").
#include <string>

#include <gtest/gtest.h>

#include "icx/base/limits.hpp"
#include "options/numbers.hpp"

namespace icx::cli::unit_latency_target {
namespace {

/// The text the transform gives, or its error.
std::string transformed(std::string text) {
  const std::string error = latency_target(limits::target_seconds)(text);
  return error.empty() ? text : "error: " + error;
}

TEST(LatencyTarget, ADurationAloneHoldsTheMean) {
  const LatencyTarget t = latency_target_of(transformed("500ms"));
  EXPECT_EQ(t.statistic, Statistic::mean);
  EXPECT_DOUBLE_EQ(t.seconds, 0.5);
}

TEST(LatencyTarget, AStatisticBeforeAColonNamesIt) {
  const LatencyTarget p99 = latency_target_of(transformed("p99:2s"));
  EXPECT_EQ(p99.statistic, Statistic::p99);
  EXPECT_DOUBLE_EQ(p99.seconds, 2);
  const LatencyTarget p90 = latency_target_of(transformed("p90:50ms"));
  EXPECT_EQ(p90.statistic, Statistic::p90);
  EXPECT_DOUBLE_EQ(p90.seconds, 0.05);
  EXPECT_EQ(latency_target_of(transformed("mean:1s")).statistic, Statistic::mean);
  EXPECT_EQ(latency_target_of(transformed("p50:1s")).statistic, Statistic::p50);
}

TEST(LatencyTarget, RefusesAnUnknownStatisticOrAMissingDuration) {
  EXPECT_NE(transformed("p95:2s").find("mean, p50, p90 or p99"), std::string::npos);
  EXPECT_NE(transformed("p99:").find("expected a duration"), std::string::npos);
  EXPECT_NE(transformed("p99:2").find("expected a duration"), std::string::npos);
  EXPECT_NE(transformed(":2s").find("got ''"), std::string::npos);
}

} // namespace
} // namespace icx::cli::unit_latency_target
