// The expected load model against published load times (data/measurements/loads.csv), and the
// parser of such files.
#include "icx/measured/loading_validation.hpp"

#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/reports/coldstart.hpp"

namespace icx::unit_load_validation {
namespace {

TEST(LoadValidation, EveryFitAndHeldOutRowIsWithinItsBound) {
  const Catalog catalog = Catalog::shipped();
  const MeasurementFile file = shipped_loads().front();
  const std::vector<LoadCheck> checks = check_loads(catalog, parse_loads_csv(file.text, "loads"));
  ASSERT_GE(checks.size(), 40U);
  int held_out = 0;
  for (const LoadCheck& c : checks) {
    held_out += c.row.use == "held-out" ? 1 : 0;
    EXPECT_FALSE(c.comparison.misses())
        << "line " << c.row.line << " " << c.row.hardware << " " << c.row.loader << ": measured "
        << c.row.measured.value() << " s, predicted " << *c.comparison.predicted << " s";
  }
  EXPECT_GE(held_out, 25);
}

/// Llama 3.1 70B in BF16 on four GPUs over PCIe 5.0, every catalog loader priced.
ColdStartRequest seventy_b_on_four(const Catalog& catalog) {
  ColdStartRequest request;
  request.model = &catalog.model("70b");
  request.dtype = &catalog.dtype("bf16");
  request.gpus = 4;
  request.host_link = &catalog.link("pcie5");
  request.loaders = catalog.loaders();
  return request;
}

TEST(LoadValidation, A70BOnFourH100sFromThePageCacheIsWithinTwiceTheVllmLoad) {
  // LMCache issue 714 (2025-05-28): vLLM's default loader put Qwen2.5-72B (145 GB) on 4 H100s
  // in 14-15 s. The same class of model, Llama 3.1 70B (141 GB), must come within 2x of it.
  const Catalog catalog = Catalog::shipped();
  ColdStartRequest request = seventy_b_on_four(catalog);
  request.storage = &catalog.storage("page-cache");
  request.loader = &catalog.loader("vllm-default");
  const ColdStartReport report = coldstart_report(request);
  ASSERT_TRUE(report.load_time);
  const double published = 14.5;
  EXPECT_LT(report.load_time->total.value(), 2 * published);
  EXPECT_GT(report.load_time->total.value(), published / 2);
  // The floor keeps its meaning: 141.1 GB / 4 GPUs over 64 GB/s each way.
  EXPECT_NEAR(report.load.floor.value(), 141107412992.0 / 4 / 64e9, 1e-9);
}

TEST(LoadValidation, AStatedBudgetGatesOnTheNamedLoader) {
  const Catalog catalog = Catalog::shipped();
  ColdStartRequest request = seventy_b_on_four(catalog);
  request.budget = Seconds::of(2);
  // The floor (0.55 s) fits 2 s; a named loader's several seconds do not.
  EXPECT_EQ(coldstart_report(request).within_budget, true);
  request.loader = &catalog.loader("vllm-default");
  const ColdStartReport gated = coldstart_report(request);
  EXPECT_EQ(gated.budget_basis, BudgetBasis::expected_load);
  EXPECT_EQ(gated.within_budget, false);
}

std::string parse_error(const std::string& text) {
  try {
    (void)parse_loads_csv(text, "f.csv");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

const std::string header = "hardware,gpus,host_link,weights_GB,from,storage_GBps,loader,"
                           "measured_s,use,bound,source\n";

TEST(LoadValidation, ParserNamesLineAndColumn) {
  EXPECT_EQ(parse_error("hardware,gpus\n"),
            "f.csv:1: header lacks column 'host_link'; required: hardware,gpus,host_link,"
            "weights_GB,from,loader,measured_s,use,source");
  EXPECT_EQ(parse_error(header + "h,1,pcie5,10,storage,,l,5,fit,2,s\n"),
            "f.csv:2: column 'storage_GBps': expected the storage's read rate for from = "
            "storage");
  EXPECT_EQ(parse_error(header + "h,1,pcie5,10,page-cache,,l,5,maybe,2,s\n"),
            "f.csv:2: column 'use': unknown use 'maybe'; known: fit, held-out, outside");
  EXPECT_EQ(parse_error(header + "h,1,pcie5,10,page-cache,,l,5,fit,0.5,s\n"),
            "f.csv:2: column 'bound': expected a number from 1 to 1000, got '0.5'");
  EXPECT_EQ(parse_error(header + "h,0,pcie5,10,page-cache,,l,5,fit,2,s\n"),
            "f.csv:2: column 'gpus': expected a whole number from 1 to 1048576, got '0'");
}

TEST(LoadValidation, ParsesARow) {
  const auto rows = parse_loads_csv(header + "\"8x H200, R1\",8,pcie5,688.6,storage,50,"
                                             "vllm-default,160,held-out,3,src\n",
                                    "f.csv");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].hardware, "8x H200, R1");
  EXPECT_EQ(rows[0].gpus, 8);
  EXPECT_DOUBLE_EQ(rows[0].weights.value(), 688.6e9);
  EXPECT_DOUBLE_EQ(rows[0].storage->value(), 50e9);
  EXPECT_DOUBLE_EQ(rows[0].measured.value(), 160);
  EXPECT_DOUBLE_EQ(*rows[0].bound, 3);
}

} // namespace
} // namespace icx::unit_load_validation
