// A serving benchmark's own result file, as the tool wrote it: `vllm bench serve
// --save-result` (one JSON object, or one per line with --append-result), SGLang's
// `bench_serving --output-file` (JSON Lines) and genai-perf's profile export
// (profile_export_genai_perf.json). None records the GPUs or the layout; what each run did
// record is read here: its load, its lengths, its latencies' mean and percentiles, its
// throughput.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"

namespace icx {

enum class BenchTool { vllm, sglang, genai_perf };

constexpr std::array<EnumName<BenchTool>, 3> enum_names(BenchTool /*unused*/) {
  return {{{BenchTool::vllm, "vllm bench serve"},
           {BenchTool::sglang, "sglang bench_serving"},
           {BenchTool::genai_perf, "genai-perf"}}};
}

/// Requests at the start of a run whose prompt the tool sent once before it (then found in the
/// engine's prefix cache): vllm bench serve's initial test prompt and SGLang bench_serving's
/// warm-up (--warmup-requests, default 1) send request 0's prompt; genai-perf sends no
/// warm-up unless told (--warmup-request-count, default 0), with prompts of its own.
std::int64_t warm_prompts_of(BenchTool tool);

/// The figures a run reports of one latency; each absent when the file does not give it.
struct ReportedLatency {
  std::optional<Seconds> mean;
  std::optional<Seconds> p50;
  std::optional<Seconds> p90;
  std::optional<Seconds> p99;
  [[nodiscard]] bool any() const { return mean || p50 || p90 || p99; }
};

struct ServingRun {
  /// The file, and the run's line in it (JSON Lines) or 1.
  std::string origin;
  std::size_t line = 1;
  BenchTool tool = BenchTool::vllm;
  /// The model as the run names it (a Hugging Face id or a path); empty when it does not.
  std::string model;
  /// The client's cap on requests in flight (a closed loop), when it set one.
  std::optional<std::int64_t> concurrency;
  /// The requests per second it sent at, when finite (an open loop); neither: every request
  /// at once.
  std::optional<double> rate;
  /// Requests that completed; genai-perf's older exports do not count them.
  std::optional<std::int64_t> completed;
  /// Mean prompt and output tokens per request, as the run counted them.
  double input_tokens = 0;
  double output_tokens = 0;
  double requests_per_second = 0;
  double output_tokens_per_second = 0;
  ReportedLatency ttft;
  /// Per request: (latency − TTFT) / (output − 1) (genai-perf's inter_token_latency).
  ReportedLatency tpot;
  /// Every gap between two tokens (vLLM's and SGLang's itl); genai-perf has none.
  ReportedLatency itl;
};

/// Reads every run in a result file: one JSON document, or JSON Lines of them; SGLang's bare
/// Infinity and NaN are read as absent. Throws InputError "<origin>[:<line>]: <JSON
/// pointer>: …" for what is not one of the three formats, a missing or malformed figure, no
/// completed request, or no TTFT figure or neither a TPOT nor an ITL figure.
std::vector<ServingRun> parse_serving_runs(std::string_view text, const std::string& origin);

} // namespace icx
