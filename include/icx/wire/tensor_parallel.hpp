// Tensor-parallel communication under the headline model (the textbook arithmetic):
// all-reduces of the activations, timed at the link's headline per-GPU bandwidth.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// The part of a model that sets its activation traffic.
struct ActivationShape {
  int hidden = 0;
  int layers = 0;
  double bytes_per_element = 0;
};

struct TensorParallelTraffic {
  Bytes per_allreduce;
  int allreduces_per_layer = 0;
  Bytes per_layer;
  /// All layers of one forward pass.
  Bytes per_pass;
};

/// One activation tensor of `tokens` tokens: B·H·b bytes (the nccl-tests message size of a
/// tensor-parallel all-reduce, and what a pipeline boundary sends).
Bytes activation_bytes(const ActivationShape& shape, std::int64_t tokens);

/// Traffic per GPU for one forward pass over `tokens` tokens.
TensorParallelTraffic tensor_parallel_traffic(const ActivationShape& shape, std::int64_t tokens);

/// Time to move `bytes` at a link's headline bandwidth: `low` at the fast end of a range,
/// `high` at the slow end.
Range<Seconds> headline_time(Bytes bytes, const Link& link);

struct WireTime {
  const Link* link = nullptr;
  Range<Seconds> seconds;
};

/// Headline time of `bytes` on each link, in the order given.
std::vector<WireTime> headline_times(Bytes bytes, std::span<const Link* const> links);

/// Links ordered fastest first by headline bandwidth (the fast end of a range); ties keep
/// catalog order.
std::vector<const Link*> fastest_first(std::span<const Link> links);

} // namespace icx
