// The headline model (vendor bandwidth, no latency) is a lower bound on time: for every
// system of the shipped catalog, every collective, group sizes inside a node and across
// nodes, and message sizes from latency-bound to bandwidth-bound, the headline time never
// exceeds the expected time where the expected model prices the group.
#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

namespace icx::unit_headline_bound {
namespace {

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

/// The groups a node of `per_node` GPUs makes: pairs and halves inside it, the whole node,
/// and 2, 4 and 16 nodes.
std::vector<int> group_sizes(int per_node) {
  std::vector<int> sizes;
  for (int gpus = 2; gpus < per_node; gpus *= 2) {
    sizes.push_back(gpus);
  }
  for (const int nodes : {1, 2, 4, 16}) {
    sizes.push_back(per_node * nodes);
  }
  return sizes;
}

TEST(HeadlineBound, NeverSlowerThanTheExpectedModelOnAnyShippedSystem) {
  int checked = 0;
  for (const System& system : shipped().systems()) {
    const Link& up = shipped().link(system.scale_up_link);
    const Link& out = shipped().link(system.scale_out_link);
    const Fabric fabric{&up, system.gpus_per_node, &out, system.nics_per_node};
    for (const Collective op : all_collectives) {
      for (const int gpus : group_sizes(system.gpus_per_node)) {
        if (gpus < min_collective_gpus || !check_fabric(fabric, op, Algorithm::automatic, gpus)) {
          continue;
        }
        for (const double size : {1024.0, 1048576.0, 1073741824.0}) {
          const CollectiveRequest request{op, Algorithm::automatic, gpus, Bytes::of(size), {}};
          const Seconds headline = fabric_headline(fabric, request).time;
          const Seconds expected = fabric_collective(fabric, request).time;
          EXPECT_LE(headline.value(), expected.value())
              << system.id << " " << to_string(op) << " over " << gpus << " GPUs at " << size
              << " B: headline " << headline.value() << " s, expected " << expected.value() << " s";
          ++checked;
        }
      }
    }
  }
  // Every shipped system, five collectives, several groups: the sweep really ran.
  EXPECT_GT(checked, 500);
}

} // namespace
} // namespace icx::unit_headline_bound
