// Fitting the scale-out link of a log whose GPUs span nodes (calibrate_fabric), on times
// worked by hand from icx/wire/fabric.hpp's tree formulas: two nodes of 8 GPUs on an NVSwitch link
// (450 GB/s each way, ring efficiency 0.8, 2 µs per step) and 8 NICs of 25 GB/s each.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/measured/calibration.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_calibration_fabric {
namespace {

struct Parts {
  Link up = test::nvswitch_link();
  Link nic = test::make_link("nic", Tier::scale_out, 25);
  [[nodiscard]] Fabric fabric() const { return {&up, 8, &nic, 8}; }
};

/// The prior the fit starts from (and keeps the ramp and slowdown of, in one regime): the
/// NVSwitch link's own model, without its in-network reduction.
ExpectedModel prior() {
  ExpectedModel model = *test::nvswitch_link().expected;
  model.in_network_reduction.reset();
  return model;
}

/// The tree between two nodes with the NIC at efficiency 0.8, 20 µs per step, ramp 300 µs and
/// LL slowdown 4. Latency 2·(7 steps inside at 2 µs + 1 step between nodes at 20 µs) = 68 µs.
/// Each node's NICs carry 2S at 8 · 25 · 0.8 = 160 GB/s (NCCL's tree has no two-node saving
/// without NVLS), slower than the chain inside the node (2S at 450 · 0.8 = 360 GB/s), so
/// 2S / 160 GB/s = S / 80 GB/s is the bandwidth term. LL: 68 µs + 5 S / 80 GB/s; Simple:
/// 368 µs + S / 80 GB/s; the faster runs.
Seconds tree_time(double size) {
  return Seconds::of(std::min(68e-6 + 5 * size / 80e9, 368e-6 + size / 80e9));
}

TEST(CalibrationFabric, RecoversTheScaleOutParametersThatMadeTheTimes) {
  const Parts p;
  std::vector<TimedSample> samples;
  for (double size = 8; size <= 8.0 * 1024 * 1024 * 1024; size *= 4) {
    samples.push_back({Bytes::of(size), tree_time(size)});
  }
  const CalibrationResult fit =
      calibrate_fabric(p.fabric(), prior(), Collective::all_reduce, Algorithm::tree, 16, samples);
  EXPECT_EQ(fit.regimes, 2);
  EXPECT_EQ(fit.steps, 2); // the two tree levels that cross nodes, up and down
  EXPECT_NEAR(fit.model.efficiency, 0.8, 1e-3);
  EXPECT_NEAR(fit.model.step_latency.value(), 20e-6, 0.1e-6);
  EXPECT_NEAR(fit.model.ramp.value(), 300e-6, 1e-6);
  EXPECT_NEAR(fit.model.small_message_slowdown, 4.0, 0.01);
  EXPECT_LT(fit.median_abs_error, 1e-3);
  // From 16 MiB on: 32 MiB, 128 MiB, …, 8 GiB, all on the Simple line.
  EXPECT_LT(median_abs_error_from(fit, Bytes::of(16.0 * 1024 * 1024)).value(), 1e-3);
}

TEST(CalibrationFabric, KeepsTheEfficiencyBoundOfTheNic) {
  // Faster than the tree over 8 NICs at 25 GB/s can carry (2S at 200 GB/s, S / 100 GB/s):
  // the fit stops at 1 and says so.
  const Parts p;
  std::vector<TimedSample> samples;
  for (double size = 1024 * 1024; size <= 8.0 * 1024 * 1024 * 1024; size *= 4) {
    samples.push_back({Bytes::of(size), Seconds::of(100e-6 + size / 400e9)});
  }
  const CalibrationResult fit =
      calibrate_fabric(p.fabric(), prior(), Collective::all_reduce, Algorithm::tree, 16, samples);
  EXPECT_LE(fit.model.efficiency, 1.0);
  EXPECT_TRUE(fit.efficiency_at_limit);
}

TEST(CalibrationFabric, NeedsAGroupThatSpansNodes) {
  const Parts p;
  const std::vector<TimedSample> samples{{Bytes::of(1e6), microseconds(100)},
                                         {Bytes::of(1e9), microseconds(10000)}};
  EXPECT_THROW((void)calibrate_fabric(p.fabric(), prior(), Collective::all_reduce, Algorithm::ring,
                                      8, samples),
               InputError);
  // 12 GPUs are not whole nodes of 8.
  EXPECT_THROW((void)calibrate_fabric(p.fabric(), prior(), Collective::all_reduce, Algorithm::ring,
                                      12, samples),
               InputError);
}

} // namespace
} // namespace icx::unit_calibration_fabric
