// The serving engines' own all-reduce kernels (Implementation) and link topologies in the
// expected model (collectives.hpp).
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/wire/collectives.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_engine_kernels {
namespace {

// test::nvswitch_link (450 GB/s each way; ring 0.8, 2 µs/step, ramp 100 µs, slowdown 1; nvls
// 0.6, 30 µs) with engine kernels of easy figures. For 8 GPUs and S bytes:
//   one-shot   4 µs + 7 S / (450e9 × 0.5)        (each GPU reads 7 peers' buffers)
//   two-shot  10 µs + 1.75 S / (450e9 × 0.8)     (2(n-1)/n S over P2P)
//   multimem   6 µs + S / (450e9 × 0.6)          (S to the switch, the sum back)
// vLLM's limits are Hopper's for 8 GPUs: custom kernel below 256 KiB, multimem below 64 MiB.
Link engine_link(bool with_nvls = true) {
  Link link = test::nvswitch_link(true, with_nvls);
  link.expected->engine_all_reduce = EngineAllReduce{EngineKernelParameters{microseconds(4), 0.5},
                                                     EngineKernelParameters{microseconds(10), 0.8},
                                                     EngineKernelParameters{microseconds(6), 0.6},
                                                     Bytes::of(256.0 * 1024),
                                                     Bytes::of(64.0 * 1024 * 1024),
                                                     "s"};
  return link;
}

CollectiveRequest all_reduce(double bytes, Implementation implementation, int gpus = 8) {
  return {Collective::all_reduce,
          Algorithm::automatic,
          gpus,
          Bytes::of(bytes),
          {implementation, {}, {}}};
}

CollectiveCost cost_of(const Link& link, double bytes, Implementation implementation) {
  return expected_collective(link, all_reduce(bytes, implementation));
}

/// `cost` ran `kernel` in `seconds` (to 1 ps).
void expect_ran(const CollectiveCost& cost, Kernel kernel, double seconds) {
  EXPECT_EQ(cost.kernel, kernel);
  EXPECT_NEAR(cost.time.value(), seconds, 1e-12);
}

TEST(EngineKernels, EachKernelByHand) {
  // S = 1 MiB = 1,048,576 B.
  const Link link = engine_link();
  const CollectiveCost one_shot = cost_of(link, 1048576, Implementation::one_shot);
  // 4 µs + 7 × 1048576 / 225e9 = 4 + 32.6224 µs.
  expect_ran(one_shot, Kernel::one_shot, 36.622364e-6);
  // busbw as all_reduce_perf prints it: S / t × 1.75.
  EXPECT_NEAR(one_shot.busbw.value(), 1048576 / 36.622364e-6 * 1.75, 1e4);
  // 10 µs + 1.75 × 1048576 / 360e9 = 10 + 5.0972 µs.
  const CollectiveCost two_shot = cost_of(link, 1048576, Implementation::two_shot);
  expect_ran(two_shot, Kernel::two_shot, 15.097244e-6);
  // 6 µs + 1048576 / 270e9 = 6 + 3.8836 µs.
  const CollectiveCost multimem = cost_of(link, 1048576, Implementation::multimem);
  expect_ran(multimem, Kernel::multimem, 9.883615e-6);
  // One-shot over 4 GPUs reads 3 peers: 4 µs + 3 × 1048576 / 225e9 = 4 + 13.9810 µs.
  EXPECT_NEAR(
      expected_collective(link, all_reduce(1048576, Implementation::one_shot, 4)).time.value(),
      17.981014e-6, 1e-12);
}

TEST(EngineKernels, CustomTakesTheFasterShot) {
  // One-shot = two-shot where 4 µs + 7 S / 225e9 = 10 µs + 1.75 S / 360e9:
  // S = 6e-6 / (7 / 225e9 - 1.75 / 360e9) = 228,571.4 B.
  const Link link = engine_link();
  // 64 KiB: one-shot 4 + 2.0389 = 6.0389 µs, two-shot 10 + 0.3186 = 10.3186 µs.
  const CollectiveCost small = cost_of(link, 65536, Implementation::custom);
  expect_ran(small, Kernel::one_shot, 6.038898e-6);
  // 200,000 B: one-shot 10.2222 µs < two-shot 10.9722 µs; 260,000 B: one-shot 12.0889 µs >
  // two-shot 11.2639 µs.
  EXPECT_EQ(cost_of(link, 200000, Implementation::custom).kernel, Kernel::one_shot);
  EXPECT_EQ(cost_of(link, 260000, Implementation::custom).kernel, Kernel::two_shot);
  EXPECT_NEAR(cost_of(link, 260000, Implementation::custom).time.value(), 11.263889e-6, 1e-12);
  EXPECT_EQ(expected_lines(link, *link.expected, all_reduce(1, Implementation::custom)).size(), 2U);
}

TEST(EngineKernels, VllmDispatchesBySize) {
  // Below 256 KiB the custom kernel (its one-shot stage), multimem below 64 MiB, NCCL above.
  const Link link = engine_link();
  EXPECT_EQ(cost_of(link, 262143, Implementation::vllm).kernel, Kernel::one_shot);
  // 256 KiB = 262,144 B: multimem 6 µs + 262144 / 270e9 = 6.9709 µs (one-shot would take
  // 4 + 8.1556 = 12.1556 µs).
  const CollectiveCost at_custom_limit = cost_of(link, 262144, Implementation::vllm);
  expect_ran(at_custom_limit, Kernel::multimem, 6.970904e-6);
  EXPECT_EQ(cost_of(link, 67108863, Implementation::vllm).kernel, Kernel::multimem);
  // 64 MiB: NCCL's fastest line, nvls: 30 µs + 67108864 / 270e9 = 278.55 µs.
  const CollectiveCost nccl = cost_of(link, 67108864, Implementation::vllm);
  EXPECT_EQ(nccl.kernel, Kernel::nvls_simple);
  EXPECT_NEAR(nccl.time.value(), 278.55135e-6, 1e-11);
  // Without multimem figures the middle range is NCCL's; without NVLS too, at 1 MiB ring/LL
  // 28 µs + 3.5 × 1048576 / 360e9 = 38.1945 µs.
  Link no_multimem = engine_link(false);
  no_multimem.expected->engine_all_reduce->multimem.reset();
  expect_ran(cost_of(no_multimem, 1048576, Implementation::vllm), Kernel::ring_ll, 38.194489e-6);
}

TEST(EngineKernels, VllmLimitsAreTheWires) {
  // Blackwell's limits for 8 GPUs: the custom kernel below 1 MiB (one-shot below 256 KiB,
  // two-shot above), multimem below 128 MiB. Multimem needs no NVLS figures of NCCL's.
  Link link = engine_link(false);
  link.expected->engine_all_reduce->vllm_custom_below = Bytes::of(1024.0 * 1024);
  link.expected->engine_all_reduce->vllm_multimem_below = Bytes::of(128.0 * 1024 * 1024);
  EXPECT_EQ(cost_of(link, 262143, Implementation::vllm).kernel, Kernel::one_shot);
  // 512 KiB: two-shot 10 µs + 1.75 × 524288 / 360e9 = 12.5486 µs.
  expect_ran(cost_of(link, 524288, Implementation::vllm), Kernel::two_shot, 12.548622e-6);
  // 1 MiB: multimem 6 µs + 1048576 / 270e9 = 9.8836 µs.
  expect_ran(cost_of(link, 1048576, Implementation::vllm), Kernel::multimem, 9.883615e-6);
  EXPECT_EQ(cost_of(link, 134217727, Implementation::vllm).kernel, Kernel::multimem);
  EXPECT_EQ(cost_of(link, 134217728, Implementation::vllm).kernel, Kernel::ring_simple);
}

TEST(EngineKernels, SglangFallsBackToRingOnlyNccl) {
  const Link link = engine_link();
  // Below 8 MiB the faster shot: at 8,388,607 B two-shot 10 µs + 1.75 S / 360e9 = 50.778 µs
  // (one-shot 264.98 µs).
  const CollectiveCost custom = cost_of(link, 8388607, Implementation::sglang);
  expect_ran(custom, Kernel::two_shot, 50.777951e-6);
  // From 8 MiB = 8,388,608 B, NCCL with NVLS off: ring/LL 28 µs + 3.5 S / 360e9 = 109.556 µs
  // (ring/Simple 168.78 µs), though nvls would take 30 + 31.07 = 61.07 µs.
  const CollectiveCost ring = cost_of(link, 8388608, Implementation::sglang);
  expect_ran(ring, Kernel::ring_ll, 109.555911e-6);
  expect_ran(cost_of(link, 8388608, Implementation::nccl), Kernel::nvls_simple, 61.068919e-6);
  // NVLS asked for by name still runs.
  CollectiveRequest nvls = all_reduce(8388608, Implementation::sglang);
  nvls.algorithm = Algorithm::nvls;
  EXPECT_EQ(expected_collective(link, nvls).kernel, Kernel::nvls_simple);
  // The crossover follows the NCCL that SGLang runs: the ring/Simple line, 28 + 100 µs
  // = 128 µs at 360e9 / 1.75 B/s per byte of S: 128e-6 × 360e9 / 1.75 = 26,331,428.57 B
  // (NCCL as nccl-tests runs it, NVLS on: 30e-6 × 270e9 = 8.1e6 B).
  EXPECT_EQ(nccl_algorithm(all_reduce(1, Implementation::sglang)), Algorithm::ring);
  EXPECT_NEAR(crossover_size(link, all_reduce(1, Implementation::sglang))->value(), 26331428.57,
              0.01);
  EXPECT_NEAR(crossover_size(link, all_reduce(1, Implementation::nccl))->value(), 8.1e6, 1e-3);
}

TEST(EngineKernels, NcclIgnoresEngineFigures) {
  // 64 KiB under NCCL: ring/LL 28 µs + 3.5 × 65536 / 360e9 = 28.6372 µs, with or without
  // engine figures; vllm and sglang on a link without figures run NCCL too.
  const Link bare = test::nvswitch_link();
  for (const auto& [link, implementation] :
       {std::pair{engine_link(), Implementation::nccl}, std::pair{bare, Implementation::nccl},
        std::pair{bare, Implementation::vllm}, std::pair{bare, Implementation::sglang}}) {
    SCOPED_TRACE(to_string(implementation));
    expect_ran(cost_of(link, 65536, implementation), Kernel::ring_ll, 28.637156e-6);
  }
}

TEST(EngineKernels, CheckImplementation) {
  const Link link = engine_link();
  for (const Implementation always :
       {Implementation::nccl, Implementation::vllm, Implementation::sglang}) {
    EXPECT_TRUE(check_implementation(link, Collective::all_gather, always));
    EXPECT_TRUE(check_implementation(test::nvswitch_link(false), Collective::all_reduce, always));
  }
  EXPECT_TRUE(check_implementation(link, Collective::all_reduce, Implementation::custom));
  const Check gather = check_implementation(link, Collective::all_gather, Implementation::custom);
  ASSERT_FALSE(gather);
  EXPECT_EQ(gather.reason(), "the engines' own kernels (--impl custom) perform all-reduce only, "
                             "not all-gather; use --impl nccl");
  const CollectiveRequest all_gather{Collective::all_gather,
                                     Algorithm::automatic,
                                     8,
                                     Bytes::of(1e6),
                                     {Implementation::one_shot, {}, {}}};
  EXPECT_THROW((void)expected_collective(link, all_gather), InputError);
  // A link without figures for the kernel.
  const Check bare =
      check_implementation(test::nvswitch_link(), Collective::all_reduce, Implementation::multimem);
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.reason(), "wire 'testlink' has no published figures for the engines' multimem "
                           "all-reduce (engine_all_reduce in the catalog); use --impl nccl");
  EXPECT_THROW((void)cost_of(test::nvswitch_link(), 1e6, Implementation::multimem), InputError);
  // Custom needs either shot; a named shot needs its own figures.
  Link one_shot_only = engine_link();
  one_shot_only.expected->engine_all_reduce->two_shot.reset();
  EXPECT_TRUE(check_implementation(one_shot_only, Collective::all_reduce, Implementation::custom));
  EXPECT_FALSE(
      check_implementation(one_shot_only, Collective::all_reduce, Implementation::two_shot));
}

TEST(LinkTopologies, DefaultByGroupSizeOrByName) {
  // test::pcie_link: switch by default up to 4 GPUs, host up to 8, dual-socket only when named.
  const Link link = test::pcie_link();
  EXPECT_EQ(link_topology(link, "", 2)->id, "switch");
  EXPECT_EQ(link_topology(link, "", 4)->id, "switch");
  EXPECT_EQ(link_topology(link, "", 5)->id, "host");
  EXPECT_EQ(link_topology(link, "", 8)->id, "host");
  EXPECT_EQ(link_topology(link, "", 9), nullptr); // no default holds 9
  EXPECT_EQ(link_topology(link, "dual-socket", 2)->id, "dual-socket");
  try {
    (void)link_topology(link, "numa", 8);
    ADD_FAILURE() << "an unknown topology was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "wire 'testpcie' has no topology 'numa'; choose one of: dual-socket, "
                           "host, switch");
  }
  // A link without topologies has none, whatever is named.
  EXPECT_EQ(link_topology(test::nvswitch_link(), "", 8), nullptr);
  EXPECT_EQ(link_topology(test::nvswitch_link(), "host", 8), nullptr);
}

TEST(LinkTopologies, ReplaceEfficiencyAndStepLatency) {
  const Link link = test::pcie_link();
  const ExpectedModel model = with_topology(*link.expected, &link.topologies[0]);
  EXPECT_DOUBLE_EQ(model.efficiency, 0.4);
  EXPECT_EQ(model.step_latency, microseconds(5));
  EXPECT_EQ(model.ramp, microseconds(100)); // shared terms stay
  EXPECT_DOUBLE_EQ(model.small_message_slowdown, 1.0);
  EXPECT_EQ(with_topology(*link.expected, nullptr), *link.expected);
}

TEST(LinkTopologies, ExpectedCostNamesTheTopology) {
  const Link link = test::pcie_link();
  // 4 GPUs, 1e9 B, default "switch" (0.8, 3 µs): ring/Simple 6 × 3 µs + 100 µs +
  // 1.5e9 / (64e9 × 0.8) = 118 µs + 29.296875 ms = 29.414875 ms.
  const CollectiveCost by_default = expected_collective(
      link, {Collective::all_reduce, Algorithm::automatic, 4, Bytes::of(1e9), {}});
  ASSERT_NE(by_default.topology, nullptr);
  EXPECT_EQ(by_default.topology->id, "switch");
  expect_ran(by_default, Kernel::ring_simple, 29.414875e-3);
  // "dual-socket" (0.4, 5 µs): 6 × 5 µs + 100 µs + 1.5e9 / (64e9 × 0.4) = 58.72375 ms.
  const CollectiveRequest named{Collective::all_reduce,
                                Algorithm::automatic,
                                4,
                                Bytes::of(1e9),
                                {Implementation::nccl, "dual-socket", {}}};
  const CollectiveCost dual = expected_collective(link, named);
  EXPECT_EQ(dual.topology->id, "dual-socket");
  EXPECT_NEAR(dual.time.value(), 58.72375e-3, 1e-12);
  // The crossover follows the topology: 118 µs × 64e9 × 0.8 / 1.5 = 4,027,733.3 B.
  EXPECT_NEAR(
      crossover_size(link, {Collective::all_reduce, Algorithm::automatic, 4, Bytes::of(1), {}})
          ->value(),
      4027733.33, 1e-2);
  // An unknown name is refused; a link without topologies reports none.
  CollectiveRequest unknown = named;
  unknown.setup.topology = "numa";
  EXPECT_THROW((void)expected_collective(link, unknown), InputError);
  EXPECT_EQ(expected_collective(test::nvswitch_link(), unknown).topology, nullptr);
}

} // namespace
} // namespace icx::unit_engine_kernels
