// The flags of a load: a steady rate, shared by 'icx plan' and 'icx place' (which evaluates
// its layout under one when --rate is given): --rate, --input, --output and --prefill-chunk;
// a closed loop of clients (--concurrency); and how either is simulated step by step
// (--arrivals, --spread, --lengths, --requests, --warmup, --seed) or priced by the closed
// form alone (--fast).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

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
  double prefix_hit = 0;
};

/// A load simulated step by step (icx/serving/simulate.hpp): a closed loop's clients, an open
/// loop's arrivals, the spread of the lengths around --input and --output, how many requests,
/// the warm-up left out and the seed; or --fast, the closed form alone.
struct SimulationOptions {
  std::optional<std::int64_t> concurrency;
  Arrivals arrivals = Arrivals::poisson;
  bool fast = false;
  double spread = 0;
  LengthShape lengths = LengthShape::uniform;
  std::optional<std::int64_t> requests;
  std::optional<std::int64_t> warmup;
  std::optional<std::int64_t> warm_prompts;
  std::uint64_t seed = 1;
};

/// Requests a simulation runs when --requests does not say: default_simulated_requests
/// (icx/serving/simulate.hpp), or ten per client when that is more, at most what one
/// simulation runs; a tenth of them is left out at each end unless --warmup says.
constexpr std::int64_t requests_per_client = 10;
constexpr std::int64_t warmup_share_divisor = 10;

/// Adds the four flags; `planned`: the command plans for the load (else it evaluates a
/// layout under it).
void add_load_options(CLI::App& app, LoadOptions& options, bool planned);

/// --prefix-hit F (0 to 1) into `prefix_hit`, described by `help`.
void add_prefix_hit_option(CLI::App& app, double& prefix_hit, const std::string& help);

/// The load the flags describe (the chunk left at its default: each GPU's own), or nothing
/// without --rate.
std::optional<Load> load_of(const LoadOptions& options);

/// The load's requests without a rate: their lengths and prefix-cache hit (a closed loop's,
/// whose rate is what its clients reach).
Load load_lengths_of(const LoadOptions& options);

/// Adds --spread (with its help, saying around what), --lengths and --seed.
void add_length_options(CLI::App& app, SimulationOptions& options, const std::string& spread_help);

/// The shape --spread and --lengths describe: fixed without a spread; refuses a uniform spread
/// above 1.
LengthShape length_shape_of(const SimulationOptions& options);

/// Adds --concurrency, --arrivals, --fast, --spread, --lengths, --requests, --warmup,
/// --warm-prompts and --seed.
void add_simulation_options(CLI::App& app, SimulationOptions& options);

/// --warm-prompts N into `warm_prompts`, described by `help`.
void add_warm_prompts_option(CLI::App& app, std::optional<std::int64_t>& warm_prompts,
                             const std::string& help);

/// The flags only a simulation reads.
inline constexpr std::array<const char*, 7> simulation_flags{
    "--arrivals", "--spread", "--lengths", "--requests", "--warmup", "--warm-prompts", "--seed"};

/// Refuses flags that contradict each other: --rate with --concurrency, --arrivals with a
/// closed loop, --fast with one unless `fast_clients` (a command with a closed form for
/// clients), and the simulation's flags with --fast or without a load.
void check_simulation_flags(const CLI::App& app, const LoadOptions& load,
                            const SimulationOptions& options, bool fast_clients = false);

/// The traffic the flags describe with --input and --output as its nominal lengths: the
/// closed loop of --concurrency (under --fast too: its clients are what the closed form
/// prices), else the open loop of --rate unless --fast; nothing else.
std::optional<Traffic> traffic_of(const LoadOptions& load, const SimulationOptions& options);

} // namespace icx::cli
