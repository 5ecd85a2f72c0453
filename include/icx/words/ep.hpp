// How icx ep's figures were computed (--explain): each kernel's bytes per token and per GPU,
// and the pass's bytes and times, with the values substituted.
#pragma once

#include "icx/base/derivation.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx {

/// The derivations of `cost` for `request` over `moe_layers` MoE layers: bytes per token
/// (hidden · dtype bytes, FP8 scales included), each kernel's network and scale-up bytes per
/// GPU (bytes per token · tokens per GPU · skew · copies), and the pass's bytes, headline and
/// expected time (dispatch + combine, times the MoE layers).
Derivations derive_ep(const EpRequest& request, const EpLayerCost& cost, int moe_layers);

} // namespace icx
