#include "icx/serving/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/serving/serving.hpp"
#include "serving/simulate_detail.hpp"

namespace icx {

namespace {

using detail::Request;
using detail::Totals;

class Scheduler {
public:
  Scheduler(const StepCosts& costs, const SchedulerLimits& limits, const Traffic& traffic)
      : costs_(costs), limits_(limits), traffic_(traffic) {}

  SimulationResult run();

private:
  void draw_requests();
  void issue(std::int64_t index, double time);
  void take_ready();
  void admit();
  void preempt_for(std::int64_t decodes);
  [[nodiscard]] bool measured(std::size_t index) const;
  void finish(Request& r, std::size_t index);
  /// Runs one engine step from now; false when nothing is left to run.
  bool step();
  /// Takes this step's prompt chunks (chunks_) within `budget` tokens, prompts in order.
  detail::PromptChunks take_chunks(std::int64_t budget);
  void emit(bool decoded, double step_start);
  [[nodiscard]] SimulationResult summarise() const;
  void keep_up(SimulationResult& result) const;

  const StepCosts& costs_;
  const SchedulerLimits& limits_;
  const Traffic& traffic_;
  std::vector<Request> requests_;
  /// Requests issued, in order: the next to issue and the next to reach the scheduler.
  std::size_t issued_ = 0;
  std::size_t ready_ = 0;
  std::deque<std::size_t> waiting_;
  std::vector<std::size_t> running_;
  /// This step's prompt chunks: the request and its tokens.
  std::vector<std::pair<std::size_t, std::int64_t>> chunks_;
  std::int64_t kv_used_ = 0;
  /// The admitted requests' whole lengths under whole_request admission (none preempted).
  std::int64_t kv_reserved_ = 0;
  /// Running requests still prefilling, and the tokens the others hold in the cache (what a
  /// decode step attends to), kept as the requests change rather than counted each step.
  std::int64_t prefilling_ = 0;
  std::int64_t decode_context_ = 0;
  bool any_finished_ = false;
  std::int64_t preemptions_ = 0;
  double now_ = 0;
  Totals totals_;
  Totals window_start_;
  Totals window_end_;
  bool window_open_ = false;
  /// Inter-token gaps of measured requests, each with how many tokens saw it.
  detail::GapHistogram itl_;
};

void Scheduler::draw_requests() {
  detail::Draws draws(traffic_.seed);
  requests_.resize(static_cast<std::size_t>(traffic_.requests));
  double total_output = 0;
  double clock = 0;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    Request& r = requests_[i];
    std::tie(r.prompt, r.output) = draws.lengths(traffic_.input, traffic_.output);
    const bool warm = static_cast<std::int64_t>(i) < traffic_.warm_prompts;
    r.cached = prefix_cached(r.prompt, warm ? 1.0 : traffic_.prefix_hit, limits_.prefix_block);
    r.to_prefill = r.prompt - r.cached;
    r.reserved = limits_.kv_admission == KvAdmission::whole_request ? r.prompt + r.output : 0;
    total_output += static_cast<double>(r.output);
    if (r.prompt + r.output > limits_.kv_tokens) {
      throw KvCacheError(fmt::format(
          "a request of {} prompt and {} output tokens needs more KV cache than the {} tokens "
          "the GPUs hold beside the weights: shorten --input or --output, or narrow --spread",
          r.prompt, r.output, limits_.kv_tokens));
    }
    if (traffic_.arrivals != Arrivals::closed) {
      clock += traffic_.arrivals == Arrivals::poisson ? draws.exponential(traffic_.rate)
                                                      : 1 / traffic_.rate;
      r.issued = clock;
    }
  }
  if (total_output > limits::max_simulated_tokens) {
    throw InputError(fmt::format("{} requests generate {:.3g} tokens in all, more than the "
                                 "{:.3g} one simulation runs: give fewer --requests",
                                 traffic_.requests, total_output, limits::max_simulated_tokens));
  }
}

void Scheduler::issue(std::int64_t index, double time) {
  if (index < traffic_.requests) {
    requests_[static_cast<std::size_t>(index)].issued = time;
    issued_ = static_cast<std::size_t>(index) + 1;
  }
}

/// A request reaches the scheduler its per-request time (server, tokenizer) after it is sent.
void Scheduler::take_ready() {
  const double per_request = costs_.per_request.value();
  while (ready_ < issued_ && requests_[ready_].issued + per_request <= now_) {
    waiting_.push_back(ready_);
    if (measured(ready_) && !window_open_) {
      // The window opens when the first measured request is sent.
      window_open_ = true;
      window_start_ = totals_;
      window_start_.time = requests_[ready_].issued;
    }
    ++ready_;
  }
}

/// First come, first served while sequences and the KV cache allow (the engines admit in order
/// and stop at the first request that does not fit).
void Scheduler::admit() {
  while (!waiting_.empty() && static_cast<std::int64_t>(running_.size()) < limits_.max_sequences) {
    const Request& r = requests_[waiting_.front()];
    if (std::max(kv_used_ + r.footprint(), kv_reserved_ + r.reserved) > limits_.kv_tokens) {
      return;
    }
    kv_used_ += r.footprint();
    kv_reserved_ += r.reserved;
    prefilling_ += 1;
    running_.push_back(waiting_.front());
    waiting_.pop_front();
  }
}

/// Each decode writes one more token to the cache; when they do not fit, the newest request
/// gives its cache up and waits to recompute it (vLLM V1's preemption).
void Scheduler::preempt_for(std::int64_t decodes) {
  while (kv_used_ + decodes > limits_.kv_tokens && running_.size() > 1) {
    Request& victim = requests_[running_.back()];
    kv_used_ -= victim.footprint();
    if (victim.prefilling()) {
      prefilling_ -= 1;
    } else {
      --decodes;
      decode_context_ -= victim.footprint();
    }
    victim.to_prefill = victim.prompt - victim.cached + victim.generated;
    victim.prefilled = 0;
    victim.decoded = 0;
    waiting_.push_front(running_.back());
    running_.pop_back();
    ++preemptions_;
  }
}

bool Scheduler::measured(std::size_t index) const {
  const auto i = static_cast<std::int64_t>(index);
  return i >= traffic_.warmup && i < traffic_.requests - traffic_.warmup;
}

void Scheduler::finish(Request& r, std::size_t index) {
  r.finish = now_;
  kv_used_ -= r.footprint();
  kv_reserved_ -= r.reserved;
  decode_context_ -= r.footprint();
  any_finished_ = true;
  totals_.finished += 1;
  if (measured(index)) {
    window_end_ = totals_;
  }
  if (traffic_.arrivals == Arrivals::closed) {
    issue(static_cast<std::int64_t>(issued_), now_);
  }
}

detail::PromptChunks Scheduler::take_chunks(std::int64_t budget) {
  detail::PromptChunks taken;
  chunks_.clear();
  std::int64_t unseen = prefilling_;
  for (auto at = running_.begin(); unseen > 0 && budget > 0 && at != running_.end(); ++at) {
    const Request& r = requests_[*at];
    if (r.prefilling()) {
      --unseen;
      const std::int64_t chunk = std::min(r.to_prefill - r.prefilled, budget);
      chunks_.emplace_back(*at, chunk);
      budget -= chunk;
      taken.tokens += chunk;
      // The chunk attends to the cached prefix and the chunks before it too.
      taken.pairs +=
          attention_pairs(static_cast<double>(chunk), static_cast<double>(r.cached + r.prefilled));
      taken.first_tokens += r.prefilled + chunk == r.to_prefill ? 1 : 0;
    }
  }
  return taken;
}

bool Scheduler::step() {
  take_ready();
  if (running_.empty() && waiting_.empty()) {
    if (ready_ == issued_) {
      return false;
    }
    now_ = std::max(now_, requests_[ready_].issued + costs_.per_request.value());
    take_ready();
  }
  admit();
  const auto running = static_cast<std::int64_t>(running_.size());
  preempt_for(running - prefilling_);
  const bool prefill_alone = limits_.policy == SchedulePolicy::prefill_first && prefilling_ > 0;
  const std::int64_t decodes =
      prefill_alone ? 0 : static_cast<std::int64_t>(running_.size()) - prefilling_;
  const auto context = static_cast<double>(decode_context_);
  std::int64_t budget = limits_.token_budget;
  if (limits_.policy == SchedulePolicy::decode_first) {
    budget -= decodes;
  }
  const detail::PromptChunks prompts = take_chunks(budget);
  // Never below zero: a step of a few prompt tokens alone may fall short of a fixed part that
  // is below zero (StepCosts::prefill_fixed).
  const double seconds = std::max(
      0.0, (decodes > 0 ? costs_.decode_seconds(decodes, context) : costs_.prefill_fixed.value()) +
               static_cast<double>(prompts.tokens) * costs_.per_prompt_token.value() +
               prompts.pairs * costs_.per_prompt_pair.value() +
               static_cast<double>(chunks_.size()) * costs_.per_prompt.value() +
               (chunks_.empty() ? 0.0 : costs_.prefill_step.value()));
  const double before = now_;
  now_ += seconds;
  totals_.time = now_;
  totals_.tokens += static_cast<double>(decodes + prompts.first_tokens);
  totals_.batch_seconds += static_cast<double>(decodes) * seconds;
  totals_.kv_seconds +=
      static_cast<double>(kv_used_) / static_cast<double>(limits_.kv_tokens) * seconds;
  emit(decodes > 0, before);
  if (any_finished_) {
    std::erase_if(running_, [&](std::size_t i) { return requests_[i].finish >= 0; });
    any_finished_ = false;
  }
  return true;
}

/// The step's tokens: one for every decode, one for every prompt whose last chunk ran.
void Scheduler::emit(bool decoded, double step_start) {
  double same_gap = 0;
  const auto token = [&](Request& r, std::size_t index) {
    ++r.generated;
    if (r.first_token < 0) {
      r.first_token = now_;
    } else if (measured(index)) {
      if (r.last_token == step_start) {
        same_gap += 1;
      } else {
        itl_.add(now_ - r.last_token, 1);
      }
    }
    r.last_token = now_;
    if (r.generated == r.output) {
      finish(r, index);
    }
  };
  if (decoded) {
    for (std::size_t i : running_) {
      Request& r = requests_[i];
      if (!r.prefilling()) {
        ++r.decoded;
        ++kv_used_;
        ++decode_context_;
        token(r, i);
      }
    }
  }
  for (const auto& [i, chunk] : chunks_) {
    Request& r = requests_[i];
    r.prefilled += chunk;
    if (!r.prefilling()) {
      prefilling_ -= 1;
      decode_context_ += r.footprint();
      token(r, i);
    }
  }
  if (same_gap > 0) {
    itl_.add(now_ - step_start, same_gap);
  }
}

SimulationResult Scheduler::summarise() const {
  std::vector<std::pair<double, double>> ttft;
  std::vector<std::pair<double, double>> tpot;
  std::vector<std::pair<double, double>> e2e;
  SimulationResult result;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    const Request& r = requests_[i];
    if (!measured(i)) {
      continue;
    }
    ++result.measured;
    ttft.emplace_back(r.first_token - r.issued, 1);
    e2e.emplace_back(r.finish - r.issued, 1);
    if (r.output > 1) {
      tpot.emplace_back((r.finish - r.first_token) / static_cast<double>(r.output - 1), 1);
    }
  }
  result.ttft = detail::summary_of(std::move(ttft));
  result.tpot = detail::summary_of(std::move(tpot));
  result.itl = itl_.summary();
  result.e2e = detail::summary_of(std::move(e2e));
  const double span = window_end_.time - window_start_.time;
  if (span > 0) {
    result.requests_per_second = (window_end_.finished - window_start_.finished) / span;
    result.output_tokens_per_second = (window_end_.tokens - window_start_.tokens) / span;
    result.mean_batch = (window_end_.batch_seconds - window_start_.batch_seconds) / span;
    result.kv_occupancy = (window_end_.kv_seconds - window_start_.kv_seconds) / span;
  }
  result.preemptions = preemptions_;
  result.duration = Seconds::of(now_);
  if (traffic_.arrivals != Arrivals::closed) {
    keep_up(result);
  }
  return result;
}

/// The open loop's offered and served rates while the measured requests were being sent: a
/// stable queue finishes requests as fast as they come, an overloaded one at its capacity.
void Scheduler::keep_up(SimulationResult& result) const {
  const double first = requests_[static_cast<std::size_t>(traffic_.warmup)].issued;
  const double last =
      requests_[static_cast<std::size_t>(traffic_.requests - traffic_.warmup - 1)].issued;
  if (result.measured < 2 || last <= first) {
    return;
  }
  const double span = last - first;
  const auto finished = std::ranges::count_if(
      requests_, [&](const Request& r) { return r.finish >= first && r.finish <= last; });
  result.offered_rate = static_cast<double>(result.measured - 1) / span;
  result.served_rate = static_cast<double>(finished) / span;
  // Three standard deviations of a Poisson count of `measured` requests.
  constexpr double deviations = 3;
  const double tolerance = deviations / std::sqrt(static_cast<double>(result.measured));
  result.saturated = result.served_rate < result.offered_rate * (1 - tolerance);
}

SimulationResult Scheduler::run() {
  draw_requests();
  if (traffic_.arrivals == Arrivals::closed) {
    for (std::int64_t client = 0; client < traffic_.concurrency; ++client) {
      issue(client, 0);
    }
  } else {
    issued_ = requests_.size();
  }
  while (step()) {
  }
  return summarise();
}

} // namespace

SimulationResult simulate(const StepCosts& costs, const SchedulerLimits& limits,
                          const Traffic& traffic) {
  if (traffic.requests - 2 * traffic.warmup < 1) {
    throw InputError(fmt::format("{} requests with {} of warm-up and cool-down each leave none "
                                 "to measure: give more --requests",
                                 traffic.requests, traffic.warmup));
  }
  if (traffic.requests > limits::max_simulated_requests) {
    throw InputError(fmt::format("--requests {}: at most {} in one simulation", traffic.requests,
                                 limits::max_simulated_requests));
  }
  Scheduler scheduler(costs, limits, traffic);
  return scheduler.run();
}

} // namespace icx
