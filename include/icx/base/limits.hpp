// Bounds on user-given sizes: wide enough for any real model, narrow enough that every
// derived byte count stays a whole number below 2^53, where a double is exact.
#pragma once

#include <cstddef>
#include <cstdint>

namespace icx::limits {

/// 2^53: below it a double holds every whole number exactly.
constexpr double max_exact_double = 9007199254740992.0;

constexpr int max_hidden = 1 << 20;
constexpr int max_layers = 1 << 14;
constexpr int max_heads = 1 << 14;
constexpr int max_vocab = 1 << 24;
constexpr int max_experts = 1 << 14;
/// Drafts one speculative decoding step checks (engines run up to about 8).
constexpr int max_draft_tokens = 16;
constexpr int max_domain = 1 << 20;
constexpr std::int64_t max_tokens = 100'000'000;
/// Parameters of a model: times 4 bytes (fp32) still below 2^53.
constexpr double max_params = 1e15;
/// Largest collective message: 1 PiB, far above any buffer, exact in a double.
constexpr std::int64_t max_message_bytes = std::int64_t{1} << 50;

/// A closed range [min, max] that a figure must lie in. Each bound below is far outside
/// every real product yet keeps derived times and ratios finite and printable: a figure
/// outside it is a typo or a unit mistake (GB/s given in B/s, µs given in s), not hardware.
struct Bounds {
  double min;
  double max;
};

/// Link, host-link, storage and HBM bandwidths in GB/s: 1 MB/s to 1 PB/s.
constexpr Bounds bandwidth_GBps{1e-3, 1e6};
/// Latencies in µs: 1 ns to 1 s.
constexpr Bounds latency_us{1e-3, 1e6};
/// A message-size limit in KiB: one byte to max_message_bytes.
constexpr Bounds message_KiB{1.0 / 1024, static_cast<double>(max_message_bytes) / 1024};
/// A GEMM curve's weight count at which its compute fraction halves, in millions of elements:
/// none (every width reaches the fraction) to 10¹².
constexpr Bounds half_weights_M{0.0, 1e6};
/// A curve's half points (prompt tokens, tokens per expert, head width): none (the fraction
/// holds from the first) up.
constexpr Bounds half_tokens{0.0, 1e9};
constexpr Bounds half_head_dim{0.0, 1e6};
constexpr Bounds half_sequences{0.0, 1e6};
/// A routed-expert curve's cost per routing entry, and an attention curve's per query head,
/// in ns: none to 1 ms.
constexpr Bounds route_ns{0.0, 1e6};
/// An engine's own cost per step, per layer or per request in µs: none to 10 s.
constexpr Bounds engine_cost_us{0.0, 1e7};
/// An engine's bytes of HBM traffic per context token a decode's attention walks
/// (EngineCosts::context_walk): from none to a megabyte.
constexpr Bounds context_walk_bytes{0.0, 1e6};
/// An engine's memory reserve terms, in MiB (a GPU's whole memory at most).
constexpr Bounds reserve_MiB{0.0, 1e6};
/// An engine's prompt scale (EngineCosts::prompt_scale): from a tenth to ten times the priced
/// prefill.
constexpr Bounds prompt_scale{0.1, 10.0};
/// An engine's prefill pass over its measured kernels (EngineCosts::prefill_pass_scale): at
/// least the kernels themselves, at most ten times them.
constexpr Bounds prefill_pass_scale{1.0, 10.0};
/// A curve's blend exponent between two bounds: 1 (their sum) to 64 (within 1 % of the longer).
constexpr Bounds knee{1.0, 64.0};
/// HBM capacity of one GPU in GB: 1 MB to 1 PB.
constexpr Bounds capacity_GB{1e-3, 1e6};
/// A decode rate in tokens per second: far below and above any measured run.
constexpr Bounds tokens_per_second{1e-6, 1e9};
/// The factor a validation row's prediction must stay within (1: exact).
constexpr Bounds validation_bound{1.0, 1e3};
/// Host memory of one node in GB: 1 MB to 1 EB.
constexpr Bounds host_capacity_GB{1e-3, 1e9};
/// Local NVMe drives in one node.
constexpr int max_nvme_drives = 1024;
/// Dense peak of one GPU in TFLOP/s: 1 GFLOP/s to 1 EFLOP/s.
constexpr Bounds peak_TFLOPs{1e-3, 1e6};
/// Parameters of a model: a million (smaller than any language model served on GPUs) to
/// max_params.
constexpr Bounds params{1e6, max_params};
/// Bytes per element of a data type: 4-bit to 128-bit types and a margin either side.
constexpr Bounds bytes_per_element{1.0 / 16, 16};
/// Efficiencies and utilisations: 0.1 % to 100 % of a peak.
constexpr Bounds utilisation{1e-3, 1.0};
/// The expected model's small-message slowdown factor (dimensionless).
constexpr Bounds slowdown{1e-3, 1e3};
/// How many times the mean traffic the busiest GPU of an expert group carries.
constexpr Bounds skew{1.0, 1e3};
/// A node's list price in USD per hour: a tenth of a cent to ten million.
constexpr Bounds usd_per_hour{1e-3, 1e7};
/// Requests per second a plan serves: one a day to ten million a second.
constexpr Bounds requests_per_second{1.0 / 86400, 1e7};
/// Nodes of one system a plan may try: a plan that meets nothing tries every node count, each
/// with every layout of its GPUs, so the work grows faster than the count.
constexpr int max_plan_nodes = 128;
/// A latency target in seconds: 1 µs to a day.
constexpr Bounds target_seconds{1e-6, 86400};
/// Requests one serving simulation runs, and the output tokens they add up to: each
/// simulated step decodes at least one token, so the second bounds its work (a few seconds).
constexpr std::int64_t max_simulated_requests = 1'000'000;
constexpr double max_simulated_tokens = 5e7;
/// The spread of simulated lengths: none to a uniform draw from 0 to the nominal (1), or a
/// lognormal coefficient of variation up to 4 (chat traces measure about 1).
constexpr Bounds length_spread{0.0, 4.0};
/// A benchmark run's latency figure in ms: none to a day.
constexpr Bounds benchmark_latency_ms{0.0, 86.4e6};
/// A benchmark run's mean tokens per request, and its throughput in requests or tokens per
/// second: none to far above any run.
constexpr Bounds benchmark_tokens{0.0, static_cast<double>(max_tokens)};
constexpr Bounds benchmark_throughput{0.0, 1e9};
/// A benchmark run's duration in seconds: a microsecond to a year.
constexpr Bounds benchmark_duration_s{1e-6, 3.2e7};
/// A cold-start budget in seconds: 1 ms to 30 days.
constexpr Bounds budget_seconds{1e-3, 30.0 * 24 * 3600};

// Largest input file of each kind, checked before a file is read whole (so /dev/zero or an
// endless pipe is refused, not read into memory). Each is far above any real file of its kind.
constexpr std::size_t mebibyte = std::size_t{1} << 20;
/// A --catalog overlay: the shipped catalog is about 20 KiB.
constexpr std::size_t max_catalog_file_bytes = 4 * mebibyte;
/// A Hugging Face config.json: real ones are a few KiB.
constexpr std::size_t max_hf_config_file_bytes = 1 * mebibyte;
/// An nccl-tests log: a full sweep with every rank's line is well under 1 MiB, and the fit
/// prices every row at every candidate parameter.
constexpr std::size_t max_nccl_log_file_bytes = 2 * mebibyte;
/// A pasted topology report (nvidia-smi topo -m, rocm-smi --showtopo): a few KiB.
constexpr std::size_t max_topo_file_bytes = 1 * mebibyte;
/// A measurements CSV for icx validate: the shipped ones are a few KiB, and every row is
/// kept, predicted and printed, so a file this size is a few hundred MB of report.
constexpr std::size_t max_measurements_file_bytes = 4 * mebibyte;
/// An icx config file (defaults for flags): a few lines.
constexpr std::size_t max_config_file_bytes = 64 * std::size_t{1} << 10;
/// Nesting depth of a JSON document: catalogs and configs nest four or five levels.
constexpr int max_json_depth = 64;

} // namespace icx::limits
