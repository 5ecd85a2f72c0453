// Bounds on user-given sizes: wide enough for any real model, narrow enough that every
// derived byte count stays a whole number below 2^53, where a double is exact.
#pragma once

#include <cstdint>

namespace icx::limits {

/// 2^53: below it a double holds every whole number exactly.
constexpr double max_exact_double = 9007199254740992.0;

constexpr int max_hidden = 1 << 20;
constexpr int max_layers = 1 << 14;
constexpr int max_heads = 1 << 14;
constexpr int max_vocab = 1 << 24;
constexpr int max_experts = 1 << 14;
constexpr int max_domain = 1 << 20;
constexpr std::int64_t max_tokens = 100'000'000;
/// Parameters of a model: times 4 bytes (fp32) still below 2^53.
constexpr double max_params = 1e15;
/// Largest collective message: 1 PiB, far above any buffer, exact in a double.
constexpr std::int64_t max_message_bytes = std::int64_t{1} << 50;

} // namespace icx::limits
