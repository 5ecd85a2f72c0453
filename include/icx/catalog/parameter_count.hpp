// Parameter counts of a decoder-only transformer worked out from its architecture.
#pragma once

#include "icx/catalog/catalog.hpp"

namespace icx {

struct ParameterCount {
  double total = 0;
  /// Parameters one token uses: every shared weight, but only experts_per_token of the routed
  /// experts (equals total for a dense model).
  double active = 0;
};

/// Counts a Llama-style decoder: embeddings (and an untied output projection), per layer
/// attention (grouped-query, or multi-head latent attention), a gated MLP or a mixture of
/// experts, RMSNorm weights. Biases are left out. Throws InputError when a size it needs is
/// missing (zero).
ParameterCount count_parameters(const Model& model);

} // namespace icx
