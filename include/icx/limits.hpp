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
constexpr int max_domain = 1 << 20;
constexpr std::int64_t max_tokens = 100'000'000;
/// Parameters of a model: times 4 bytes (fp32) still below 2^53.
constexpr double max_params = 1e15;
/// Largest collective message: 1 PiB, far above any buffer, exact in a double.
constexpr std::int64_t max_message_bytes = std::int64_t{1} << 50;

// Largest input file of each kind, checked before a file is read whole (so /dev/zero or an
// endless pipe is refused, not read into memory). Each is far above any real file of its kind.
constexpr std::size_t mebibyte = std::size_t{1} << 20;
/// A --catalog overlay: the shipped catalog is about 20 KiB.
constexpr std::size_t max_catalog_file_bytes = 4 * mebibyte;
/// A Hugging Face config.json: real ones are a few KiB.
constexpr std::size_t max_hf_config_file_bytes = 1 * mebibyte;
/// An nccl-tests log: a full sweep with every rank's line is well under 1 MiB.
constexpr std::size_t max_nccl_log_file_bytes = 64 * mebibyte;
/// A measurements CSV for icx validate.
constexpr std::size_t max_measurements_file_bytes = 64 * mebibyte;
/// Nesting depth of a JSON document: catalogs and configs nest four or five levels.
constexpr int max_json_depth = 64;

} // namespace icx::limits
