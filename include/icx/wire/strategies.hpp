// Traffic of each way of splitting a model, and the textbook rule for which wire
// each may live on.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/tensor_parallel.hpp"

namespace icx {

enum class Strategy { tensor, expert, pipeline, data };

constexpr std::array<EnumName<Strategy>, 4> enum_names(Strategy /*unused*/) {
  return {{{Strategy::tensor, "tensor"},
           {Strategy::expert, "expert"},
           {Strategy::pipeline, "pipeline"},
           {Strategy::data, "data"}}};
}

/// How inference engines abbreviate each split: TP, EP, PP, DP.
constexpr std::array<EnumName<Strategy>, 4> short_names{{{Strategy::tensor, "TP"},
                                                         {Strategy::expert, "EP"},
                                                         {Strategy::pipeline, "PP"},
                                                         {Strategy::data, "DP"}}};

/// Expert-parallel traffic (dispatch and combine) is icx/wire/expert_parallel.hpp's.

/// Pipeline-parallel traffic for one forward pass: B·H·b bytes of activations cross each of
/// the stages−1 boundaries once, point to point.
Bytes pipeline_parallel_bytes(const ActivationShape& shape, std::int64_t tokens, int stages);

/// The placement rule: tensor parallel stays inside a node (its NVLink domain, or PCIe on a
/// node without one; never a scale-out link between nodes); expert parallel and pipeline on
/// any link (DeepEP's kernels cross nodes once per destination node, icx/wire/expert_parallel.hpp);
/// replicas need no link at all. Whether a split pays is the step model's to say.
bool allowed_on(Strategy strategy, Tier tier);

} // namespace icx
