// Tensor parallelism on each wire: the pass's all-reduce traffic, its time under the
// headline and expected models, the compute it should hide behind, a verdict and its reason,
// the legends that say how each column was computed, and the --explain derivations.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/derivation.hpp"
#include "icx/base/enum_names.hpp"
#include "icx/base/expected.hpp"
#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/serving/compute.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/serving/serving.hpp"
#include "icx/wire/tensor_parallel.hpp"
#include "icx/wire/verdict.hpp"

namespace icx {

struct TpRequest {
  /// Echoed in the report: the model's id and the fields the user replaced.
  std::string model_id;
  std::vector<std::string> overridden;
  /// The model as resolved, for the step model behind the verdicts.
  const Model* model = nullptr;
  /// Hidden size, layers and the activations' bytes per element (what crosses the wire).
  ActivationShape shape;
  /// The model's heads, which set the group sizes it allows; unknown heads allow any.
  AttentionShape attention;
  /// Parameters; 0 when unknown (a custom model without a count): no step, no verdict.
  double total_params = 0;
  double active_params = 0;
  /// The weights' dtype, for the compute rate.
  const Dtype* dtype = nullptr;
  /// The pass: phase, prompt tokens (prefill), batch and context (decode), dtypes, overlap,
  /// the objective the verdict compares layouts by.
  ServingRequest serving;
  /// GPUs in the tensor-parallel group; absent: the GPU's scale-up domain.
  std::optional<int> gpus;
  /// The GPU that computes; nullptr: per wire, the GPU whose scale-up link it is.
  const Gpu* gpu = nullptr;
  [[nodiscard]] Phase phase() const { return serving.phase; }
  /// Tokens in the pass's activations: the prompt (prefill) or one per sequence (decode).
  [[nodiscard]] std::int64_t tokens() const;
};

/// A request for `model` with weights in `dtype` and activations in `act_dtype`: its id,
/// shape, heads and parameters; the pass, the group and the GPU are left to fill.
TpRequest tp_request_for(const Model& model, const Dtype& dtype, const Dtype& act_dtype);

struct TpWire {
  const Link* link = nullptr;
  /// Headline time of the pass's traffic (fast and slow end of a bandwidth range).
  Range<Seconds> headline;
  /// Expected-model time of the pass's all-reduces, or why the link has none (no
  /// expected-model parameters).
  Expected<Seconds> expected = unexpected("the expected model was not computed");
  /// The all-reduce size at which the expected model's latency and bandwidth terms match.
  std::optional<Bytes> crossover;
  /// With an expected time: the line that runs one all-reduce (NCCL's algorithm/protocol or
  /// the engine's kernel), and the link topology assumed (PCIe; nullptr elsewhere).
  std::optional<Kernel> kernel;
  const LinkTopology* topology = nullptr;
  const Gpu* gpu = nullptr;
  /// The GPU was chosen because its scale-up link is this wire.
  bool gpu_native = false;
  int gpus = 0;
  std::optional<ComputeRate> rate;
  /// How its operations are priced (icx/words/verdict.hpp describe_pricing); empty when not
  /// stepped.
  std::string pricing;
  /// The tensor group as a layout of its GPUs on this wire, stepped and judged against every
  /// other layout of the same GPUs (icx/serving/ranking.hpp); absent without a parameter count.
  std::optional<RankedLayout> judged;
  /// The placement of the layout its verdict names (the best one), which its reason quotes.
  std::optional<Placement> compared;
  /// Its place among them (1 = best) and how many there are.
  std::size_t rank = 0;
  std::size_t layouts = 0;
};

/// A link the group cannot use, and why (icx/catalog/group_rules.hpp).
struct SkippedWire {
  const Link* link = nullptr;
  std::string reason;
};

struct WireChoice {
  std::vector<const Link*> usable;
  std::vector<SkippedWire> skipped;
};

/// The links of `links` a group of `gpus` GPUs (absent: the domain) of `gpu` (nullptr: the
/// link's own GPU) can use, and the others with the reason (group_link_problem).
WireChoice wires_for_group(const Gpu* gpu, std::optional<int> gpus,
                           std::span<const Link* const> links);

/// One row of the traffic table: "per layer", 268 MB, "2 all-reduces".
struct TpTrafficTerm {
  std::string quantity;
  Bytes bytes;
  /// What it is made of.
  std::string from;
};

/// What each column means and what was assumed, from the report's own figures.
struct TpLegend {
  /// Wires without expected-model parameters, by id.
  std::vector<std::string> no_expected_model;
  /// Per wire with an expected time, what ran one all-reduce: "nvlink4 one-shot",
  /// "pcie5 ring/Simple over dual-socket PCIe (the ring crosses the CPUs' socket link)".
  std::vector<std::string> ran;
  /// GPUs that compute on a wire that is not their scale-up link, each once.
  std::vector<std::string> assumed_gpus;
  /// Each distinct pricing of the stepped wires' GPUs (describe_pricing).
  std::vector<std::string> assumed_rates;
  /// The legend as printed under the wires: "headline = …", "expected = …", "crossover = …",
  /// then "compute = …" and the verdict thresholds (or what a verdict needs).
  std::vector<std::string> lines;
  /// The same in a line or two each, for a table without --explain.
  std::vector<std::string> short_lines;
};

struct TpReport {
  TpRequest request;
  TensorParallelTraffic traffic;
  /// One all-reduce's buffer, B·H·b bytes (the nccl-tests message size).
  Bytes message;
  /// Per all-reduce, per layer, per pass.
  std::vector<TpTrafficTerm> traffic_terms;
  std::vector<TpWire> wires;
  /// Links of an implicit "every link" list the group cannot use.
  std::vector<SkippedWire> skipped;
  TpLegend legend;
  Derivations derivations;
  /// Some wire has a verdict (the model's parameter count is known).
  [[nodiscard]] bool judged() const;
};

/// Throws GroupError when a wire's group cannot exist: fewer than two GPUs or a size the
/// model's heads do not allow (check_tensor_allreduce), more GPUs than the link's domain
/// holds, or a given GPU on a scale-up link it does not have (icx/catalog/group_rules.hpp).
TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                std::span<const Link* const> links);

/// The report's figures only (traffic, wires, their times, steps and verdicts), without the
/// text a single report prints (reasons, traffic terms, legend, derivations): what a sweep needs at
/// each point. Throws as tensor_parallel_report does.
TpReport tensor_parallel_figures(const Catalog& catalog, const TpRequest& request,
                                 std::span<const Link* const> links);

/// The same over `wires.usable`, listing `wires.skipped` in the report.
TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                const WireChoice& wires);

/// The "icx.tp/2" document: phase, model, tokens, traffic, wires, skipped_wires.
void to_json(Json& json, const TpReport& report);

} // namespace icx
