#include "icx/comm_time.hpp"

#include "icx/tensor_parallel.hpp"

namespace icx {

CommTime comm_time(const Link& link, Bytes headline_bytes, const CollectiveRequest& one,
                   int count) {
  CommTime time;
  time.headline = headline_time(headline_bytes, link).low;
  if (one.gpus >= min_collective_gpus && one.size.value() > 0 &&
      check_expected_model(link, one.algorithm)) {
    time.expected = expected_collective(link, one).time * count;
  }
  return time;
}

} // namespace icx
