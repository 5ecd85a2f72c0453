// What the scheduler simulation (src/serving/simulate.cpp) draws and sums up: request
// lengths from a seeded generator, and a latency's mean and percentiles.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "icx/serving/simulate.hpp"

namespace icx::detail {

struct Request {
  std::int64_t prompt = 0;
  std::int64_t output = 0;
  /// Prompt tokens found in the prefix cache: held, never computed (a preempted request finds
  /// them there again, the prefix being shared with other requests).
  std::int64_t cached = 0;
  /// Tokens to prefill before the next token: the prompt past its cached prefix, or after a
  /// preemption that and every token generated so far (recomputed).
  std::int64_t to_prefill = 0;
  std::int64_t prefilled = 0;
  /// Tokens decoded into the cache since the last prefill.
  std::int64_t decoded = 0;
  std::int64_t generated = 0;
  double issued = 0;
  double first_token = -1;
  double last_token = 0;
  double finish = -1;
  [[nodiscard]] bool prefilling() const { return prefilled < to_prefill; }
  /// Tokens the request holds in the KV cache once its prefill is done.
  [[nodiscard]] std::int64_t footprint() const { return cached + to_prefill + decoded; }
  /// The KV cache it reserves when admitted: its whole length under whole_request, else none.
  std::int64_t reserved = 0;
};

/// Cumulative figures at a time, for the measurement window's two ends.
struct Totals {
  double time = 0;
  double tokens = 0;
  double finished = 0;
  double batch_seconds = 0;
  double kv_seconds = 0;
};

/// A step's prompt chunks: their tokens, the attention pairs they compute, and the prompts
/// whose last chunk they are.
struct PromptChunks {
  std::int64_t tokens = 0;
  double pairs = 0;
  std::int64_t first_tokens = 0;
};

/// mt19937_64's output is fixed by the standard, so a seed gives the same draws on every
/// platform; the transforms are written out for the same reason (the standard's
/// distributions are not).
class Draws {
public:
  explicit Draws(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1).
  double unit();
  double exponential(double rate);
  double normal();
  /// A request's prompt and output lengths as `input` and `output` draw them, each at least
  /// one token: one pair of the ShareGPT sample when `input` draws from it, else each apart.
  std::pair<std::int64_t, std::int64_t> lengths(const LengthDistribution& input,
                                                const LengthDistribution& output);

private:
  /// A length as `d` draws it, at least one token (any shape but sharegpt).
  std::int64_t length(const LengthDistribution& d);

  std::mt19937_64 engine_;
};

/// Inter-token gaps, one per decoded token, kept in buckets 0.01 % wide (each holding the
/// least gap that fell in it and how many did): a run of millions of tokens keeps as many
/// buckets as it has distinct gaps at that resolution, and its percentiles are off by at most
/// 0.01 %; the mean is exact.
class GapHistogram {
public:
  void add(double gap, double weight);
  [[nodiscard]] LatencySummary summary() const;

private:
  std::map<std::int64_t, std::pair<double, double>> buckets_;
  double sum_ = 0;
  double weight_ = 0;
};

/// Mean and nearest-rank percentiles of values, each with its weight (none: all zero).
LatencySummary summary_of(std::vector<std::pair<double, double>> values);

} // namespace icx::detail
