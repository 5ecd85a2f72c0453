// Serving a steady load on one layout: requests arrive at a rate, each with a prompt and an
// output length; how many are in flight, and the TTFT and TPOT each sees while prefills and
// decodes share the same GPUs (continuous batching with chunked prefill).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "icx/base/enum_names.hpp"
#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/step_model.hpp"

namespace icx {

/// A steady load: Poisson arrivals at `rate` requests per second over the whole cluster, each
/// with `input` prompt tokens and `output` generated tokens.
struct Load {
  double rate = 0;
  std::int64_t input = 0;
  std::int64_t output = 0;
  /// Prompt tokens one step prefills beside its decodes (chunked prefill); the engine's
  /// scheduler tier gives the default (icx/serving/engine.hpp).
  std::int64_t prefill_chunk = 0;
  /// Fraction of each prompt the engine finds in its prefix cache (vLLM's automatic prefix
  /// caching, SGLang's radix cache): a shared system prompt, an earlier turn of the chat.
  double prefix_hit = 0;
  /// Tokens per block of the engine's prefix cache: it finds whole blocks only (the engine's
  /// catalog entry, icx/catalog/engine.hpp).
  std::int64_t prefix_block = 1;
  /// When the engine's scheduler takes a request's KV cache (its catalog entry).
  KvAdmission kv_admission = KvAdmission::on_demand;
};

/// The three workloads a load needs from one request: one prompt's prefill, a decode step at
/// the mean context (prompt + half the output), and a decode step at the full length (what
/// the KV cache must hold).
struct LoadWorkloads {
  Workload prefill;
  Workload decode;
  Workload full_length;
};

/// Engine schedulers of a layout: one per replica, and with data-parallel attention one per
/// rank of an expert group (step_batch).
std::int64_t schedulers(const Layout& layout);

/// `workload` at `batch` sequences in flight across the cluster.
Workload with_batch(Workload workload, std::int64_t batch);

LoadWorkloads load_workloads(const Catalog& catalog, const Model& model, const Dtype& dtype,
                             const Gpu& gpu, ServingRequest request, const Load& load);

/// What stops a layout from serving the load at all.
enum class ServeLimit {
  none,
  /// The weights alone do not fit the GPUs' memory.
  weights,
  /// The requests in flight need more KV cache than memory holds, or more sequences than the
  /// engine schedules (--max-batch).
  memory,
  /// Prefill alone needs all of the GPUs' time (or the requests in flight never settle).
  saturated,
};

constexpr std::array<EnumName<ServeLimit>, 4> enum_names(ServeLimit /*unused*/) {
  return {{{ServeLimit::none, "none"},
           {ServeLimit::weights, "weights"},
           {ServeLimit::memory, "memory"},
           {ServeLimit::saturated, "saturated"}}};
}

struct LoadedStep {
  Layout layout;
  /// Requests in flight over the cluster (Little's law): rate × (TTFT + output × TPOT); the
  /// decode batch the step model runs.
  std::int64_t batch = 0;
  /// Requests the cluster's memory and schedulers hold at their full length.
  std::int64_t capacity = 0;
  /// One prompt per replica, alone on the GPUs.
  Placement prefill;
  /// One decode step at `batch`, at the mean context.
  Placement decode;
  /// Fraction of each replica's time its prefills take: rate per replica × a prompt's stage
  /// time (a pipeline starts a prompt every stage time).
  double prefill_share = 0;
  /// The engine's own prompt pass (EngineCosts::prefill_step) in each step after the first
  /// that a chunked prompt takes: the prefill above holds it once.
  Seconds further_passes;
  /// One prompt's service: its prefill plus the decode steps its chunks ride with.
  Seconds prefill_service;
  /// Waiting for the prompts ahead (M/D/1) plus the service.
  Seconds ttft;
  /// The decode step stretched by the prefill chunks that share its GPUs.
  Seconds tpot;
  /// Output tokens per second per GPU at the load.
  double tokens_per_second_per_gpu = 0;
  /// A prefill pool of a disaggregated deployment: sending one prompt's KV cache to the
  /// decode pool (part of TTFT); zero when both phases share the GPUs.
  Seconds kv_transfer;
  ServeLimit limit = ServeLimit::none;
  [[nodiscard]] bool serves() const { return limit == ServeLimit::none; }
};

/// Serves `load` on `layout`. With `batch`, the requests in flight are that many (what a
/// plan found, checked by icx place); without, the least fixed point of Little's law from
/// one request per replica. Throws InputError as evaluate_layout does.
LoadedStep serve_at_load(const Cluster& cluster, const LoadWorkloads& workloads,
                         const Layout& layout, const Load& load,
                         std::optional<std::int64_t> batch = std::nullopt);

/// A closed loop of `clients` by the closed form: they keep that many requests in flight, and
/// send at the rate Little's law gives, clients / (TTFT + output × TPOT), found by bisection
/// to half a percent (rate × that latency grows with the rate).
LoadedStep serve_clients(const Cluster& cluster, const LoadWorkloads& workloads,
                         const Layout& layout, const Load& load, std::int64_t clients);

/// The wire a prompt's KV cache crosses from the prefill pool to the decode pool.
enum class KvRoute {
  /// The pools are on different nodes: the scale-out link, each GPU over its share of the
  /// node's NICs.
  between_nodes,
  /// Both pools inside one scale-up domain (one node, or one NVL72 rack): the scale-up link.
  scale_up,
  /// Both pools in one node but in different scale-up domains (NVLink-bridged pairs or
  /// quads): the link between the node's domains (PCIe).
  between_domains,
};

constexpr std::array<EnumName<KvRoute>, 3> enum_names(KvRoute /*unused*/) {
  return {{{KvRoute::between_nodes, "between_nodes"},
           {KvRoute::scale_up, "scale_up"},
           {KvRoute::between_domains, "between_domains"}}};
}

/// The link `route` crosses in `cluster`: its scale-out link, its scale-up link, or the link
/// between its domains (the scale-out link when the node has none).
const Link& kv_link(const Cluster& cluster, KvRoute route);

/// Prefill/decode disaggregation (vLLM's and SGLang's PD split, NVIDIA Dynamo): prompts are
/// prefilled on one pool of GPUs and their KV cache sent over `route` to another that only
/// decodes. The prefill pool's step: TTFT = M/D/1 over the prompts' prefill alone, plus the KV
/// transfer, each GPU sending its shard of the cache (its tensor and pipeline part): between
/// nodes over its share of the node's NICs, inside a node over its own scale-up (or PCIe)
/// link, the receiving GPU taken to take it at that rate; requests in flight there = rate ×
/// TTFT.
LoadedStep serve_prefill_pool(const Cluster& cluster, const LoadWorkloads& workloads,
                              const Layout& layout, const Load& load, const RunSetup& setup,
                              KvRoute route);

/// The decode pool's step: requests in flight = rate × output × TPOT (Little's law over the
/// decode alone), TPOT = the decode step at that batch, no prefill sharing its GPUs.
LoadedStep serve_decode_pool(const Cluster& cluster, const LoadWorkloads& workloads,
                             const Layout& layout, const Load& load);

/// {rate_per_second, input_tokens, output_tokens, prefill_chunk, prefix_hit, cached_tokens,
/// batch, capacity, limit,
/// ttft_seconds, tpot_seconds (null when the load is not served), decode_step_seconds,
/// prefill_seconds, prefill_share, tokens_per_second_per_gpu}.
Json loaded_json(const LoadedStep& step, const Load& load);

/// Why a step does not serve the load, or what limits it: one clause.
std::string load_limit_reason(const LoadedStep& step, const Load& load);

} // namespace icx
