#include "icx/serving/request_load.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "icx/wire/comm_time.hpp"

namespace icx {

namespace {

/// Little's law fixed-point iterations before a load is called unsettled: each iteration
/// multiplies the gap to the fixed point by the step's growth per request, so a load this slow
/// to settle sits at the edge of saturation, where TPOT grows without bound.
constexpr int max_settle_iterations = 200;

std::int64_t ceil_count(double value) {
  return static_cast<std::int64_t>(std::ceil(value - 1e-9));
}

/// The steps a prompt's computed tokens (those its prefix cache does not hold) take, one chunk
/// a step.
std::int64_t prompt_chunks(const Load& load) {
  const std::int64_t computed =
      load.input - prefix_cached(load.input, load.prefix_hit, load.prefix_block);
  return (computed + load.prefill_chunk - 1) / std::max<std::int64_t>(load.prefill_chunk, 1);
}

/// TTFT and TPOT of `step` once its decode placement at step.batch is known. Chunked prefill
/// (vLLM V1, SGLang): each engine step runs the decodes plus up to `prefill_chunk` prompt
/// tokens. A prompt's service is its prefill plus one decode step per chunk it rides with
/// when other requests are decoding;
/// prompts wait for those ahead of them as in an M/D/1 queue (Poisson arrivals, fixed service),
/// W = ρ·S / (2·(1 − ρ)); the decode step is stretched by the prefill work sharing the GPUs,
/// TPOT = step / (1 − ρ). No prefill work hides under a decode step's memory time. The
/// engine's per-request time adds to TTFT outside the queue: it does not hold the GPUs.
void time_load(LoadedStep& step, const Load& load) {
  const Seconds decode = step.decode.step.latency;
  const double rho = step.prefill_share;
  const auto chunks = static_cast<double>(prompt_chunks(load));
  // Its chunks ride with the decodes of the requests already in flight. Poisson arrivals find
  // another request in flight with probability 1 − e^(−n), n the mean number in flight per
  // scheduler (M/G/∞, each request's time taken without the riding): at light load a prompt
  // runs alone.
  const double in_flight =
      load.rate / static_cast<double>(schedulers(step.layout)) *
      (step.prefill.step.busy() + decode * static_cast<double>(load.output)).value();
  const double riding = -std::expm1(-in_flight);
  step.prefill_service =
      step.prefill.step.busy() + step.further_passes + decode * (chunks * riding);
  step.ttft = step.prefill.step.request + step.prefill_service +
              step.prefill_service * (rho / (2 * (1 - rho)));
  step.tpot = decode / (1 - rho);
}

/// Requests the cluster holds: each replica as many as its memory keeps beside the weights
/// and its schedulers take.
std::int64_t requests_held(const LayoutMemory& memory, const Workload& workload,
                           const Layout& layout) {
  return std::min(memory.replica_capacity, scheduler_limit(workload, layout)) * layout.dp;
}

/// One prompt per scheduler, alone on the layout, and the fraction of each scheduler's time
/// the load's prompts take: a pipeline starts another prompt every stage time.
void price_prefill(LoadedStep& step, const Cluster& cluster, const LoadWorkloads& workloads,
                   const Layout& layout, const Load& load) {
  const std::int64_t units = schedulers(layout);
  step.prefill = evaluate_layout(cluster, with_batch(workloads.prefill, units), layout);
  const Engine* engine = workloads.prefill.engine;
  step.further_passes =
      engine != nullptr
          ? engine->costs.prefill_step *
                static_cast<double>(std::max<std::int64_t>(prompt_chunks(load) - 1, 0))
          : Seconds{};
  step.prefill_share =
      load.rate / static_cast<double>(units) *
      (step.prefill.step.stage + step.prefill.step.engine + step.further_passes).value();
}

/// Little's law fixed point: the least batch from one up whose `needed` count it holds, or
/// the limit that stops it. `evaluate` sets the step's figures at a batch.
template <class Evaluate, class Needed>
void settle(LoadedStep& step, Evaluate evaluate, Needed needed) {
  step.batch = 1;
  evaluate(step);
  for (int i = 0;; ++i) {
    const std::int64_t count = needed(step);
    if (count <= step.batch) {
      return;
    }
    if (count > step.capacity) {
      step.batch = count;
      step.limit = ServeLimit::memory;
      return;
    }
    if (i == max_settle_iterations) {
      step.limit = ServeLimit::saturated;
      return;
    }
    step.batch = count;
    evaluate(step);
  }
}

/// One prompt's KV cache, sent by each GPU of the prefill layout for its shard over `route`
/// (the expected model of a point-to-point send where the link has one). A cached prefix is
/// sent with the rest: the decode pool is not taken to hold it already.
Seconds kv_transfer_time(const Cluster& cluster, const Workload& prefill, const Layout& layout,
                         const RunSetup& setup, KvRoute route) {
  const Bytes cache =
      kv_bytes_per_sequence(*prefill.model, *prefill.kv_dtype, prefill.cached + prefill.tokens);
  const Bytes shard = cache / static_cast<double>(layout.tp * layout.pp);
  const CollectiveRequest send{Collective::point_to_point, Algorithm::automatic,
                               min_collective_gpus, shard, setup};
  const Link& link = kv_link(cluster, route);
  // Between nodes, GPUs that share one NIC send one after another; inside a node each GPU
  // sends over its own links.
  const double sharing = &link == cluster.scale_out
                             ? std::max(1.0, static_cast<double>(cluster.gpus_per_node) /
                                                 static_cast<double>(cluster.nics_per_node))
                             : 1.0;
  return comm_time(link, shard, send, 1).judged() * sharing;
}

} // namespace

const Link& kv_link(const Cluster& cluster, KvRoute route) {
  switch (route) {
  case KvRoute::scale_up:
    return *cluster.scale_up;
  case KvRoute::between_domains:
    return cluster.between_domains != nullptr ? *cluster.between_domains : *cluster.scale_out;
  case KvRoute::between_nodes:
    break;
  }
  return *cluster.scale_out;
}

std::int64_t schedulers(const Layout& layout) {
  return static_cast<std::int64_t>(layout.dp) * layout.ep;
}

Workload with_batch(Workload workload, std::int64_t batch) {
  workload.batch = batch;
  return workload;
}

LoadWorkloads load_workloads(const Catalog& catalog, const Model& model, const Dtype& dtype,
                             const Gpu& gpu, ServingRequest request, const Load& load) {
  request.batch.reset();
  request.objective = Objective::latency;
  LoadWorkloads w;
  request.phase = Phase::prefill;
  request.cached = prefix_cached(load.input, load.prefix_hit, load.prefix_block);
  request.tokens = load.input - request.cached;
  w.prefill = workload_for(catalog, model, dtype, gpu, request);
  request.phase = Phase::decode;
  request.cached = 0;
  // The mean context over a request's decode steps: the prompt and half its output.
  request.context = load.input + load.output / 2;
  w.decode = workload_for(catalog, model, dtype, gpu, request);
  // The last step holds the prompt and every output token but the last in the cache.
  request.context = load.input + load.output - 1;
  w.full_length = workload_for(catalog, model, dtype, gpu, request);
  return w;
}

LoadedStep serve_at_load(const Cluster& cluster, const LoadWorkloads& workloads,
                         const Layout& layout, const Load& load,
                         std::optional<std::int64_t> batch) {
  LoadedStep step;
  step.layout = layout;
  step.tokens_per_second_per_gpu =
      load.rate * static_cast<double>(load.output) / static_cast<double>(cluster.gpus);
  price_prefill(step, cluster, workloads, layout, load);
  const LayoutMemory memory =
      layout_memory(*cluster.gpu, workloads.full_length, layout, std::nullopt);
  step.capacity = requests_held(memory, workloads.full_length, layout);
  if (memory.replica_capacity == 0 || step.prefill_share >= 1) {
    step.batch = batch.value_or(1);
    step.decode = evaluate_layout(cluster, with_batch(workloads.decode, step.batch), layout);
    step.limit = memory.replica_capacity == 0 ? ServeLimit::weights : ServeLimit::saturated;
    return step;
  }
  const auto evaluate = [&](LoadedStep& at) {
    at.decode = evaluate_layout(cluster, with_batch(workloads.decode, at.batch), layout);
    time_load(at, load);
  };
  if (batch) {
    step.batch = *batch;
    evaluate(step);
  } else {
    // Little's law: requests in flight = arrival rate × time in the system.
    settle(step, evaluate, [&](const LoadedStep& at) {
      return ceil_count(load.rate * (at.ttft + at.tpot * static_cast<double>(load.output)).value());
    });
  }
  if (step.limit == ServeLimit::none && step.batch > step.capacity) {
    step.limit = ServeLimit::memory;
  }
  return step;
}

LoadedStep serve_clients(const Cluster& cluster, const LoadWorkloads& workloads,
                         const Layout& layout, const Load& load, std::int64_t clients) {
  // The rate the clients reach: where rate × (TTFT + output × TPOT) is the clients. That
  // product grows with the rate (the latencies only grow with it), so bisection finds it,
  // between no rate and the clients over the latency at no rate (the least latency); to half
  // a percent, well inside what the closed form knows. Iterating rate = clients / latency
  // instead can swing between two rates when the prefills' share is steep.
  constexpr int most_rounds = 40;
  constexpr double settled = 0.005;
  const auto clients_at = [&](const LoadedStep& s, double rate) {
    return rate * (s.ttft + s.tpot * static_cast<double>(load.output)).value();
  };
  Load at = load;
  at.rate = 0;
  LoadedStep step = serve_at_load(cluster, workloads, layout, at, clients);
  if (!step.serves()) {
    return step;
  }
  double low = 0;
  double high = static_cast<double>(clients) /
                (step.ttft + step.tpot * static_cast<double>(load.output)).value();
  for (int round = 0; round < most_rounds && high - low > settled * high; ++round) {
    at.rate = (low + high) / 2;
    const LoadedStep trial = serve_at_load(cluster, workloads, layout, at, clients);
    if (trial.serves() && clients_at(trial, at.rate) <= static_cast<double>(clients)) {
      low = at.rate;
    } else {
      high = at.rate;
    }
  }
  at.rate = low;
  return serve_at_load(cluster, workloads, layout, at, clients);
}

LoadedStep serve_prefill_pool(const Cluster& cluster, const LoadWorkloads& workloads,
                              const Layout& layout, const Load& load, const RunSetup& setup,
                              KvRoute route) {
  LoadedStep step;
  step.layout = layout;
  price_prefill(step, cluster, workloads, layout, load);
  const LayoutMemory memory = layout_memory(*cluster.gpu, workloads.prefill, layout, std::nullopt);
  step.capacity = requests_held(memory, workloads.prefill, layout);
  step.batch = ceil_count(load.rate * step.prefill.step.latency.value());
  if (memory.replica_capacity == 0) {
    step.limit = ServeLimit::weights;
    return step;
  }
  if (step.prefill_share >= 1) {
    step.limit = ServeLimit::saturated;
    return step;
  }
  const double rho = step.prefill_share;
  step.prefill_service = step.prefill.step.busy();
  step.kv_transfer = kv_transfer_time(cluster, workloads.prefill, layout, setup, route);
  step.ttft = step.prefill.step.request + step.prefill_service +
              step.prefill_service * (rho / (2 * (1 - rho))) + step.kv_transfer;
  step.batch = std::max<std::int64_t>(1, ceil_count(load.rate * step.ttft.value()));
  if (step.batch > step.capacity) {
    step.limit = ServeLimit::memory;
  }
  return step;
}

LoadedStep serve_decode_pool(const Cluster& cluster, const LoadWorkloads& workloads,
                             const Layout& layout, const Load& load) {
  LoadedStep step;
  step.layout = layout;
  step.tokens_per_second_per_gpu =
      load.rate * static_cast<double>(load.output) / static_cast<double>(cluster.gpus);
  const LayoutMemory memory =
      layout_memory(*cluster.gpu, workloads.full_length, layout, std::nullopt);
  step.capacity = requests_held(memory, workloads.full_length, layout);
  if (memory.replica_capacity == 0) {
    step.decode = evaluate_layout(cluster, with_batch(workloads.decode, 1), layout);
    step.limit = ServeLimit::weights;
    return step;
  }
  settle(
      step,
      [&](LoadedStep& at) {
        at.decode = evaluate_layout(cluster, with_batch(workloads.decode, at.batch), layout);
        at.tpot = at.decode.step.latency;
      },
      [&](const LoadedStep& at) {
        return ceil_count(load.rate * static_cast<double>(load.output) * at.tpot.value());
      });
  return step;
}

Json loaded_json(const LoadedStep& step, const Load& load) {
  const auto served = [&](Seconds value) {
    return step.serves() ? json_number(value.value()) : Json();
  };
  return {{"rate_per_second", json_number(load.rate)},
          {"input_tokens", load.input},
          {"output_tokens", load.output},
          {"prefill_chunk", load.prefill_chunk},
          {"prefix_hit", json_number(load.prefix_hit)},
          {"cached_tokens", prefix_cached(load.input, load.prefix_hit, load.prefix_block)},
          {"prefix_block_tokens", load.prefix_block},
          {"batch", step.batch},
          {"capacity", step.capacity},
          {"limit", std::string(to_string(step.limit))},
          {"ttft_seconds", served(step.ttft)},
          {"tpot_seconds", served(step.tpot)},
          {"decode_step_seconds", json_number(step.decode.step.latency.value())},
          {"prefill_seconds", json_number(step.prefill.step.latency.value())},
          {"prefill_share", json_number(step.prefill_share)},
          {"tokens_per_second_per_gpu", json_number(step.tokens_per_second_per_gpu)}};
}

std::string load_limit_reason(const LoadedStep& step, const Load& load) {
  switch (step.limit) {
  case ServeLimit::weights:
    return fmt::format("the weights ({} per GPU) do not fit {} of usable memory",
                       format_bytes(step.decode.memory.weights_per_gpu),
                       format_bytes(step.decode.memory.usable_per_gpu));
  case ServeLimit::memory:
    return fmt::format("{} requests in flight, but memory and the schedulers hold {} at {} "
                       "tokens each",
                       step.batch, step.capacity, load.input + load.output);
  case ServeLimit::saturated:
    return step.prefill_share >= 1
               ? fmt::format("prefill alone needs {:.0f} % of the GPUs' time at {:g} requests/s",
                             step.prefill_share * 100, load.rate)
               : fmt::format("the requests in flight do not settle at {:g} requests/s: each "
                             "one more slows all the others enough to need another",
                             load.rate);
  case ServeLimit::none:
    break;
  }
  return {};
}

} // namespace icx
