// Expert parallelism as serving engines run it. Per MoE layer each GPU of an expert group
// dispatches its own T tokens (data-parallel attention: every rank holds its own sequences)
// to the GPUs holding their top-k routed experts, and a combine brings the weighted expert
// outputs back the same way. Three kernels do it:
//   normal       DeepEP's high-throughput kernels (prefill): a token crosses the network once
//                per destination node, to the GPU on its own rail there, which forwards it
//                over NVLink to every GPU of that node holding one of its experts. Per GPU:
//                network T·D_n·(1 − 1/N)·b, NVLink T·D_r·(1 − 1/g)·b.
//   low-latency  DeepEP's low-latency kernels (decode): one copy per chosen expert, straight
//                to its GPU, over the network or over NVLink inside the node. Per GPU:
//                network T·k·(1 − g/n)·b, NVLink T·k·(g − 1)/n·b.
//   nccl         an all-to-all of the k copies (NCCL's, as engines without DeepEP run it):
//                the expected model's all-to-all across nodes (icx/wire/fabric.hpp) on T·k·b.
// n GPUs in the group, g of them per node, N = n/g nodes; D_n and D_r are the distinct nodes
// and GPUs one token's k experts lie on (expected values, from the routing); b is the bytes
// per token: the dispatch's dtype (FP8 with one 4-byte scale per 128 elements, as DeepSeek-V3
// quantises activations) or the combine's (BF16).
// Expected time: latency + the slower of network bytes at each GPU's share of its node's
// NICs (k_nic·B/g) and NVLink bytes at B_up, each at the kernel's efficiency on that link
// (ExpertParallelKernels in the catalog, fitted to DeepEP's published H800 runs by
// tools/fit/fit_ep_kernels.py); a link without such figures uses its NCCL efficiency and
// step latency. The headline model: the same bytes at the vendor bandwidths, no latency.
// The busiest GPU carries `skew` times the mean (uniform routing: 1).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/fabric.hpp"

namespace icx {

enum class EpMode { normal, low_latency, nccl };

/// DeepSeek-V3's FP8 activations carry one FP32 scale per 1×128 tile (its technical report,
/// section 3.3.2); DeepEP's FP8 dispatch sends them beside the values.
constexpr int fp8_elements_per_scale = 128;
constexpr int fp8_scale_bytes = 4;

constexpr std::array<EnumName<EpMode>, 3> enum_names(EpMode /*unused*/) {
  return {
      {{EpMode::normal, "normal"}, {EpMode::low_latency, "low-latency"}, {EpMode::nccl, "nccl"}}};
}

/// Routing assumptions icx cannot know from the model alone.
struct EpRouting {
  /// Each token's experts lie on at most this many nodes (DeepEP's node-limited routing);
  /// 0: as the model's group limit and the experts' placement imply.
  int max_nodes_per_token = 0;
  /// The busiest GPU receives and sends this multiple of the mean (hot experts); 1: uniform.
  double skew = 1;
  /// Extra replicas of hot experts spread over the group (DeepSeek's EPLB): more weights per
  /// GPU and a group size that need only divide experts + redundant; traffic unchanged.
  int redundant_experts = 0;
};

/// What one token's routing implies for a group.
struct EpDestinations {
  /// Expected distinct nodes and GPUs one token's experts lie on (its own included).
  double nodes = 0;
  double gpus = 0;
  /// The most nodes one token can reach.
  int max_nodes = 0;
  /// Expert groups a token chooses from and how many it may pick (1 and 1: no limit).
  int groups = 1;
  int groups_per_token = 1;
  /// Where the limit comes from: "model" (its expert groups), "flag" (max_nodes_per_token)
  /// or "none".
  std::string limit;
};

/// One kernel's bytes per GPU (the busiest, skew included) and its time.
struct EpKernelCost {
  /// Copies of each of its tokens the busiest GPU sends to other nodes and inside its node
  /// (skew not included): network = bytes/token · tokens/GPU · skew · network_copies.
  double network_copies = 0;
  double scale_up_copies = 0;
  Bytes network;
  Bytes scale_up;
  Seconds headline;
  /// Absent when a link the bytes cross has no expected model.
  std::optional<Seconds> expected;
  /// The kernel figures came from the link's NCCL parameters (no published EP figures).
  bool nccl_figures = false;
  [[nodiscard]] Bytes bytes() const { return network + scale_up; }
};

struct EpRequest {
  const Model* model = nullptr;
  /// The group's GPUs per node and the node's NICs the group uses; one node: scale_out unused.
  Fabric fabric;
  int gpus = 0;
  double tokens_per_gpu = 0;
  EpMode mode = EpMode::normal;
  const Dtype* dispatch_dtype = nullptr;
  const Dtype* combine_dtype = nullptr;
  EpRouting routing;
};

struct EpLayerCost {
  EpDestinations destinations;
  /// Bytes per token of each kernel.
  Bytes dispatch_token;
  Bytes combine_token;
  EpKernelCost dispatch;
  EpKernelCost combine;
  /// Dispatch plus combine over `layers` MoE layers: bytes per GPU, headline time, and the
  /// expected time when both kernels have one.
  [[nodiscard]] Bytes bytes(int layers) const;
  [[nodiscard]] Seconds headline(int layers) const;
  [[nodiscard]] std::optional<Seconds> expected(int layers) const;
};

/// Whether a group of `gpus` GPUs holds the routed experts and `redundant_experts` replicas in
/// equal shares.
bool divides_experts(const Model& model, int gpus, int redundant_experts);

/// What runs `mode`, in words: "DeepEP's low-latency kernels".
std::string ep_mode_text(EpMode mode);

/// The routing assumptions that differ from uniform routing, each after ", ": ", the
/// busiest GPU at 1.3× the mean, 32 redundant experts"; empty for the defaults.
std::string ep_routing_text(const EpRouting& routing);

/// Bytes one token's hidden state takes in `dtype`: hidden · bytes, plus for a one-byte
/// dtype one 4-byte scale per 128 elements (DeepSeek-V3's fine-grained FP8 activations).
Bytes ep_token_bytes(int hidden, const Dtype& dtype);

/// The routing's consequences for a group of `gpus` GPUs, `gpus_per_node` on each node,
/// holding the model's routed experts in equal contiguous blocks.
EpDestinations ep_destinations(const Model& model, int gpus, int gpus_per_node,
                               const EpRouting& routing);

/// Why an expert group cannot be priced, or nothing: a dense model, a group that does not
/// divide experts + redundant experts, a group that is not whole nodes, a skew below 1.
Check check_ep(const EpRequest& request);

/// Dispatch and combine of one MoE layer on every GPU of the group. Throws InputError with
/// check_ep's reason.
EpLayerCost ep_layer_cost(const EpRequest& request);

} // namespace icx
