// The report of `icx ep`: one MoE layer's dispatch and combine per GPU under both cost models,
// the same per forward pass, and the routing assumptions behind them.
#pragma once

#include <string>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx {

/// Tokens each GPU dispatches when nothing says, by kernel: DeepEP's published benchmark
/// settings (4,096 per GPU for its high-throughput kernels, as a prefill batch; 128 for its
/// low-latency kernels, as DeepSeek's decode runs them).
double default_tokens_per_gpu(EpMode mode);

struct EpReport {
  EpRequest request;
  EpLayerCost layer;
  /// Layers whose MLP is a mixture of experts.
  int moe_layers = 0;
  /// Routed experts each GPU holds (redundant ones included).
  int experts_per_gpu = 0;
  /// Every assumption behind the figures, with the flag that changes it.
  std::vector<std::string> assumptions;
};

/// Prices the request (throws InputError with check_ep's reason).
EpReport expert_parallel_report(const EpRequest& request);

/// The "icx.ep/1" document.
void to_json(Json& json, const EpReport& report);

} // namespace icx
