// Whether a layout can run a model on a cluster: its degrees against the GPU count, the
// model's heads, experts and layers.
#pragma once

#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"

namespace icx {

/// Throws InputError when the degrees' product is not the cluster's GPU count, an expert
/// degree is given to a dense model or does not divide its experts (with
/// `redundant_experts`), the pipeline has more stages than layers, or the experts' own split
/// (Layout::moe_tp) does not fit the tensor group; GroupError when tp does not split the
/// attention heads.
void check_layout(const Cluster& cluster, const Model& model, const Layout& layout,
                  int redundant_experts);

} // namespace icx
