#include "icx/wire/tensor_parallel.hpp"

#include <algorithm>

namespace icx {

namespace {
// Megatron-style tensor parallelism reduces the activations twice per transformer layer:
// after the attention block and after the MLP.
constexpr int allreduces_per_layer = 2;
// Headline all-reduce: each GPU sends and receives about twice the buffer (a ring
// all-reduce's 2(n-1)/n, rounded up to 2 for any n), the textbook arithmetic.
constexpr double headline_allreduce_factor = 2.0;
} // namespace

Bytes activation_bytes(const ActivationShape& shape, std::int64_t tokens) {
  return Bytes::of(static_cast<double>(tokens) * shape.hidden * shape.bytes_per_element);
}

TensorParallelTraffic tensor_parallel_traffic(const ActivationShape& shape, std::int64_t tokens) {
  TensorParallelTraffic traffic;
  // One all-reduce moves ~2 · B tokens · H hidden · b bytes per element.
  traffic.per_allreduce = activation_bytes(shape, tokens) * headline_allreduce_factor;
  traffic.allreduces_per_layer = allreduces_per_layer;
  traffic.per_layer = traffic.per_allreduce * allreduces_per_layer;
  traffic.per_pass = traffic.per_layer * shape.layers;
  return traffic;
}

Range<Seconds> headline_time(Bytes bytes, const Link& link) {
  return {bytes / link.headline_bandwidth.high, bytes / link.headline_bandwidth.low};
}

std::vector<WireTime> headline_times(Bytes bytes, std::span<const Link* const> links) {
  std::vector<WireTime> times;
  times.reserve(links.size());
  for (const Link* link : links) {
    times.push_back({link, headline_time(bytes, *link)});
  }
  return times;
}

std::vector<const Link*> fastest_first(std::span<const Link> links) {
  std::vector<const Link*> ordered;
  ordered.reserve(links.size());
  for (const Link& link : links) {
    ordered.push_back(&link);
  }
  std::ranges::stable_sort(ordered, [](const Link* a, const Link* b) {
    return a->headline_bandwidth.high > b->headline_bandwidth.high;
  });
  return ordered;
}

} // namespace icx
