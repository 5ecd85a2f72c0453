// A collective whose GPUs span several nodes: NCCL's hierarchical algorithms as lines of the
// expected model (the single-link form is at the top of icx/wire/collectives.hpp).
//
// Each node holds g of the group's n GPUs, joined by its scale-up link (per-direction
// bandwidth B_up, the expected model's efficiency e_up), and reaches the other N = n / g nodes
// through k NICs of the scale-out link (one NIC's bandwidth B, efficiency e). A node's NICs
// together carry k·B·e. Every line is latency + bytes at a rate; the fastest runs:
//   ring      NCCL spreads its rings (channels) over the node's NICs, and each ring enters
//             and leaves a node once, so the node's NICs together carry what one GPU's ring
//             link carries: tb = wire_factor · S / min(B_up·e_up, k·B·e). Latency: the
//             ring's steps, of which 2(N−1) for an all-reduce and N−1 for an all-gather or
//             reduce-scatter cross nodes (NCCL's nInterSteps, src/graph/tuning.cc) at the
//             scale-out step latency, the rest at the scale-up one.
//   tree      (all-reduce) a chain through each node's GPUs and a double binary tree between
//             nodes. A GPU of the chain sends and receives 2S, and so do a node's NICs (an
//             inner node of one tree has two children). Latency 2·((g−1)·intra step +
//             ⌈log2 N⌉·inter step), as NCCL's tuner has it.
//   nvls-tree (all-reduce, on a scale-up link with in-network reduction) NVLS inside each
//             node, the tree between nodes. Inside, NCCL's tuner gives NVLSTree the bus
//             bandwidth NVLS has on one node (the same intra bandwidth, algBw = busBw · n /
//             nsteps), so its rate is NVLS's algbw over g GPUs · busbw_factor(g) /
//             busbw_factor(n); between nodes as the tree, except that with two nodes (each
//             the root of one tree and a leaf of the other) the NICs carry S, which NCCL's
//             tuner counts for NVLSTree alone. Latency: NVLS's + 2⌈log2 N⌉ inter steps.
//   all-to-all  each GPU sends (n−g)/n·S to other nodes, so the node's NICs carry
//             g(n−g)/n·S, and (g−1)/n·S over its scale-up link; the slower sets the pace.
//             Latency: g−1 steps inside, n−g across.
//   point-to-point  one rail: one inter-node step and S / (B·e).
// A line that crosses nodes takes the scale-out link's protocol figures: LL runs at
// 1/(1 + its slowdown) of the rate, Simple adds its ramp (the NICs set the pipeline). Across
// nodes the engines' own all-reduce kernels do not run (they need peer memory in one node),
// so NCCL does; SGLang's NVLS-off setting removes nvls-tree.
//
// Typical use (TP 16 over two 8-GPU nodes, one 400G NIC per GPU):
//   Fabric fabric{&catalog.link("nvlink4"), 8, &catalog.link("ib-ndr"), 8};
//   CollectiveCost cost = fabric_collective(fabric, {Collective::all_reduce,
//                                                    Algorithm::automatic, 16, size, {}});
#pragma once

#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx {

/// GPUs spread over nodes: the scale-up link inside a node, NICs of the scale-out link
/// between nodes.
struct Fabric {
  /// Inside a node; unused with one GPU per node.
  const Link* scale_up = nullptr;
  /// The group's GPUs on each node (every node holds as many).
  int gpus_per_node = 1;
  /// One NIC's link.
  const Link* scale_out = nullptr;
  /// NICs the group's GPUs on a node use together.
  int nics_per_node = 1;
  bool operator==(const Fabric&) const = default;
};

/// Nodes a group of `gpus` fills; 1 when it fits in one node. Throws InputError when the
/// group is not a whole number of nodes of the fabric's GPUs per node.
int fabric_nodes(const Fabric& fabric, int gpus);

/// Whether `algorithm` can run `op` over `gpus` GPUs on the fabric at all, whatever the
/// catalog's parameters: nvls across nodes, tree or nvls-tree on one node or for another
/// operation than all-reduce, and nvls-tree without in-network reduction inside the node
/// cannot; check_algorithm's rules inside one node.
Check check_fabric_algorithm(const Fabric& fabric, Collective op, Algorithm algorithm, int gpus);

/// Whether the expected model can price `algorithm` for `gpus` GPUs on the fabric; when it
/// cannot, the reason (a link without expected-model parameters, nvls across nodes, nvls-tree
/// without in-network reduction inside the node, tree or nvls-tree on one node).
Check check_fabric(const Fabric& fabric, Collective op, Algorithm algorithm, int gpus);

/// The lines that may run `request` across nodes with `scale_out_model` in place of the
/// scale-out link's parameters (the scale-up link's own, with its topology, price the hops
/// inside a node). Throws InputError as fabric_collective does; for a group inside one node
/// these are the scale-up link's own lines (expected_lines).
std::vector<ExpectedLine> fabric_lines(const Fabric& fabric, const ExpectedModel& scale_out_model,
                                       const CollectiveRequest& request);

/// The expected cost of `request` on the fabric (the fastest line, with the kernel that ran
/// and the scale-up topology assumed): expected_collective on the scale-up link when the
/// group fits in one node. Throws InputError with check_fabric's reason, for a group that is
/// not whole nodes, and as expected_collective does.
CollectiveCost fabric_collective(const Fabric& fabric, const CollectiveRequest& request);

/// The latency and bandwidth terms of the line that runs `request`.
ExpectedTerms fabric_terms(const Fabric& fabric, const CollectiveRequest& request);

/// The expected time with `scale_out_model` in place of the scale-out link's parameters (used
/// when fitting a multi-node log).
Seconds fabric_time(const Fabric& fabric, const ExpectedModel& scale_out_model,
                    const CollectiveRequest& request);

/// Headline model across nodes: the expected model's own algorithms (ring, tree, NVLS-tree,
/// as fabric_lines chooses them) over every NIC of the node, each link at its full vendor
/// figure each way, no latency and no protocol loss: a lower bound on fabric_collective's
/// time. Inside one node, headline_collective on the scale-up link.
CollectiveCost fabric_headline(const Fabric& fabric, const CollectiveRequest& request);

} // namespace icx
