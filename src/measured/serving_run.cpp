#include "icx/measured/serving_run.hpp"

#include <cmath>
#include <cstddef>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"

namespace icx {

namespace {

using nlohmann::json;
using Pointer = json::json_pointer;

/// The text with every bare Infinity, -Infinity and NaN outside a string replaced by null:
/// Python's json module writes them (SGLang's request_rate of inf), no JSON parser reads them.
std::string without_non_finite(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    }
    bool replaced = false;
    for (const std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
      if (text.substr(i).starts_with(token)) {
        out += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      out += c;
    }
  }
  return out;
}

/// One run's object, read by JSON Pointer; an error names the file, the line and the pointer.
class RunReader {
public:
  RunReader(const json& root, std::string where) : root_(root), where_(std::move(where)) {}

  /// The value at `pointer`, or nullptr when it is absent or null.
  [[nodiscard]] const json* at(const Pointer& pointer) const {
    return root_.contains(pointer) && !root_.at(pointer).is_null() ? &root_.at(pointer) : nullptr;
  }

  [[nodiscard]] std::optional<double> number(const Pointer& pointer,
                                             const limits::Bounds& bounds) const {
    const json* value = at(pointer);
    if (value == nullptr) {
      return std::nullopt;
    }
    if (!value->is_number()) {
      fail(pointer, "expected a number, got " + detail::describe(*value));
    }
    const auto x = value->get<double>();
    if (!std::isfinite(x) || x < bounds.min || x > bounds.max) {
      fail(pointer,
           fmt::format("{} is outside {:g} to {:g}", value->dump(), bounds.min, bounds.max));
    }
    return x;
  }

  [[nodiscard]] double required(const Pointer& pointer, const limits::Bounds& bounds) const {
    if (const std::optional<double> x = number(pointer, bounds)) {
      return *x;
    }
    fail(pointer, "missing: a result file of this tool always has it");
  }

  [[nodiscard]] std::optional<std::int64_t> count(const Pointer& pointer) const {
    const std::optional<double> x =
        number(pointer, {0, static_cast<double>(limits::max_simulated_requests)});
    if (x && std::floor(*x) != *x) {
      fail(pointer, fmt::format("{} is not a whole number", *x));
    }
    return x ? std::optional<std::int64_t>(static_cast<std::int64_t>(*x)) : std::nullopt;
  }

  /// A figure in ms, in seconds.
  [[nodiscard]] std::optional<Seconds> ms(const Pointer& pointer) const {
    const std::optional<double> x = number(pointer, limits::benchmark_latency_ms);
    return x ? std::optional<Seconds>(Seconds::of(*x / 1e3)) : std::nullopt;
  }

  /// A string, or empty.
  [[nodiscard]] std::string text(const Pointer& pointer) const {
    const json* value = at(pointer);
    return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
  }

  /// A request rate: a positive number, or "inf" (vLLM) or null (SGLang's Infinity) for every
  /// request at once.
  [[nodiscard]] std::optional<double> rate(const Pointer& pointer) const {
    const json* value = at(pointer);
    if (value == nullptr || (value->is_string() && value->get<std::string>() == "inf")) {
      return std::nullopt;
    }
    return number(pointer, limits::requests_per_second);
  }

  [[noreturn]] void fail(const Pointer& pointer, const std::string& reason) const {
    detail::fail_at(where_, pointer, reason);
  }

private:
  const json& root_;
  std::string where_;
};

Pointer key(const std::string& name) {
  return Pointer("/" + name);
}

/// vLLM's and SGLang's figures of `metric`: mean_, median_, p90_ and p99_<metric>_ms.
ReportedLatency flat_latency(const RunReader& r, const std::string& metric) {
  return {r.ms(key("mean_" + metric + "_ms")), r.ms(key("median_" + metric + "_ms")),
          r.ms(key("p90_" + metric + "_ms")), r.ms(key("p99_" + metric + "_ms"))};
}

/// genai-perf's figures of `metric`: {unit: ms, avg, p50, p90, p99}.
ReportedLatency nested_latency(const RunReader& r, const std::string& metric) {
  const Pointer at = key(metric);
  if (r.at(at) == nullptr) {
    return {};
  }
  if (const std::string unit = r.text(at / "unit"); unit != "ms") {
    r.fail(at / "unit", fmt::format("'{}': expected ms", unit));
  }
  return {r.ms(at / "avg"), r.ms(at / "p50"), r.ms(at / "p90"), r.ms(at / "p99")};
}

/// vLLM's and SGLang's common keys: the load, the counts and the throughput.
void read_flat(const RunReader& r, ServingRun& run) {
  run.concurrency = r.count(key("max_concurrency"));
  run.rate = r.rate(key("request_rate"));
  const std::optional<std::int64_t> counted = r.count(key("completed"));
  if (!counted) {
    r.fail(key("completed"), "missing: a result file of this tool always has it");
  }
  if (*counted == 0) {
    r.fail(key("completed"), "no request completed: nothing to compare");
  }
  const std::int64_t completed = *counted;
  run.completed = completed;
  const auto per_request = [&](const char* total) {
    return r.required(key(total), {0, limits::max_exact_double}) / static_cast<double>(completed);
  };
  run.input_tokens = per_request("total_input_tokens");
  run.output_tokens = per_request("total_output_tokens");
  // SGLang's 2024 files give the duration, not the request rate it makes.
  const std::optional<double> rate =
      r.number(key("request_throughput"), limits::benchmark_throughput);
  run.requests_per_second = rate ? *rate
                                 : static_cast<double>(completed) /
                                       r.required(key("duration"), limits::benchmark_duration_s);
  run.output_tokens_per_second = r.required(key("output_throughput"), limits::benchmark_throughput);
  run.ttft = flat_latency(r, "ttft");
  run.tpot = flat_latency(r, "tpot");
  run.itl = flat_latency(r, "itl");
}

/// genai-perf: flat input_config up to 0.0.11, nested (perf_analyzer.stimulus) after.
void read_genai_perf(const RunReader& r, ServingRun& run) {
  const Pointer config = key("input_config");
  const Pointer stimulus = config / "perf_analyzer" / "stimulus";
  run.concurrency = r.at(stimulus) != nullptr ? r.count(stimulus / "concurrency")
                                              : r.count(config / "concurrency");
  run.rate = r.at(stimulus) != nullptr ? r.rate(stimulus / "request_rate")
                                       : r.rate(config / "request_rate");
  if (const json* model = r.at(config / "model");
      model != nullptr && model->is_array() && !model->empty() && model->front().is_string()) {
    run.model = model->front().get<std::string>();
  }
  run.completed = r.count(key("request_count") / "avg");
  run.input_tokens = r.required(key("input_sequence_length") / "avg", limits::benchmark_tokens);
  run.output_tokens = r.required(key("output_sequence_length") / "avg", limits::benchmark_tokens);
  run.requests_per_second =
      r.required(key("request_throughput") / "avg", limits::benchmark_throughput);
  run.output_tokens_per_second =
      r.required(key("output_token_throughput") / "avg", limits::benchmark_throughput);
  run.ttft = nested_latency(r, "time_to_first_token");
  run.tpot = nested_latency(r, "inter_token_latency");
}

ServingRun read_run(const json& object, const std::string& origin, std::size_t line, bool lines) {
  const std::string where = lines ? fmt::format("{}:{}", origin, line) : origin;
  if (!object.is_object()) {
    detail::fail_at(where, Pointer(), "expected a result object, got " + detail::describe(object));
  }
  const RunReader r(object, where);
  ServingRun run;
  run.origin = origin;
  run.line = line;
  if (object.contains("time_to_first_token")) {
    run.tool = BenchTool::genai_perf;
    read_genai_perf(r, run);
  } else if (object.contains("mean_ttft_ms") || object.contains("median_ttft_ms")) {
    run.tool = object.contains("dataset_name") || object.contains("random_input_len")
                   ? BenchTool::sglang
                   : BenchTool::vllm;
    run.model = r.text(key("model_id"));
    if (run.model.empty()) {
      run.model = r.text(key("server_info") / "model_path");
    }
    read_flat(r, run);
  } else {
    r.fail(Pointer(), "not a result of vllm bench serve (mean_ttft_ms), SGLang bench_serving "
                      "(median_ttft_ms) or genai-perf (time_to_first_token)");
  }
  if (!run.ttft.any() || (!run.tpot.any() && !run.itl.any())) {
    r.fail(Pointer(), fmt::format("no {} figures: run the benchmark with a tokenizer (and "
                                  "streaming) so it measures them",
                                  run.ttft.any() ? "TPOT or ITL" : "TTFT"));
  }
  return run;
}

std::string_view trimmed(std::string_view line) {
  const std::size_t begin = line.find_first_not_of(" \t\r");
  const std::size_t end = line.find_last_not_of(" \t\r");
  return begin == std::string_view::npos ? std::string_view() : line.substr(begin, end - begin + 1);
}

/// The text's non-empty lines, each with its number.
std::vector<std::pair<std::size_t, std::string_view>> lines_of(std::string_view text) {
  std::vector<std::pair<std::size_t, std::string_view>> out;
  std::size_t number = 0;
  while (!text.empty()) {
    ++number;
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      out.emplace_back(number, line);
    }
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return out;
}

} // namespace

std::vector<ServingRun> parse_serving_runs(std::string_view text, const std::string& origin) {
  const std::string clean = without_non_finite(text);
  const auto lines = lines_of(clean);
  if (lines.empty()) {
    throw InputError(fmt::format("{}: empty: expected a benchmark's result file", origin));
  }
  std::vector<ServingRun> runs;
  // One document (genai-perf's indented export, vLLM's single run) or one run per line.
  const std::string_view first = trimmed(lines.front().second);
  const bool one_per_line = lines.size() > 1 && first.starts_with('{') && first.ends_with('}');
  if (!one_per_line) {
    runs.push_back(read_run(detail::parse_document(clean, origin), origin, 1, false));
    return runs;
  }
  for (const auto& [number, line] : lines) {
    const std::string where = fmt::format("{}:{}", origin, number);
    runs.push_back(read_run(detail::parse_document(line, where), origin, number, true));
  }
  return runs;
}

std::int64_t warm_prompts_of(BenchTool tool) {
  // vLLM's benchmarks/serve.py ("Starting initial single prompt test run") and SGLang's
  // python/sglang/bench_serving.py (its warm-up, unless --flush-cache) send input_requests[0]'s
  // prompt before the run: one request, the run's first, finds it cached.
  constexpr std::int64_t first_request_only = 1;
  return tool == BenchTool::genai_perf ? 0 : first_request_only;
}

} // namespace icx
