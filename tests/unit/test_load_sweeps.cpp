// icx coldstart --sweep and icx offload --sweep on inline figures chosen for hand arithmetic
// (not the shipped catalog): the rows each point gives, and points that cannot be computed.
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "sweeps/coldstart.hpp"
#include "sweeps/offload.hpp"
#include "test_fixtures.hpp"

namespace icx::cli::unit_load_sweeps {
namespace {

using test::make_dense;
using test::make_dtype;
using test::make_gpu;
using test::make_link;
using test::make_seventy_b;

Link host_link() {
  Link link = make_link("pcie5", Tier::host, 64);
  link.measured_host_to_device = gigabytes_per_second(51);
  return link;
}

const Link pcie5 = host_link();
const Dtype bf16 = make_dtype("bf16", 2);
const Gpu h100 = make_gpu("nvlink4", 8);

TEST(ColdstartSweep, OneFloorRowPerGpuCountWithoutLoaders) {
  // From host memory, the floor is one GPU's shard over its link: 140 GB / n / 64 GB/s.
  const Model model = make_seventy_b();
  ColdStartRequest base;
  base.model = &model;
  base.dtype = &bf16;
  base.host_link = &pcie5;
  SweepRows out;
  const SweepEnd result =
      coldstart_sweep(base, parse_sweep("gpus=1:4", coldstart_sweep_params), out);
  const Json& rows = out.rows;
  ASSERT_EQ(rows.size(), 3U); // 1, 2, 4 GPUs
  const double expected[] = {140.0 / 64, 70.0 / 64, 35.0 / 64};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(rows[i].at("series"), "floor");
    EXPECT_EQ(rows[i].at("limit"), "host-to-gpu");
    EXPECT_NEAR(rows[i].at("seconds").get<double>(), expected[i], 1e-12);
  }
  // The measured 51 GB/s gives the expected floor: 140 GB / 51 GB/s on one GPU.
  EXPECT_NEAR(rows[0].at("expected_floor_seconds").get<double>(), 140.0 / 51, 1e-12);
  ASSERT_EQ(result.plot.series.size(), 1U);
  EXPECT_EQ(result.plot.series[0].style, SeriesStyle::dashed);
  EXPECT_TRUE(result.plot.levels.empty());
}

TEST(ColdstartSweep, ACountTheWeightsCannotSplitOverIsANote) {
  // 81 GPUs: no tensor-parallel width of 64 heads leaves at most 80 pipeline stages.
  const Model model = make_seventy_b();
  ColdStartRequest base;
  base.model = &model;
  base.dtype = &bf16;
  base.host_link = &pcie5;
  base.budget = Seconds::of(1);
  SweepRows out;
  const SweepEnd result =
      coldstart_sweep(base, parse_sweep("gpus=80:81:1", coldstart_sweep_params), out);
  const Json& rows = out.rows;
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_TRUE(rows[0].at("note").is_null());
  // 140 GB / 80 / 64 GB/s = 27.3 ms: the floor fits a 1 s budget.
  EXPECT_EQ(rows[0].at("within_budget"), true);
  EXPECT_TRUE(rows[1].at("seconds").is_null());
  EXPECT_FALSE(rows[1].at("note").get<std::string>().empty());
  ASSERT_EQ(result.plot.levels.size(), 1U);
  EXPECT_EQ(result.plot.levels[0].value, 1);
}

TEST(OffloadSweep, BatchStepsAndAPointShortOfHostMemory) {
  // KV per sequence of 1024 tokens: 2 × 80 layers × 8 KV heads × 128 × 2 B × 1024 =
  // 335,544,320 B. One GPU keeps 80 GB × 0.8 = 64 GB; the rest spills.
  const Model model = make_seventy_b();
  OffloadRequest base;
  base.model = &model;
  base.dtype = &bf16;
  base.gpu = &h100;
  base.kv = KvLoad{1, 1024};
  base.host_links = {&pcie5};
  // Batch 1 spills 76.34 GB and fits; batch 2 spills 76.67 GB and does not.
  base.host_memory = Bytes::of(76.5e9);
  SweepRows out;
  const SweepEnd result = offload_sweep(base, {"--host-memory", ""},
                                        parse_sweep("batch=1:2", offload_sweep_params), out);
  const Json& rows = out.rows;
  ASSERT_EQ(rows.size(), 2U);
  const double needed = 140e9 + 335544320.0;
  const double spilled = needed - 64e9;
  EXPECT_EQ(rows[0].at("spilled_bytes").get<double>(), spilled);
  EXPECT_NEAR(rows[0].at("all_hbm_seconds").get<double>(), needed / 3350e9, 1e-12);
  // vllm: the resident bytes from HBM, then the spill over the link, not overlapped.
  EXPECT_NEAR(rows[0].at("step_seconds").get<double>(), 64e9 / 3350e9 + spilled / 64e9, 1e-12);
  EXPECT_NEAR(rows[0].at("expected_step_seconds").get<double>(), 64e9 / 3350e9 + spilled / 51e9,
              1e-12);
  EXPECT_TRUE(rows[1].at("step_seconds").is_null());
  EXPECT_FALSE(rows[1].at("note").get<std::string>().empty());
  // Expected and headline per link, and everything in HBM for reference.
  ASSERT_EQ(result.plot.series.size(), 3U);
  EXPECT_EQ(result.plot.series[2].style, SeriesStyle::reference);
  EXPECT_EQ(result.plot.series[2].points.size(), 1U);
}

TEST(OffloadSweep, TheSweptFlagAndItsPartner) {
  OffloadOptions options;
  const Sweep batch = parse_sweep("batch=1:8", offload_sweep_params);
  EXPECT_THROW(check_offload_sweep(options, batch), UsageError); // no --context
  options.context = 4096;
  EXPECT_NO_THROW(check_offload_sweep(options, batch));
  EXPECT_EQ(offload_sweep_base(options, batch).batch, 1);
  options.batch = 8;
  EXPECT_THROW(check_offload_sweep(options, batch), UsageError); // --batch and its sweep
}

} // namespace
} // namespace icx::cli::unit_load_sweeps
