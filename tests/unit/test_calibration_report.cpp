#include "icx/reports/calibration.hpp"

#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_calibration_report {
namespace {

using test::nvswitch_catalog;

/// A log of `test` over 8 ranks whose times the expected model gives with ring efficiency
/// `efficiency` and 3 µs per step, times `scale`.
NcclTestLog log_of(const Link& link, const std::string& test, Collective op, double efficiency,
                   double scale) {
  ExpectedModel truth = *link.expected;
  truth.efficiency = efficiency;
  truth.step_latency = microseconds(3);
  NcclTestLog log;
  log.test = test;
  log.ranks = 8;
  std::size_t line = 10;
  for (double size = 1024; size <= 16e9; size *= 4) {
    NcclTestRow row;
    row.line = line++;
    row.size = Bytes::of(size);
    const CollectiveRequest request{op, Algorithm::ring, 8, row.size, {}};
    row.out_of_place.time = expected_time(link, truth, request) * scale;
    log.rows.push_back(row);
  }
  return log;
}

CalibrationRequest request_for(const Link& link, NcclTestLog log, const std::string& name) {
  CalibrationRequest request;
  request.link = &link;
  request.log = std::move(log);
  request.log_name = name;
  request.gpus = 8;
  return request;
}

TEST(CalibrationReport, OperationFromTheTestName) {
  EXPECT_EQ(collective_of_test("all_gather_perf"), Collective::all_gather);
  EXPECT_EQ(collective_of_test("alltoall_perf"), Collective::all_to_all);
  EXPECT_EQ(collective_of_test("sendrecv_perf"), Collective::point_to_point);
  EXPECT_FALSE(collective_of_test("broadcast_perf"));
  CalibrationRequest request;
  request.log_name = "b.log";
  request.log.test = "broadcast_perf";
  EXPECT_THROW((void)measured_collective(request), InputError);
  request.op = Collective::all_reduce; // --op wins over the log
  EXPECT_EQ(measured_collective(request), Collective::all_reduce);
  request.op.reset();
  request.log.test.clear(); // a log that names no test: all-reduce
  EXPECT_EQ(measured_collective(request), Collective::all_reduce);
}

TEST(CalibrationReport, FitsAndBuildsTheOverlayEntry) {
  const Catalog c = nvswitch_catalog();
  const Link& link = c.link("fast");
  const CalibrationRequest request = request_for(
      link, log_of(link, "all_gather_perf", Collective::all_gather, 0.7, 1.0), "ag.log");
  const CalibrationReport report = calibration_report(c, request);
  EXPECT_EQ(report.op, Collective::all_gather);
  // All-gather over 8 GPUs: 7 ring steps of 3 µs = 21 µs, efficiency 0.7.
  EXPECT_EQ(report.fitted.steps, 7);
  EXPECT_NEAR(report.fitted.efficiency, 0.7, 1e-3);
  EXPECT_NEAR(report.fit.latency.value(), 21e-6, 21e-9);
  EXPECT_EQ(report.lines.front(), 10U);
  EXPECT_TRUE(report.quality.acceptable());
  EXPECT_TRUE(report.misses.empty());
  ASSERT_TRUE(report.overlay.expected);
  EXPECT_EQ(report.overlay.id, "fast");
  EXPECT_NE(report.overlay.expected->source.find("ag.log (12 all-gather rows over 8 GPUs, ring)"),
            std::string::npos);
  const Json overlay = catalog_overlay(report.overlay);
  const Json& entry = overlay.at("links").at(0);
  EXPECT_EQ(entry.at("per_direction_GBps"), 450);
  EXPECT_NEAR(entry.at("expected").at("efficiency").get<double>(), 0.7, 1e-3);
  EXPECT_NEAR(entry.at("expected").at("step_latency_us").get<double>(), 3.0, 3e-3);
  EXPECT_EQ(entry.at("expected").at("ramp_us"), 100.0);
  const Json json = report;
  EXPECT_EQ(json.at("schema"), "icx.calibrate/1");
  EXPECT_EQ(json.at("op"), "all-gather");
  EXPECT_EQ(json.at("rows").size(), 12U);
  EXPECT_TRUE(json.at("fitted").contains("step_latency_seconds"));
  EXPECT_EQ(json.at("overlay"), overlay);
}

TEST(CalibrationReport, SaysWhyAFitMissesItsBounds) {
  const Catalog c = nvswitch_catalog();
  const Link& link = c.link("fast");
  // Ten times faster than efficiency 0.5 allows: the fit runs into efficiency 1.
  CalibrationRequest request = request_for(
      link, log_of(link, "all_reduce_perf", Collective::all_reduce, 0.5, 0.1), "fast.log");
  const CalibrationReport report = calibration_report(c, request);
  EXPECT_TRUE(report.fit.efficiency_at_limit);
  EXPECT_FALSE(report.quality.acceptable());
  EXPECT_NE(report.misses.find("as fast as 450 GB/s each way allows"), std::string::npos);
  // Up to five rows beyond 50 % are named, the rest counted.
  const std::size_t beyond = report.quality.rows_beyond.size();
  ASSERT_GT(beyond, 5U);
  EXPECT_NE(report.misses.find(std::to_string(beyond) + " of 12 rows off by more than 50 %: line "),
            std::string::npos);
  EXPECT_NE(report.misses.find(", " + std::to_string(beyond - 5) + " more; the efficiency"),
            std::string::npos);
  request.algorithm = Algorithm::nvls;
  request.op = Collective::all_to_all;
  EXPECT_THROW((void)calibration_report(c, request), InputError);
}

} // namespace
} // namespace icx::unit_calibration_report
