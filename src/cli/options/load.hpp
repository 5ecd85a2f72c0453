// The flags of a steady load, shared by 'icx plan' (which needs one) and 'icx place' (which
// evaluates its layout under one when --rate is given): --rate, --input, --output and
// --prefill-chunk.
#pragma once

#include <cstdint>
#include <optional>

#include <CLI/CLI.hpp>

#include "icx/serving/request_load.hpp"

namespace icx::cli {

/// Tokens of a request when the flags do not say: a 2,048-token prompt and a 256-token
/// answer, a chat turn with retrieved context.
constexpr std::int64_t default_load_input = 2048;
constexpr std::int64_t default_load_output = 256;

struct LoadOptions {
  std::optional<double> rate;
  std::int64_t input = default_load_input;
  std::int64_t output = default_load_output;
  std::optional<std::int64_t> prefill_chunk;
};

/// Adds the four flags; --rate is required when `rate_required`.
void add_load_options(CLI::App& app, LoadOptions& options, bool rate_required);

/// The load the flags describe (the chunk left at its default: each GPU's own), or nothing
/// without --rate.
std::optional<Load> load_of(const LoadOptions& options);

} // namespace icx::cli
