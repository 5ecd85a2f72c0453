#include "icx/strategies.hpp"

namespace icx {

Bytes expert_parallel_bytes(const ActivationShape& shape, std::int64_t tokens,
                            int experts_per_token, int group) {
  if (group <= 1) {
    return Bytes::of(0);
  }
  // B·k·H·b bytes routed per all-to-all; (n−1)/n of them go to experts on other GPUs.
  const double routed =
      static_cast<double>(tokens) * experts_per_token * shape.hidden * shape.bytes_per_element;
  const double leaving = static_cast<double>(group - 1) / group;
  return Bytes::of(routed * leaving * all_to_alls_per_moe_layer * shape.layers);
}

Bytes pipeline_parallel_bytes(const ActivationShape& shape, std::int64_t tokens, int stages) {
  // One activation tensor of B·H·b bytes per stage boundary.
  const double activation = static_cast<double>(tokens) * shape.hidden * shape.bytes_per_element;
  return Bytes::of(activation * (stages - 1));
}

bool allowed_on(Strategy strategy, Tier tier) {
  switch (strategy) {
  case Strategy::tensor:
  case Strategy::expert:
    // Inside a node: its scale-up link, or PCIe where that is all the node has.
    return tier != Tier::scale_out;
  case Strategy::pipeline:
  case Strategy::data:
    return true;
  }
  return false;
}

} // namespace icx
