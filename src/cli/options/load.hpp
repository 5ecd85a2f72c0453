// The flags of a load: a steady rate, shared by 'icx plan' (which needs one) and 'icx place'
// (which evaluates its layout under one when --rate is given): --rate, --input, --output and
// --prefill-chunk; and the closed loop 'icx place' simulates (--concurrency and its flags).
#pragma once

#include <cstdint>
#include <optional>

#include <CLI/CLI.hpp>

#include "icx/serving/request_load.hpp"
#include "icx/serving/simulate.hpp"

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

/// A closed loop of clients, simulated step by step (icx/serving/simulate.hpp): how many, the
/// spread of the lengths around --input and --output, how many requests, the warm-up left out
/// and the seed.
struct SimulationOptions {
  std::optional<std::int64_t> concurrency;
  double spread = 0;
  LengthShape lengths = LengthShape::uniform;
  std::optional<std::int64_t> requests;
  std::optional<std::int64_t> warmup;
  std::uint64_t seed = 1;
};

/// Requests a simulation runs when --requests does not say: vllm bench serve's default
/// --num-prompts, or ten per client when that is more, at most what one simulation runs; a
/// tenth of them is left out at each end unless --warmup says.
constexpr std::int64_t default_simulated_requests = 1000;
constexpr std::int64_t requests_per_client = 10;
constexpr std::int64_t warmup_share_divisor = 10;

/// Adds the four flags; --rate is required when `rate_required`.
void add_load_options(CLI::App& app, LoadOptions& options, bool rate_required);

/// The load the flags describe (the chunk left at its default: each GPU's own), or nothing
/// without --rate.
std::optional<Load> load_of(const LoadOptions& options);

/// Adds --concurrency, --spread, --lengths, --requests, --warmup and --seed.
void add_simulation_options(CLI::App& app, SimulationOptions& options);

/// The closed loop the flags describe with --input and --output as its nominal lengths, or
/// nothing without --concurrency.
std::optional<Traffic> traffic_of(const LoadOptions& load, const SimulationOptions& options);

} // namespace icx::cli
