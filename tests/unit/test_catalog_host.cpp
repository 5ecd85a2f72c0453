// The catalog's loaders section and a system's host side: read, checked, written back.
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_catalog_host {
namespace {

// A self-contained catalog: one GPU, its NVLink, a host link, a NIC and one drive.
const std::string base = R"({
  "dtypes": [{"id": "bf16", "name": "BF16", "bytes_per_element": 2, "source": "s"}],
  "links": [
    {"id": "nvlink4", "name": "NVLink 4", "connects": "GPU", "tier": "scale-up",
     "headline_GBps": 900, "headline_convention": "both-directions-summed",
     "per_direction_GBps": 450, "latency_us": 1, "source": "s"},
    {"id": "pcie5", "name": "PCIe 5", "connects": "host", "tier": "host", "headline_GBps": 64,
     "headline_convention": "each-way", "per_direction_GBps": 63, "latency_us": 1,
     "source": "s"},
    {"id": "ndr", "name": "NDR", "connects": "node", "tier": "scale-out", "headline_GBps": 50,
     "headline_convention": "each-way", "per_direction_GBps": 50, "latency_us": 2,
     "source": "s"}],
  "gpus": [{"id": "h100", "name": "H100", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350,
    "dense_tflops": {"bf16": 989}, "scale_up_link": "nvlink4", "scale_up_domain": 8,
    "achievable_mfu": 0.5, "source": "s"}],
  "storage": [{"id": "drive", "name": "Drive", "read_GBps": 7, "source": "s"}]})";

Catalog base_catalog() {
  Catalog catalog;
  catalog.overlay_text(base, "base.json");
  return catalog;
}

std::string system_with_host(const std::string& host) {
  return R"({"systems": [{"id": "box", "name": "Box", "gpu": "h100", "gpus_per_node": 8,
    "scale_up_link": "nvlink4", "scale_up_domain": 8, "scale_out_link": "ndr", "source": "s",
    "host": )" +
         host + "}]}";
}

const std::string loader = R"({"loaders": [{"id": "l", "name": "L", "buffer": "pageable",
  "warm": {"rank_GBps": 2, "node_GBps": 5}, "cold": {"rank_GBps": 1, "node_GBps": 3},
  "overhead_s": 1.5, "source": "s"}]})";

TEST(CatalogHost, ReadsAHostSide) {
  Catalog catalog = base_catalog();
  catalog.overlay_text(system_with_host(R"({"link": "pcie5", "gpus_per_uplink": 2,
    "dram_GB": 2048, "dram_GBps": 614.4, "nvme_drives": 8, "nvme": "drive", "source": "s"})"),
                       "user.json");
  const HostSide& host = *catalog.system("box").host;
  EXPECT_EQ(host.link, "pcie5");
  EXPECT_EQ(host.gpus_per_uplink, 2);
  EXPECT_DOUBLE_EQ(host.dram.value(), 2048e9);
  EXPECT_DOUBLE_EQ(host.dram_bandwidth.value(), 614.4e9);
  EXPECT_EQ(host.nvme_drives, 8);
  EXPECT_EQ(host.nvme_tier, "drive");
}

TEST(CatalogHost, HostSideMustNameAHostLinkAndAKnownTier) {
  EXPECT_EQ(test::catalog_error(base_catalog(), system_with_host(R"({"link": "ndr",
    "gpus_per_uplink": 1, "dram_GB": 1, "dram_GBps": 1, "source": "s"})")),
            "user.json: system 'box': host.link 'ndr' is not a known host link id (tier "
            "\"host\")");
  EXPECT_EQ(test::catalog_error(base_catalog(), system_with_host(R"({"link": "pcie5",
    "gpus_per_uplink": 1, "dram_GB": 1, "dram_GBps": 1, "nvme_drives": 2, "nvme": "disk",
    "source": "s"})")),
            "user.json: system 'box': host.nvme 'disk' is not a known storage tier id");
  const std::string lone = test::catalog_error(base_catalog(), system_with_host(R"({"link":
    "pcie5", "gpus_per_uplink": 1, "dram_GB": 1, "dram_GBps": 1, "nvme_drives": 2,
    "source": "s"})"));
  EXPECT_NE(lone.find("/systems/0/host/nvme_drives"), std::string::npos) << lone;
  EXPECT_NE(lone.find("given without the other"), std::string::npos) << lone;
}

TEST(CatalogHost, ReadsALoader) {
  Catalog catalog = base_catalog();
  catalog.overlay_text(loader, "user.json");
  const Loader& l = catalog.loader("L");
  EXPECT_EQ(l.buffer, HostBuffer::pageable);
  EXPECT_DOUBLE_EQ(l.warm.rank.value(), 2e9);
  EXPECT_DOUBLE_EQ(l.warm.node.value(), 5e9);
  EXPECT_DOUBLE_EQ(l.cold.rank.value(), 1e9);
  EXPECT_DOUBLE_EQ(l.cold.node.value(), 3e9);
  EXPECT_DOUBLE_EQ(l.overhead.value(), 1.5);
}

TEST(CatalogHost, LoaderNodeRateIsAtLeastItsRankRate) {
  std::string slow = loader;
  slow.replace(slow.find("\"node_GBps\": 5"), 14, "\"node_GBps\": 1");
  const std::string error = test::catalog_error(base_catalog(), slow);
  EXPECT_NE(error.find("/loaders/0/warm/node_GBps"), std::string::npos) << error;
  EXPECT_NE(error.find("below rank_GBps"), std::string::npos) << error;
}

TEST(CatalogHost, WritesWhatItReads) {
  Catalog catalog = base_catalog();
  catalog.overlay_text(loader, "a.json");
  catalog.overlay_text(system_with_host(R"({"link": "pcie5", "gpus_per_uplink": 2,
    "dram_GB": 2048, "dram_GBps": 614.4, "nvme_drives": 8, "nvme": "drive", "source": "s"})"),
                       "b.json");
  nlohmann::ordered_json written;
  written["loaders"] = catalog.loaders();
  written["systems"] = catalog.systems();
  Catalog again = base_catalog();
  again.overlay_text(written.dump(), "again.json");
  const Loader& l = again.loader("l");
  EXPECT_EQ(l.buffer, catalog.loader("l").buffer);
  EXPECT_EQ(l.warm, catalog.loader("l").warm);
  EXPECT_EQ(l.cold, catalog.loader("l").cold);
  EXPECT_EQ(l.overhead, catalog.loader("l").overhead);
  EXPECT_EQ(again.system("box").host, catalog.system("box").host);
}

} // namespace
} // namespace icx::unit_catalog_host
