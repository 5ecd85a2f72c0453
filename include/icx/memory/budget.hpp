// What one GPU's memory gives the weights and the KV cache once a serving engine has taken
// its share: the engine's own rule (its fraction, its profiled activations, its runtime) or a
// flat reserve the user names.
#pragma once

#include <cstdint>
#include <optional>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

struct MemoryBudget {
  /// The GPU's memory as the driver reports it (Gpu::memory()).
  Bytes device;
  /// The flat fraction kept free (--reserve, or an engine with no memory rule); absent: the
  /// engine's rule.
  std::optional<double> reserve;
  /// The engine's rule when it applies.
  const EngineMemory* rule = nullptr;
  /// The fraction the rule fills: of `device`, or of the memory the weights, the activations
  /// and the runtime leave (MemoryBasis::free).
  double fraction = 0;
  /// The peak activation of the engine's profiling forward over `profile_tokens` tokens (0
  /// when the rule does not subtract one).
  Bytes activation;
  std::int64_t profile_tokens = 0;
  /// The runtime's own memory (CUDA context, workspaces, communicator buffers).
  Bytes runtime;
  /// What the weights and the KV cache may fill together.
  Bytes usable;
};

} // namespace icx
