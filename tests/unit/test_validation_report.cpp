#include "icx/reports/validation.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_fixtures.hpp"

namespace icx::unit_validation_report {
namespace {

using test::nvswitch_catalog;

constexpr const char* header =
    "hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,use,source\n";

TEST(ValidationReport, RowsKeepTheirFileAndAFailureNamesThem) {
  const std::string a =
      std::string(header) + "x,fast,8,1,all-reduce,ring,4294967296,,350,held-out,within 10 %\n";
  const std::string b = std::string(header) +
                        "x,fast,8,1,all-reduce,ring,4294967296,,700,held-out,twice: out\n"
                        "x,fast,8,1,all-reduce,ring,4294967296,,700,outside,shown only\n";
  const std::vector<MeasurementFile> files{{"a.csv", a}, {"b.csv", b}};
  const ValidationReport report = validation_report(nvswitch_catalog(), files);
  EXPECT_EQ(report.files, (std::vector<std::string>{"a.csv", "b.csv"}));
  EXPECT_EQ(report.file_of, (std::vector<std::size_t>{0, 1, 1}));
  EXPECT_FALSE(report.passed());
  // The 700 GB/s row: predicted ~350 GB/s, error about -50 %; two rows are held to a bound.
  EXPECT_EQ(report.failure.rfind("1 of 2 rows held to a bound are outside it: b.csv:2 (busbw -", 0),
            0U);
  EXPECT_NE(report.failure.find("bound ±10 %)"), std::string::npos);
  const Json json = report;
  EXPECT_EQ(json.at("schema"), "icx.validate/1");
  EXPECT_EQ(json.at("rows").at(1).at("file"), "b.csv");
  EXPECT_EQ(json.at("rows").at(1).at("metric"), "busbw");
  EXPECT_EQ(json.at("summary").at("held-out").at("rows"), 2);
  EXPECT_EQ(json.at("summary").at("outside").at("within_bound"), 0);
}

TEST(ValidationReport, PassesWhenEveryHeldRowIsWithin) {
  const std::string a =
      std::string(header) + "x,fast,8,1,all-reduce,ring,4294967296,,350,fit,within 10 %\n";
  const std::vector<MeasurementFile> files{{"a.csv", a}};
  const ValidationReport report = validation_report(nvswitch_catalog(), files);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(to_string(Metric::time), "time");
}

} // namespace
} // namespace icx::unit_validation_report
