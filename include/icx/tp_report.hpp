// Tensor parallelism on each wire: the pass's all-reduce traffic, its time under the
// headline and expected models, the compute it should hide behind, and a verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog.hpp"
#include "icx/compute.hpp"
#include "icx/tensor_parallel.hpp"
#include "icx/topology.hpp"
#include "icx/verdict.hpp"

namespace icx {

/// prefill: one forward pass over B tokens; decode: one step, B sequences of one token each.
enum class Phase { prefill, decode };

std::string_view to_string(Phase phase);

struct TpRequest {
  ActivationShape shape;
  /// The model's heads, which set the group sizes it allows; unknown heads allow any.
  AttentionShape attention;
  /// Parameters; 0 when unknown (a custom model without a count): no compute, no verdict.
  double total_params = 0;
  double active_params = 0;
  /// The model's dtype, for the compute rate.
  const Dtype* dtype = nullptr;
  Phase phase = Phase::prefill;
  /// Prefill: tokens in the pass; decode: sequences in the batch (one token each).
  std::int64_t tokens = 0;
  /// GPUs in the tensor-parallel group; absent: the GPU's scale-up domain.
  std::optional<int> gpus;
  /// The GPU that computes; nullptr: per wire, the GPU whose scale-up link it is.
  const Gpu* gpu = nullptr;
  /// Utilisation of dense peak; absent: the GPU's catalog figure.
  std::optional<double> utilization;
};

struct TpWire {
  const Link* link = nullptr;
  /// Headline time of the pass's traffic (fast and slow end of a bandwidth range).
  Range<Seconds> headline;
  /// Expected-model time of the pass's all-reduces; absent with the reason when the link
  /// has no expected-model parameters.
  std::optional<Seconds> expected;
  std::string expected_unavailable;
  /// The all-reduce size at which the expected model's latency and bandwidth terms match.
  std::optional<Bytes> crossover;
  const Gpu* gpu = nullptr;
  /// The GPU was chosen because its scale-up link is this wire.
  bool gpu_native = false;
  int gpus = 0;
  std::optional<ComputeRate> rate;
  std::optional<Verdict> verdict;
};

struct TpReport {
  TensorParallelTraffic traffic;
  /// One all-reduce's buffer, B·H·b bytes (the nccl-tests message size).
  Bytes message;
  std::vector<TpWire> wires;
};

/// Throws GroupError when a wire's group cannot exist: fewer than two GPUs or a size the
/// model's heads do not allow (tensor_allreduce_problem), more GPUs than the link's domain
/// holds, or a given GPU on a scale-up link it does not have (icx/topology.hpp).
TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                std::span<const Link* const> links);

} // namespace icx
