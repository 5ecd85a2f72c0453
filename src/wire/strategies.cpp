#include "icx/wire/strategies.hpp"

namespace icx {

Bytes pipeline_parallel_bytes(const ActivationShape& shape, std::int64_t tokens, int stages) {
  // One activation tensor per stage boundary.
  return activation_bytes(shape, tokens) * static_cast<double>(stages - 1);
}

bool allowed_on(Strategy strategy, Tier tier) {
  switch (strategy) {
  case Strategy::tensor:
    // Inside a node: its scale-up link, or PCIe where that is all the node has.
    return tier != Tier::scale_out;
  case Strategy::expert:
    // Deployments run expert groups across nodes (DeepSeek: EP 32 over 4 nodes for prefill,
    // EP 144 over 18 for decode); whether it pays is the expert-parallel model's to say.
  case Strategy::pipeline:
  case Strategy::data:
    return true;
  }
  return false;
}

} // namespace icx
