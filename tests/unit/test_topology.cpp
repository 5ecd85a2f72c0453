#include "icx/catalog/group_rules.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace icx::unit_topology {
namespace {

// Inline entries (not the shipped catalog), so a data edit cannot break these tests.

Link link_of(const std::string& id, Tier tier, std::optional<int> max_domain_gpus) {
  Link link;
  link.id = id;
  link.aliases = {id + "-alias"};
  link.tier = tier;
  link.max_domain_gpus = max_domain_gpus;
  return link;
}

Gpu gpu_on(const std::string& id, const std::string& scale_up_link) {
  Gpu gpu;
  gpu.id = id;
  gpu.scale_up_link = scale_up_link;
  gpu.scale_up_domain = 8;
  return gpu;
}

// 64 query heads, 8 KV heads (a 70B-class model).
const AttentionShape gqa{64, 8, false, "70b"};

TEST(TensorGroup, DividesQueryHeadsAndSplitsOrReplicatesKvHeads) {
  for (int size : {1, 2, 4, 8, 16, 32, 64}) {
    EXPECT_TRUE(tensor_group_allowed(gqa, size)) << size;
    EXPECT_TRUE(check_tensor_group(gqa, size)) << size;
  }
  for (int size : {0, 3, 6, 12, 128}) {
    EXPECT_FALSE(tensor_group_allowed(gqa, size)) << size;
  }
  // 40 query heads, 10 KV heads. Divisors of 40: 1, 2, 4, 5, 8, 10, 20, 40; of those 1, 2, 5,
  // 10 split the KV heads and 20, 40 replicate them (multiples of 10); 4 and 8 do neither.
  const AttentionShape odd{40, 10, false, "x"};
  EXPECT_TRUE(tensor_group_allowed(odd, 20));
  EXPECT_TRUE(tensor_group_allowed(odd, 5));
  EXPECT_FALSE(tensor_group_allowed(odd, 4));
  EXPECT_EQ(check_tensor_group(odd, 4).reason(),
            "a tensor-parallel group of 4 GPUs neither divides the 10 KV heads of catalog model "
            "'x' (kv_heads) nor replicates them whole; use one of 1, 2, 5, 10, 20, 40");
}

TEST(TensorGroup, LatentAttentionIgnoresKvHeads) {
  // Latent attention: only the 128 query heads count, whatever KV heads says.
  const AttentionShape mla{128, 3, true, "mla"};
  EXPECT_TRUE(tensor_group_allowed(mla, 16));
  EXPECT_FALSE(tensor_group_allowed(mla, 3));
}

TEST(TensorGroup, UnknownHeadsAllowAnySize) {
  EXPECT_TRUE(tensor_group_allowed({}, 7));
  EXPECT_TRUE(check_tensor_allreduce({}, 7));
}

TEST(TensorGroup, AnAllReduceNeedsTwoGpus) {
  EXPECT_EQ(check_tensor_allreduce(gqa, 1).reason(),
            "a tensor-parallel group needs at least 2 GPUs; 1 GPU has no all-reduce");
  EXPECT_EQ(check_tensor_allreduce(gqa, 3).reason(),
            "a tensor-parallel group of 3 GPUs does not divide the 64 attention heads of catalog "
            "model '70b' (attention_heads); use one of 2, 4, 8, 16, 32, 64");
  EXPECT_TRUE(check_tensor_allreduce(gqa, 8));
}

TEST(GpuLink, AGpuUsesOnlyItsOwnScaleUpLink) {
  const Link nvlink = link_of("nvlink", Tier::scale_up, 256);
  const Link other = link_of("other", Tier::scale_up, 8);
  const Link pcie = link_of("pcie", Tier::host, 256);
  const Link ib = link_of("ib", Tier::scale_out, std::nullopt);
  const Gpu gpu = gpu_on("g", "nvlink");
  EXPECT_TRUE(check_gpu_link(gpu, nvlink));
  EXPECT_TRUE(check_gpu_link(gpu_on("g", "nvlink-alias"), nvlink));
  EXPECT_TRUE(check_gpu_link(gpu, pcie));
  EXPECT_TRUE(check_gpu_link(gpu, ib));
  EXPECT_EQ(check_gpu_link(gpu, other).reason(),
            "g has no other link: its scale-up link is nvlink (catalog gpu 'g', scale_up_link); "
            "use nvlink or a host or scale-out link");
}

TEST(GroupLink, ChecksTheGpuAndTheGroupSizeWhenGiven) {
  const Link small = link_of("small", Tier::scale_up, 8);
  const Gpu gpu = gpu_on("g", "small");
  EXPECT_TRUE(check_group_link(nullptr, std::nullopt, small));
  EXPECT_TRUE(check_group_link(&gpu, 8, small));
  EXPECT_FALSE(check_group_link(&gpu, 9, small));
  const Gpu other = gpu_on("h", "other");
  EXPECT_FALSE(check_group_link(&other, std::nullopt, small));
}

TEST(DomainSize, BoundedByTheLinksMaximum) {
  const Link nvlink = link_of("nvlink", Tier::scale_up, 256);
  EXPECT_TRUE(check_domain_size(nvlink, 256));
  EXPECT_EQ(check_domain_size(nvlink, 257).reason(),
            "nvlink connects at most 256 GPUs in one domain (catalog link 'nvlink', "
            "max_domain_gpus)");
  // A switched fabric without a catalog bound takes any count.
  EXPECT_TRUE(check_domain_size(link_of("ib", Tier::scale_out, std::nullopt), 1000000));
}

TEST(ScaleOut, OnlyAScaleOutLinkJoinsSeparateDomains) {
  const std::vector<Link> links{link_of("nvlink", Tier::scale_up, 576),
                                link_of("ib", Tier::scale_out, std::nullopt),
                                link_of("roce", Tier::scale_out, std::nullopt)};
  // Trays of one 72-GPU domain may be joined by the domain's own link.
  EXPECT_TRUE(check_scale_out(links[0], 72, 72, "catalog system 's'", links));
  EXPECT_TRUE(check_scale_out(links[1], 144, 72, "catalog system 's'", links));
  EXPECT_EQ(check_scale_out(links[0], 144, 72, "catalog system 's'", links).reason(),
            "nvlink is a scale-up link: it joins nodes only inside one scale-up domain, and 144 "
            "GPUs exceed the 72-GPU domain (catalog system 's', scale_up_domain); between domains "
            "use a scale-out link: ib, roce");
}

} // namespace
} // namespace icx::unit_topology
