#include "icx/wire/comm_time.hpp"

#include "icx/wire/tensor_parallel.hpp"

namespace icx {

CommTime comm_time(const Link& link, Bytes headline_bytes, const CollectiveRequest& one,
                   int count) {
  CommTime time;
  time.headline = headline_time(headline_bytes, link).low;
  if (one.gpus >= min_collective_gpus && one.size.value() > 0 &&
      check_expected_model(link, one.algorithm)) {
    CollectiveRequest request = one;
    if (!check_implementation(link, one.op, one.setup.implementation)) {
      // An engine runs its own kernels where it has them; elsewhere (another operation, a
      // wire without figures for them, the scale-out link) it calls NCCL.
      request.setup.implementation = Implementation::nccl;
    }
    const CollectiveCost cost = expected_collective(link, request);
    time.expected = cost.time * count;
    time.kernel = cost.kernel;
    time.topology = cost.topology;
  }
  return time;
}

CommTime comm_time(const Fabric& fabric, Bytes headline_bytes, const CollectiveRequest& one,
                   int count) {
  if (one.gpus <= fabric.gpus_per_node) {
    return comm_time(*fabric.scale_up, headline_bytes, one, count);
  }
  CommTime time;
  // Across nodes the headline is the fabric's own (fabric_headline), not the textbook bytes.
  if (one.size.value() > 0) {
    time.headline = fabric_headline(fabric, one).time * count;
  }
  if (one.size.value() > 0 && check_fabric(fabric, one.op, one.algorithm, one.gpus)) {
    const CollectiveCost cost = fabric_collective(fabric, one);
    time.expected = cost.time * count;
    time.kernel = cost.kernel;
    time.topology = cost.topology;
  }
  return time;
}

} // namespace icx
