// Communication time of a strategy's collectives under both cost models, so a verdict can
// use the expected model where the link has one and the headline model elsewhere.
#pragma once

#include <optional>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"
#include "icx/wire/fabric.hpp"

namespace icx {

struct CommTime {
  /// The headline model's time for the strategy's headline traffic.
  Seconds headline;
  /// The expected model's time; absent when the link has no expected-model parameters.
  std::optional<Seconds> expected;
  /// With an expected time: what ran one collective, and the link topology assumed.
  std::optional<Kernel> kernel;
  const LinkTopology* topology = nullptr;
  /// The time a verdict weighs: expected where available, else headline.
  [[nodiscard]] Seconds judged() const { return expected.value_or(headline); }
};

/// `headline_bytes` at the link's headline bandwidth, and `count` collectives like `one`
/// under the expected model (none for a group under two GPUs); an engine implementation the
/// link has no figures for runs as NCCL.
CommTime comm_time(const Link& link, Bytes headline_bytes, const CollectiveRequest& one, int count);

/// The same for a group that may span nodes: the headline across nodes (fabric_headline:
/// every NIC of the node, nothing lost; `headline_bytes` is not used there), the expected
/// model across nodes (fabric.hpp), where NCCL runs every collective; inside one node, as
/// comm_time on the scale-up link.
CommTime comm_time(const Fabric& fabric, Bytes headline_bytes, const CollectiveRequest& one,
                   int count);

} // namespace icx
