#include "icx/host/host_link.hpp"

#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/memory/hbm.hpp"

namespace icx::unit_host_link {
namespace {

// Inline figures (not the shipped catalog), so a data edit cannot break these tests. The
// expected values are worked by hand in the comments.

Link host_link(double headline_gbps, Convention convention, std::optional<double> measured_gbps) {
  Link link;
  link.id = "link";
  link.tier = Tier::host;
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(headline_gbps));
  link.headline_convention = convention;
  if (measured_gbps) {
    link.measured_host_to_device = gigabytes_per_second(*measured_gbps);
  }
  return link;
}

const Link pcie5 = host_link(64, Convention::each_way, 51);
const Link unmeasured = host_link(32, Convention::each_way, std::nullopt);
const Link c2c = host_link(900, Convention::both_directions_summed, 346);

StorageTier storage(double low_gbps, double high_gbps, StorageScope scope) {
  StorageTier tier;
  tier.id = "tier";
  tier.read_bandwidth = {gigabytes_per_second(low_gbps), gigabytes_per_second(high_gbps)};
  tier.scope = scope;
  return tier;
}

Gpu gpu(double hbm_gb, double hbm_gbps) {
  Gpu g;
  g.id = "gpu";
  g.hbm_capacity = Bytes::of(hbm_gb * 1e9);
  g.hbm_bandwidth = gigabytes_per_second(hbm_gbps);
  return g;
}

const Gpu h100 = gpu(80, 3350);

TEST(HostLink, OneWayHeadlineHalvesABothWaysFigure) {
  EXPECT_EQ(one_way_headline(pcie5).high.value(), 64e9);
  EXPECT_EQ(one_way_headline(c2c).high.value(), 450e9); // 900 GB/s both ways = 450 each way
}

TEST(ColdStart, SeedCaseOneGpuOverPcie5) {
  // The seed: 140 GB over one PCIe 5.0 x16 at 64 GB/s: 140 / 64 = 2.1875 s ≈ 2.2 s.
  const ColdStart r = cold_start({Bytes::of(140e9), 1, 1, &pcie5, nullptr});
  ASSERT_EQ(r.stages.size(), 1U);
  EXPECT_EQ(r.stages[0].id, LoadStageId::host_to_gpu);
  EXPECT_EQ(r.per_gpu.value(), 140e9);
  EXPECT_DOUBLE_EQ(r.floor.value(), 2.1875);
  EXPECT_EQ(r.bottleneck, LoadStageId::host_to_gpu);
  // Measured 51 GB/s: 140 / 51 = 2.745098... s.
  ASSERT_TRUE(r.expected_floor.has_value());
  EXPECT_NEAR(r.expected_floor->value(), 2.7450980392, 1e-9);
}

TEST(ColdStart, NoMeasuredFigureMeansNoExpectedFloor) {
  // 64 GB over 32 GB/s = 2 s headline; nothing measured, so nothing expected.
  const ColdStart r = cold_start({Bytes::of(64e9), 1, 1, &unmeasured, nullptr});
  EXPECT_DOUBLE_EQ(r.floor.value(), 2.0);
  EXPECT_FALSE(r.expected_floor.has_value());
  EXPECT_FALSE(r.expected_bottleneck.has_value());
  EXPECT_FALSE(r.stages[0].expected_seconds.has_value());
}

TEST(ColdStart, ShardedLoadFromOneDriveIsStorageBound) {
  // 70 GB (fp8) over 8 GPUs from a 7 GB/s drive: the drive reads all 70 GB once (10 s); each
  // GPU copies 8.75 GB over its own 64 GB/s link (0.13671875 s) at the same time.
  const StorageTier drive = storage(7, 7, StorageScope::per_node);
  const ColdStart r = cold_start({Bytes::of(70e9), 8, 8, &pcie5, &drive});
  ASSERT_EQ(r.stages.size(), 2U);
  EXPECT_EQ(r.stages[0].id, LoadStageId::storage_to_host);
  EXPECT_EQ(r.stages[0].bytes.value(), 70e9);
  EXPECT_DOUBLE_EQ(r.stages[0].seconds.value(), 10.0);
  EXPECT_EQ(r.stages[1].bytes.value(), 8.75e9);
  EXPECT_DOUBLE_EQ(r.stages[1].seconds.value(), 0.13671875);
  EXPECT_DOUBLE_EQ(r.floor.value(), 10.0);
  EXPECT_EQ(r.bottleneck, LoadStageId::storage_to_host);
  // Expected: the drive's figure stands; the copy at 51 GB/s takes 8.75 / 51 s, still faster.
  EXPECT_NEAR(r.stages[1].expected_seconds->value(), 8.75 / 51, 1e-12);
  EXPECT_DOUBLE_EQ(r.expected_floor->value(), 10.0);
  EXPECT_EQ(r.expected_bottleneck, LoadStageId::storage_to_host);
}

TEST(ColdStart, PerNodeTierReadsOneNodesShardsSharedTierReadsAll) {
  // 160 GB over 16 GPUs (10 GB each), 8 per node: 2 nodes.
  const StorageTier local = storage(8, 8, StorageScope::per_node);
  const StorageTier shared = storage(8, 8, StorageScope::shared);
  const ColdStart per_node = cold_start({Bytes::of(160e9), 16, 8, &pcie5, &local});
  EXPECT_EQ(per_node.nodes, 2);
  EXPECT_EQ(per_node.gpus_on_fullest_node, 8);
  EXPECT_EQ(per_node.stages[0].bytes.value(), 80e9);        // 8 shards of 10 GB
  EXPECT_DOUBLE_EQ(per_node.stages[0].seconds.value(), 10); // 80 / 8
  const ColdStart all = cold_start({Bytes::of(160e9), 16, 8, &pcie5, &shared});
  EXPECT_EQ(all.stages[0].bytes.value(), 160e9);
  EXPECT_DOUBLE_EQ(all.stages[0].seconds.value(), 20); // 160 / 8
}

TEST(ColdStart, NodesAreWholeOrOnePart) {
  // 12 GPUs, 8 per node: not whole nodes, refused as every command refuses them; 16: two.
  EXPECT_THROW((void)cold_start({Bytes::of(120e9), 12, 8, &pcie5, nullptr}), InputError);
  const ColdStart r = cold_start({Bytes::of(120e9), 16, 8, &pcie5, nullptr});
  EXPECT_EQ(r.nodes, 2);
  EXPECT_EQ(r.gpus_on_fullest_node, 8);
  const ColdStart one_node = cold_start({Bytes::of(120e9), 4, 8, &pcie5, nullptr});
  EXPECT_EQ(one_node.nodes, 1);
  EXPECT_EQ(one_node.gpus_on_fullest_node, 4);
}

TEST(ColdStart, RangeUsesTheFastEndForTheFloor) {
  // A tier quoted as 5-10 GB/s: the lower bound takes 10 GB/s; 100 GB / 10 GB/s = 10 s.
  const StorageTier tier = storage(5, 10, StorageScope::per_node);
  const ColdStart r = cold_start({Bytes::of(100e9), 1, 1, &c2c, &tier});
  EXPECT_DOUBLE_EQ(r.stages[0].seconds.value(), 10.0);
  // The copy over NVLink-C2C runs at 450 GB/s one way: 100 / 450 s.
  EXPECT_NEAR(r.stages[1].seconds.value(), 100.0 / 450, 1e-12);
}

TEST(ColdStart, EqualStagesNameTheFirstAsBottleneck) {
  const StorageTier tier = storage(64, 64, StorageScope::per_node);
  const ColdStart r = cold_start({Bytes::of(64e9), 1, 1, &pcie5, &tier});
  EXPECT_EQ(r.bottleneck, LoadStageId::storage_to_host);
}

TEST(ColdStart, RejectsNoGpusAndNoLink) {
  EXPECT_THROW((void)cold_start({Bytes::of(1e9), 0, 1, &pcie5, nullptr}), InputError);
  EXPECT_THROW((void)cold_start({Bytes::of(1e9), 1, 0, &pcie5, nullptr}), InputError);
  EXPECT_THROW((void)cold_start({Bytes::of(1e9), 1, 1, nullptr, nullptr}), InputError);
}

// 70B-class: 80 layers, 64 query heads, 8 KV heads. Allowed tensor-parallel groups: the
// divisors of 64 (1, 2, 4, 8 split the KV heads; 16, 32, 64 replicate them whole).
const ShardShape llama70b{80, {64, 8, false, "70b"}};

TEST(ShardRule, TensorParallelOverHeadsTimesPipelineOverLayers) {
  for (int gpus : {1, 2, 3, 4, 5, 8, 16, 80, 82, 88, 640, 5120}) {
    EXPECT_TRUE(check_shard(llama70b, gpus)) << gpus;
  }
  // 81 = 3^4: only t = 1 divides it, so 81 pipeline stages for 80 layers.
  EXPECT_FALSE(check_shard(llama70b, 81));
  // 641 is prime: 641 stages; 648 = 8 × 81: the widest t is 8, 81 stages.
  EXPECT_FALSE(check_shard(llama70b, 641));
  EXPECT_FALSE(check_shard(llama70b, 648));
  EXPECT_FALSE(check_shard(llama70b, 0));
  EXPECT_EQ(largest_usable_gpus(llama70b, 81), 80);
  // The widest split: 64 heads, one per GPU, × 80 single-layer stages = 5,120 GPUs.
  EXPECT_EQ(largest_usable_gpus(llama70b, 1000000), 5120);
}

TEST(ShardRule, MessageNamesTheNumbers) {
  const Check check = check_shard(llama70b, 81);
  ASSERT_FALSE(check);
  EXPECT_EQ(check.reason(),
            "81 GPUs cannot split catalog model '70b' with 80 layers: its widest "
            "tensor-parallel group within 81 GPUs is 1 (whole attention heads; KV "
            "heads split or replicated), leaving 81 pipeline stages for 80 layers; use "
            "t × p GPUs with t one of 1, 2, 4, 8, 16, 32, 64 and p at most 80 (the "
            "largest such count up to 81 is 80)");
}

TEST(ShardRule, UnknownHeadsSkipTheCheck) {
  EXPECT_TRUE(check_shard({80, {}}, 1000));
}

TEST(ShardRule, TensorParallelWidthPrefersSplittingKvHeads) {
  // 16 GPUs: t = 16 would replicate the 8 KV heads; t = 8 × 2 stages splits them.
  EXPECT_EQ(tensor_parallel_width(llama70b, 16), 8);
  EXPECT_EQ(kv_cache_copies(llama70b, 16), 1);
  // 5,120 GPUs: only t = 64 leaves at most 80 stages; each KV head is held 64 / 8 = 8 times.
  EXPECT_EQ(tensor_parallel_width(llama70b, 5120), 64);
  EXPECT_EQ(kv_cache_copies(llama70b, 5120), 8);
}

TEST(KvCache, LatentAttentionHoldsOneLatentPerTokenAndLayer) {
  // DeepSeek-V3: 61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) × 2 B (BF16)
  // = 61 × 576 × 2 = 70,272 B per token.
  Model model;
  model.layers = 61;
  model.kv_heads = 128;
  model.head_dim = 128;
  model.latent_attention = Model::LatentAttention{1536, 512, 64, 128, 128};
  const KvShape shape = kv_shape(model, 2);
  EXPECT_EQ(shape.latent_dim, 576);
  EXPECT_EQ(kv_cache_bytes(shape, 1, 1).value(), 70272.0);
  // 64 sequences × 32,768 tokens: 70,272 × 2,097,152 = 147,371,065,344 B.
  EXPECT_EQ(kv_cache_bytes(shape, 64, 32768).value(), 147371065344.0);
}

TEST(KvCache, LatentCacheIsHeldWholeByEveryTensorParallelRank) {
  // 128 query heads, latent attention: 8 GPUs form one 8-wide group, each rank holding the
  // whole latent cache.
  const ShardShape deepseek{61, {128, 128, true, "deepseek-v3"}};
  EXPECT_EQ(tensor_parallel_width(deepseek, 8), 8);
  EXPECT_EQ(kv_cache_copies(deepseek, 8), 8);
  EXPECT_EQ(kv_cache_copies(deepseek, 1), 1);
}

TEST(KvCache, TwoTensorsPerLayerPerToken) {
  // 2 × 80 layers × 8 KV heads × 128 head dim × 2 B = 327,680 B per token; × 8 × 8192 tokens
  // = 21,474,836,480 B.
  EXPECT_EQ(kv_cache_bytes({80, 8, 128, 2}, 8, 8192).value(), 21474836480.0);
}

TEST(Offload, SeedCaseSpillsOverPcie) {
  // 140 GB on one 80 GB GPU: 60 GB spill. All in HBM: 140 GB / 3.35 TB/s. With the spill:
  // 80 / 3350 + 60 / 64 s. Slowdown = (80 + 60 × 3350 / 64) / 140 = 3220.625 / 140.
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(140e9), Bytes::of(0), &h100, 1, 0, links});
  EXPECT_EQ(r.hbm.value(), 80e9);
  EXPECT_EQ(r.needed.value(), 140e9);
  EXPECT_EQ(r.spilled.value(), 60e9);
  EXPECT_EQ(r.resident.value(), 80e9);
  EXPECT_NEAR(r.step_all_hbm.value(), 140.0 / 3350, 1e-12);
  ASSERT_EQ(r.links.size(), 1U);
  const HostLinkStep& step = r.links[0];
  // The seed: HBM 3.35 TB/s against PCIe 64 GB/s, a ~50× slower tier: 3350 / 64 = 52.34375.
  EXPECT_DOUBLE_EQ(step.tier_ratio, 52.34375);
  EXPECT_NEAR(step.step.value(), 80.0 / 3350 + 0.9375, 1e-12);
  EXPECT_NEAR(step.slowdown, 3220.625 / 140, 1e-9);
  // Measured 51 GB/s: 80 / 3350 + 60 / 51 s.
  EXPECT_NEAR(step.expected_step->value(), 80.0 / 3350 + 60.0 / 51, 1e-12);
}

TEST(Offload, NvlinkC2cIsAUsableTier) {
  // One way 450 GB/s: 3350 / 450 = 7.44× slower than HBM; step 80/3350 + 60/450 s.
  const std::vector<const Link*> links{&pcie5, &c2c};
  const Offload r = offload({Bytes::of(140e9), Bytes::of(0), &h100, 1, 0, links});
  ASSERT_EQ(r.links.size(), 2U);
  EXPECT_NEAR(r.links[1].tier_ratio, 3350.0 / 450, 1e-12);
  EXPECT_NEAR(r.links[1].step.value(), 80.0 / 3350 + 60.0 / 450, 1e-12);
  EXPECT_LT(r.links[1].slowdown, r.links[0].slowdown);
}

TEST(Offload, HbmReadsAtTheFractionTheStepModelUses) {
  // H100 Triad reaches 0.89 of 3.35 TB/s (the catalog's achievable_hbm_fraction): 20 GB all in
  // HBM take 20 / (3350 × 0.89) s, as the step model's decode prices the same reads.
  Gpu measured = h100;
  measured.achievable_hbm_fraction = 0.89;
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(16e9), Bytes::of(4e9), &measured, 1, 0, links});
  EXPECT_NEAR(r.step_all_hbm.value(), 20.0 / (3350 * 0.89), 1e-12);
  EXPECT_DOUBLE_EQ(r.step_all_hbm.value(),
                   hbm_read_time(measured, 1, Bytes::of(20e9), 0.89).value());
  // A fraction given overrides the catalog's.
  OffloadInput given{Bytes::of(16e9), Bytes::of(4e9), &measured, 1, 0, links};
  given.hbm_fraction = 0.5;
  EXPECT_NEAR(offload(given).step_all_hbm.value(), 20.0 / (3350 * 0.5), 1e-12);
}

TEST(Offload, AModelThatFitsSpillsNothing) {
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(16e9), Bytes::of(4e9), &h100, 1, 0, links});
  EXPECT_EQ(r.needed.value(), 20e9);
  EXPECT_EQ(r.spilled.value(), 0);
  EXPECT_EQ(r.resident.value(), 20e9);
  EXPECT_DOUBLE_EQ(r.links[0].step.value(), r.step_all_hbm.value());
  EXPECT_DOUBLE_EQ(r.links[0].slowdown, 1.0);
}

TEST(Offload, EveryCopyOfTheKvCacheIsHeld) {
  // 16 GB weights + 3 copies × 30 GB KV = 106 GB on one 80 GB GPU: 26 GB spill.
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(16e9), Bytes::of(30e9), &h100, 1, 0, links, 3});
  EXPECT_EQ(r.kv_held.value(), 90e9);
  EXPECT_EQ(r.needed.value(), 106e9);
  EXPECT_EQ(r.spilled.value(), 26e9);
  EXPECT_THROW((void)offload({Bytes::of(16e9), Bytes::of(30e9), &h100, 1, 0, links, 0}),
               InputError);
}

TEST(Offload, GpusShareHbmAndTheSpill) {
  // 200 GB on 2 × 80 GB: 40 GB spill, 20 GB per GPU over each GPU's own link.
  // Step = 160 / (2 × 3350) + 40 / (2 × 64) s.
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(200e9), Bytes::of(0), &h100, 2, 0, links});
  EXPECT_EQ(r.hbm.value(), 160e9);
  EXPECT_EQ(r.spilled.value(), 40e9);
  EXPECT_NEAR(r.links[0].step.value(), 160.0 / 6700 + 40.0 / 128, 1e-12);
}

TEST(Offload, ReserveShrinksUsableHbm) {
  // 10 % reserved: 72 GB usable; 100 GB needs 28 GB spilled.
  const std::vector<const Link*> links{&pcie5};
  const Offload r = offload({Bytes::of(100e9), Bytes::of(0), &h100, 1, 0.1, links});
  EXPECT_NEAR(r.hbm.value(), 72e9, 1);
  EXPECT_NEAR(r.spilled.value(), 28e9, 1);
}

TEST(Offload, UnmeasuredLinkHasNoExpectedStep) {
  const std::vector<const Link*> links{&unmeasured};
  const Offload r = offload({Bytes::of(100e9), Bytes::of(0), &h100, 1, 0, links});
  EXPECT_FALSE(r.links[0].expected_step.has_value());
  EXPECT_FALSE(r.links[0].expected_slowdown.has_value());
}

TEST(Offload, RejectsBadInput) {
  const std::vector<const Link*> links{&pcie5};
  EXPECT_THROW((void)offload({Bytes::of(1e9), Bytes::of(0), &h100, 0, 0, links}), InputError);
  EXPECT_THROW((void)offload({Bytes::of(1e9), Bytes::of(0), &h100, 1, 1.0, links}), InputError);
  EXPECT_THROW((void)offload({Bytes::of(1e9), Bytes::of(0), &h100, 1, -0.1, links}), InputError);
  EXPECT_THROW((void)offload({Bytes::of(1e9), Bytes::of(0), nullptr, 1, 0, links}), InputError);
}

// A DGX H100-like host side: 2 GPUs per PCIe switch uplink, 8 GPUs sharing 563.2 GB/s of DRAM.
const HostShare dgx{2, 8, gigabytes_per_second(563.2)};

TEST(StreamRate, WithoutAHostShareEachGpuHasItsLink) {
  const StreamRate r = stream_rate(gigabytes_per_second(51), std::nullopt, 8);
  EXPECT_EQ(r.rate.value(), 51e9);
  EXPECT_EQ(r.limit, StreamLimit::link);
}

TEST(StreamRate, GpusBehindOneUplinkSplitIt) {
  // 8 GPUs, 2 per uplink: 51 / 2 = 25.5 GB/s each; DRAM 563.2 / 8 = 70.4 GB/s does not bind.
  const StreamRate r = stream_rate(gigabytes_per_second(51), dgx, 8);
  EXPECT_DOUBLE_EQ(r.rate.value(), 25.5e9);
  EXPECT_EQ(r.limit, StreamLimit::uplink);
  EXPECT_EQ(r.sharing, 2);
  // One GPU has the uplink to itself: 51 GB/s, against 563.2 GB/s of DRAM.
  const StreamRate alone = stream_rate(gigabytes_per_second(51), dgx, 1);
  EXPECT_EQ(alone.rate.value(), 51e9);
  EXPECT_EQ(alone.limit, StreamLimit::link);
}

TEST(StreamRate, HostDramBindsWhenItsShareIsTheLeast) {
  // 8 GPUs on one node of 320 GB/s: 40 GB/s each, below the 51 GB/s link.
  const HostShare slow_dram{1, 8, gigabytes_per_second(320)};
  const StreamRate r = stream_rate(gigabytes_per_second(51), slow_dram, 8);
  EXPECT_DOUBLE_EQ(r.rate.value(), 40e9);
  EXPECT_EQ(r.limit, StreamLimit::host_dram);
  EXPECT_EQ(r.sharing, 8);
  // 4 GPUs on it: 80 GB/s each, so the link binds again.
  EXPECT_EQ(stream_rate(gigabytes_per_second(51), slow_dram, 4).limit, StreamLimit::link);
  EXPECT_THROW((void)stream_rate(gigabytes_per_second(51), HostShare{0, 8, {}}, 8), InputError);
}

TEST(Offload, VllmEngineAddsTheCopyPrefetchOverlapsIt) {
  // HBM part 80 GB / 3350 GB/s = 23.9 ms; 60 GB over 51 GB/s = 1.176 s.
  const Seconds hbm = Seconds::of(80.0 / 3350);
  const Bytes spill = Bytes::of(60e9);
  const BytesPerSecond rate = gigabytes_per_second(51);
  EXPECT_NEAR(offload_step(OffloadEngine::vllm, hbm, spill, 1, rate).value(),
              80.0 / 3350 + 60.0 / 51, 1e-12);
  EXPECT_NEAR(offload_step(OffloadEngine::prefetch, hbm, spill, 1, rate).value(), 60.0 / 51, 1e-12);
  // A small spill hides under the HBM reads: max(0.5 s, 10 GB / (2 × 51 GB/s) = 98 ms).
  EXPECT_EQ(
      offload_step(OffloadEngine::prefetch, Seconds::of(0.5), Bytes::of(10e9), 2, rate).value(),
      0.5);
}

TEST(Offload, SharedUplinksSlowTheStream) {
  // 300 GB on 2 GPUs of 80 GB: 140 GB spill, 70 GB per GPU. Both behind one uplink: measured
  // 51 / 2 = 25.5 GB/s each, so 140 / 51 s of streaming; headline 64 / 2 = 32 each, 140 / 64 s.
  // HBM part 160 GB / (2 × 3350 GB/s).
  const std::vector<const Link*> links{&pcie5};
  OffloadInput input{Bytes::of(300e9), Bytes::of(0), &h100, 2, 0, links};
  input.share = dgx;
  const Offload r = offload(input);
  EXPECT_EQ(r.spilled.value(), 140e9);
  const HostLinkStep& step = r.links[0];
  EXPECT_DOUBLE_EQ(step.stream.rate.value(), 32e9);
  EXPECT_EQ(step.expected_stream->limit, StreamLimit::uplink);
  EXPECT_NEAR(step.step.value(), 160.0 / 6700 + 140.0 / 64, 1e-12);
  EXPECT_NEAR(step.expected_step->value(), 160.0 / 6700 + 140.0 / 51, 1e-12);
  input.engine = OffloadEngine::prefetch;
  EXPECT_NEAR(offload(input).links[0].expected_step->value(), 140.0 / 51, 1e-12);
}

TEST(Offload, TheSpillIsCheckedAgainstHostMemory) {
  // 140 GB on one 80 GB GPU: a 60 GB spill.
  const std::vector<const Link*> links{&pcie5};
  OffloadInput input{Bytes::of(140e9), Bytes::of(0), &h100, 1, 0, links};
  EXPECT_FALSE(offload(input).fits_host_memory.has_value());
  input.host_memory = Bytes::of(59e9);
  EXPECT_EQ(offload(input).fits_host_memory, false);
  input.host_memory = Bytes::of(60e9);
  EXPECT_EQ(offload(input).fits_host_memory, true);
}

} // namespace
} // namespace icx::unit_host_link
