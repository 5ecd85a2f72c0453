// The words of icx ep: what it assumed, and how its figures were computed (--explain): each
// kernel's bytes per token and per GPU, and the pass's bytes and times, with the values
// substituted.
#pragma once

#include <string>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx {

/// The derivations of `cost` for `request` over `moe_layers` MoE layers: bytes per token
/// (hidden · dtype bytes, FP8 scales included), each kernel's network and scale-up bytes per
/// GPU (bytes per token · tokens per GPU · skew · copies), and the pass's bytes, headline and
/// expected time (dispatch + combine, times the MoE layers).
Derivations derive_ep(const EpRequest& request, const EpLayerCost& cost, int moe_layers);

/// What icx ep assumed for `request` and its pass `layer`, one line each with the flag that
/// changes it: tokens per GPU, routing, skew, dtypes, redundant experts and the kernels'
/// figures.
std::vector<std::string> ep_assumptions(const EpRequest& request, const EpLayerCost& layer);

} // namespace icx
