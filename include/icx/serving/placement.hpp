// Placement: which split of a model goes on which wire of a cluster, and whether that is a
// good idea.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/wire/fabric.hpp"
#include "icx/wire/strategies.hpp"
#include "icx/wire/verdict.hpp"

namespace icx {

struct Cluster {
  const Gpu* gpu = nullptr;
  int gpus = 0;
  int gpus_per_node = 0;
  /// GPUs per scale-up (NVLink) domain; groups inside one domain talk over `scale_up`.
  int domain = 0;
  const Link* scale_up = nullptr;
  /// Between domains (one NIC's link); unused when the cluster is a single domain.
  const Link* scale_out = nullptr;
  /// Scale-out NICs per node, which NCCL spreads a group's channels over.
  int nics_per_node = 1;
  /// Between the scale-up domains of one node when a node holds several (PCIe between
  /// NVLink-bridged pairs); nullptr: `scale_out` joins them as it joins nodes.
  const Link* between_domains = nullptr;
};

/// The fabric a group of `members` GPUs spread over `span` consecutive ranks crosses when it
/// leaves its scale-up domain: its members in each domain (members · domain / span) on the
/// scale-up link, and its share of the domain's NICs. Assumption: the groups that share a
/// node use its NICs at once, so a group gets them in proportion to its GPUs there (one rail
/// per GPU on a node with a NIC per GPU), at least one.
Fabric group_fabric(const Cluster& cluster, int members, int span);

/// The part of a cluster a contradiction lies in.
enum class ClusterPart { scale_up, scale_out };

struct ClusterProblem {
  ClusterPart part = ClusterPart::scale_up;
  std::string reason;
};

/// Why the parts of `cluster` contradict each other, or nothing (icx/catalog/group_rules.hpp): the
/// GPU on a scale-up link it does not have, more GPUs in a domain than its link joins, or a link
/// other than a scale-out link between separate domains. `catalog_domain` is the GPUs the
/// catalog puts in one scale-up domain (`domain_from` names the entry); `links` gives the
/// scale-out links to suggest.
std::optional<ClusterProblem> cluster_problem(const Cluster& cluster, int catalog_domain,
                                              std::string_view domain_from,
                                              std::span<const Link> links);

struct StrategyCost {
  Strategy strategy = Strategy::data;
  int degree = 1;
  /// The wire the split's traffic crosses; nullptr when nothing crosses a wire.
  const Link* wire = nullptr;
  /// Per GPU, one pass of the busiest stage (the pipeline: all its sends).
  Bytes bytes;
  /// Headline time of that traffic on `wire`.
  Seconds seconds;
  /// Expected-model time on `wire`, where the link has expected-model parameters.
  std::optional<Seconds> expected_seconds;
  /// The group spans scale-up domains, so its traffic leaves the NVLink domain.
  bool crosses_domain = false;
  /// What the same traffic would take on the scale-up link (meaningful when crossing); absent
  /// when the group is larger than the scale-up link can join in one domain.
  std::optional<Seconds> seconds_on_scale_up;
  /// The pipeline's slowest single send (the judged time of one boundary); zero otherwise.
  Seconds slowest_send;
  Verdict verdict;
};

/// One pass of the phase through the layout: the busiest stage's work and collectives, the
/// pipeline's sends, and what a request and the cluster see.
struct StepTime {
  StepBatch batch;
  StageWork work;
  /// The stage's tensor and expert collectives, and the part of them not hidden (--overlap).
  Seconds comm;
  Seconds exposed_comm;
  /// The engine's gaps between the stage's layers (EngineCosts::layer × its layers).
  Seconds layer_gaps;
  /// The engine's prefill pass over the operations priced by measured kernel curves, and its
  /// prompt scale over a prefill's operations and collectives (each 1 in decode;
  /// EngineCosts::prefill_pass_scale, EngineCosts::prompt_scale).
  double pass_scale = 1;
  double prompt_scale = 1;
  /// (The operations one after another, their measured part × pass_scale, + exposed
  /// communication) × prompt_scale + the layer gaps of one stage.
  Seconds stage;
  /// The activation sends between stages along one micro-batch's path.
  Seconds pipeline;
  /// The engine's own time in the step (EngineCosts::step), once per pass through the stages.
  Seconds engine;
  /// Speculative decoding: the drafts proposed before the pass (draft_tokens × one decoder
  /// layer and the LM head at one token per sequence), and the tokens the step emits per
  /// sequence (the acceptance; 1 without speculation).
  Seconds draft;
  double emitted = 1;
  /// Prefill: the engine's time per request outside the GPUs' steps (EngineCosts::request).
  Seconds request;
  /// What a request sees, TTFT or TPOT: the stages one after another plus their sends, the
  /// engine's step (and the drafts), over the tokens emitted; for a prefill, plus its
  /// per-request time.
  Seconds latency;
  /// Tokens the cluster produces (decode) or prefills per second, per GPU: with one
  /// micro-batch per stage in flight, one micro-batch leaves the pipeline every stage time
  /// plus the slowest send (a stage's GPUs send its activations before the next micro-batch).
  double tokens_per_second_per_gpu = 0;
  /// The latency less the per-request time: how long the step holds the GPUs.
  [[nodiscard]] Seconds busy() const { return latency - request; }
};

/// The stage's exposed tensor and expert collectives as a share of the stage (0 without a
/// stage): what a layout's communication verdict weighs.
double stage_comm_share(const StepTime& step);

/// The part of a step's busy time its attention takes: the stage's attention term as the stage
/// runs it (the engine's pass and prompt scales) over `stages` pipeline stages in turn.
Seconds attention_busy(const StepTime& step, int stages);

struct Placement {
  Layout layout;
  /// Every weight, total params × bytes per element.
  Bytes weights;
  LayoutMemory memory;
  StepTime step;
  std::vector<StrategyCost> strategies;
  /// The worst split's level (avoid when a split breaks the placement rule); the layout's
  /// own verdict, relative to the others, is judge_layout's (icx/serving/ranking.hpp).
  Level level = Level::ok;
  [[nodiscard]] bool fits() const { return memory.fits(); }
};

/// Traffic, wire, time and verdict of each split of `layout`, and the step they make. Throws
/// InputError when the layout's product is not the cluster's GPU count, it uses expert
/// parallelism on a dense model, its tensor degree does not split the heads, or it has more
/// stages than layers.
Placement evaluate_layout(const Cluster& cluster, const Workload& workload, const Layout& layout);

} // namespace icx
