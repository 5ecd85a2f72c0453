// Collective operations over n GPUs on one link, under both cost models.
//
// Headline (the textbook arithmetic made exact): an all-reduce of an S-byte buffer over n
// GPUs moves 2(n-1)/n · S bytes per GPU (the textbook's ~2·S), an all-gather, reduce-scatter
// or all-to-all (n-1)/n · S, at the link's headline (vendor) bandwidth, a send S at its
// one-way figure; no latency. The headline busbw is the vendor's figure, and the time a lower
// bound on the expected one.
//
// Expected (what an nccl-tests run shows), for a link whose catalog entry has an
// "expected" object (ExpectedModel in catalog.hpp). It has the form of NCCL's own tuning
// model (src/graph/tuning.cc): each algorithm and protocol is a line, latency + bytes at a
// bandwidth, and the fastest line at each size is the one that runs:
//   ring/LL      t = steps · step latency + (1 + slowdown) · tb
//   ring/Simple  t = steps · step latency + ramp + tb
//   nvls/Simple  t = nvls latency + tb, with the in-network efficiency and wire factor
//   tb = wire_factor · S / (per-direction bandwidth · efficiency)   (the bandwidth term)
// LL (low latency) pays no pipeline but moves data at 1/(1 + slowdown) of the Simple rate
// (NCCL's LL sends a flag with every 8 bytes: half the rate); Simple pays the pipeline's
// fill and drain, `ramp`. Algorithm::automatic takes the fastest of every line the link
// has, as NCCL's tuner does; ring or nvls restricts the choice to that algorithm.
//   ring all-reduce: 2(n-1) steps, wire factor 2(n-1)/n
//   all-gather, reduce-scatter: n-1 steps, (n-1)/n      all-to-all: n-1 steps, (n-1)/n
//   point-to-point: 1 step, 1
//   nvls (all-reduce, reduce-scatter, all-gather): the larger of the bytes a GPU sends to and
//   receives from the switch per byte of S (in_network_traffic), 1 for each of the three
// A serving engine's own all-reduce kernels (Implementation) are lines of the same form
// (engine_wire_factor); a link topology (PCIe) replaces the efficiency and step latency.
// Reported as nccl-tests does (doc/PERFORMANCE.md): algbw = S / time, busbw = algbw ·
// busbw_factor (all-reduce 2(n-1)/n for every algorithm, as all_reduce_perf prints it, so
// NVLS busbw can exceed the ring's per-direction ceiling; all-gather, reduce-scatter,
// all-to-all (n-1)/n; point-to-point 1).
//
// Typical use (tensor parallelism: one all-reduce of the activations per sublayer):
//   CollectiveRequest request{Collective::all_reduce, Algorithm::automatic, 8, Bytes::of(s)};
//   CollectiveCost headline = headline_collective(link, request);
//   if (const Check check = check_expected_model(link, request.algorithm); check) {
//     CollectiveCost expected = expected_collective(link, request);  // expected.kernel: what ran
//     Bytes crossover = *crossover_size(link, request);  // latency term == bandwidth term
//   } else {
//     std::string why = check.reason();
//   }
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/enum_names.hpp"
#include "icx/base/expected.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/group_rules.hpp"

namespace icx {

enum class Collective { all_reduce, all_gather, reduce_scatter, all_to_all, point_to_point };

/// automatic: the fastest algorithm the link has, as NCCL's tuner picks; ring: NCCL's ring
/// algorithm; nvls: in-network reduction on NVSwitch (NVLink SHARP), for the operations
/// in_network_traffic serves. Between nodes (icx/wire/fabric.hpp) NCCL also runs tree (a chain in
/// each node, a double binary tree between nodes) and nvls-tree (NVLS in each node, the tree
/// between nodes), for all-reduce.
enum class Algorithm { automatic, ring, nvls, tree, nvls_tree };

/// NCCL's protocols: LL (low latency, half rate) and Simple (full rate, pipelined).
enum class Protocol { ll, simple };

/// Who performs an all-reduce: NCCL (as nccl-tests runs it), a serving engine's own kernels
/// (custom: one-shot or two-shot over P2P, the faster, or either by name; multimem:
/// symmetric-memory multicast on NVSwitch), or an engine's dispatch between them by size
/// (vllm, sglang). Other operations always run in NCCL.
enum class Implementation { nccl, custom, one_shot, two_shot, multimem, vllm, sglang };

/// What priced an expected time: one NCCL algorithm/protocol line or one engine kernel.
enum class Kernel {
  ring_ll,
  ring_simple,
  nvls_simple,
  tree_ll,
  tree_simple,
  nvls_tree_simple,
  one_shot,
  two_shot,
  multimem
};

/// nccl-tests calls point-to-point "sendrecv".
constexpr std::array<EnumName<Collective>, 7> enum_names(Collective /*unused*/) {
  return {{{Collective::all_reduce, "all-reduce"},
           {Collective::all_gather, "all-gather"},
           {Collective::reduce_scatter, "reduce-scatter"},
           {Collective::all_to_all, "all-to-all"},
           {Collective::point_to_point, "point-to-point"},
           {Collective::point_to_point, "sendrecv"},
           {Collective::point_to_point, "p2p"}}};
}

constexpr std::array<EnumName<Algorithm>, 5> enum_names(Algorithm /*unused*/) {
  return {{{Algorithm::automatic, "auto"},
           {Algorithm::ring, "ring"},
           {Algorithm::nvls, "nvls"},
           {Algorithm::tree, "tree"},
           {Algorithm::nvls_tree, "nvls-tree"}}};
}

constexpr std::array<EnumName<Protocol>, 2> enum_names(Protocol /*unused*/) {
  return {{{Protocol::ll, "LL"}, {Protocol::simple, "Simple"}}};
}

constexpr std::array<EnumName<Implementation>, 7> enum_names(Implementation /*unused*/) {
  return {{{Implementation::nccl, "nccl"},
           {Implementation::custom, "custom"},
           {Implementation::one_shot, "one-shot"},
           {Implementation::two_shot, "two-shot"},
           {Implementation::multimem, "multimem"},
           {Implementation::vllm, "vllm"},
           {Implementation::sglang, "sglang"}}};
}

constexpr std::array<EnumName<Kernel>, 9> enum_names(Kernel /*unused*/) {
  return {{{Kernel::ring_ll, "ring/LL"},
           {Kernel::ring_simple, "ring/Simple"},
           {Kernel::nvls_simple, "nvls/Simple"},
           {Kernel::tree_ll, "tree/LL"},
           {Kernel::tree_simple, "tree/Simple"},
           {Kernel::nvls_tree_simple, "nvls-tree/Simple"},
           {Kernel::one_shot, "one-shot"},
           {Kernel::two_shot, "two-shot"},
           {Kernel::multimem, "multimem"}}};
}

/// One sentence on what `implementation` runs: "vLLM's dispatch: …".
std::string implementation_text(Implementation implementation);

/// The algorithm a kernel belongs to ("one-shot" for an engine kernel); its protocol, absent
/// for an engine kernel.
std::string_view kernel_algorithm(Kernel kernel);
std::optional<Protocol> kernel_protocol(Kernel kernel);

inline constexpr std::array all_collectives{Collective::all_reduce, Collective::all_gather,
                                            Collective::reduce_scatter, Collective::all_to_all,
                                            Collective::point_to_point};
inline constexpr std::array all_algorithms{Algorithm::automatic, Algorithm::ring, Algorithm::nvls,
                                           Algorithm::tree, Algorithm::nvls_tree};

/// Whether `algorithm` runs only between nodes (tree, nvls-tree).
constexpr bool spans_nodes(Algorithm algorithm) {
  return algorithm == Algorithm::tree || algorithm == Algorithm::nvls_tree;
}

/// The operation by name ("all-reduce", "all_reduce", "allreduce" …, case-insensitive).
std::optional<Collective> collective_from_name(std::string_view name);
std::optional<Algorithm> algorithm_from_name(std::string_view name);
std::optional<Implementation> implementation_from_name(std::string_view name);

/// What the expected model assumes about who runs a collective and over which topology.
struct RunSetup {
  /// Who runs an all-reduce.
  Implementation implementation = Implementation::nccl;
  /// The link topology (LinkTopology id); empty: the link's default for the group size.
  /// Ignored on a link without topologies.
  std::string topology;
  /// Time a ring spends per step beyond the link's expected model (a GPU's --tuning): the
  /// serving software's own synchronisation, which grows with the group.
  Seconds ring_step;
};

struct CollectiveRequest {
  Collective op = Collective::all_reduce;
  Algorithm algorithm = Algorithm::automatic;
  /// GPUs taking part, at least min_collective_gpus.
  int gpus = min_collective_gpus;
  /// The nccl-tests message size S: the buffer being reduced or gathered, not the wire bytes.
  Bytes size;
  /// The expected model's assumptions.
  RunSetup setup;
};

/// Time of one operation and the two nccl-tests bandwidths.
struct CollectiveCost {
  Seconds time;
  /// S / time.
  BytesPerSecond algbw;
  /// algbw · busbw_factor(op, gpus).
  BytesPerSecond busbw;
  /// Expected model only: the line that ran, and the link topology it assumed (none on a
  /// link without topologies).
  std::optional<Kernel> kernel;
  const LinkTopology* topology = nullptr;
};

/// nccl-tests' bus-bandwidth factor of an operation over `gpus` GPUs.
double busbw_factor(Collective op, int gpus);
/// Bytes each GPU sends (and receives) per byte of S in its busier direction.
double wire_factor(Collective op, Algorithm algorithm, int gpus);

/// Bytes one GPU moves per byte of S, each direction on its own.
struct DirectionalTraffic {
  double sent = 0;
  double received = 0;
};

/// The one rule of which operations in-network reduction (NVLS) performs and what each of
/// the n GPUs then moves through the switch: all-reduce sends S and receives the S-byte sum;
/// reduce-scatter sends S and receives its S/n share of the sum; all-gather sends its S/n
/// share and receives all S (the switch multicasts). nullopt for all-to-all and
/// point-to-point: nothing to reduce or multicast. NCCL has kernels for all three
/// (src/device/all_reduce.h, reduce_scatter.h, all_gather.h), though its tuner seldom picks
/// NVLS for the last two.
std::optional<DirectionalTraffic> in_network_traffic(Collective op, int gpus);

/// The operations in_network_traffic serves, in all_collectives order.
std::vector<Collective> in_network_collectives();
/// Their names as a reader lists them: "all-reduce, all-gather and reduce-scatter".
std::string in_network_collectives_text();

/// The headline model's bytes per GPU per byte of S over `gpus` GPUs: nccl-tests' bus
/// bandwidth factor (2(n-1)/n for an all-reduce, the textbook's ~2; (n-1)/n for the other
/// collectives; 1 for a send), so the headline busbw is the vendor's figure.
double headline_traffic_factor(Collective op, int gpus);

/// The expected model's parameters that `algorithm` uses: the ring's step latency and
/// efficiency (for automatic too), or the in-network reduction's fixed latency and efficiency.
struct AlgorithmParameters {
  /// Ring steps; absent for nvls, whose latency is fixed.
  std::optional<std::int64_t> steps;
  /// Per step for a ring, per operation for nvls.
  Seconds unit_latency;
  /// The whole latency term L (of the LL protocol, for a ring).
  Seconds latency;
  double efficiency = 0;
};
/// Throws InputError when `model` has no in-network reduction and nvls is asked for.
AlgorithmParameters algorithm_parameters(const ExpectedModel& model,
                                         const CollectiveRequest& request);
/// Latency-bound steps of a ring algorithm (2(n-1) for an all-reduce).
std::int64_t ring_steps(Collective op, int gpus);

/// The bandwidth each way one GPU of a group of `gpus` reaches over `link` in the expected
/// model: the link's whole per-direction figure, or on a full mesh (Link::full_mesh) the share
/// of its links that reach the group's other GPUs, (gpus − 1) / links_per_gpu of it.
BytesPerSecond group_bandwidth(const Link& link, int gpus);

/// The bandwidth the headline model gives `op` on `link`: the vendor's headline figure (the
/// fast end of a range), or the one-way figure for a point-to-point send.
BytesPerSecond headline_bandwidth_for(const Link& link, Collective op);

/// Headline model: headline_traffic_factor · S bytes at headline_bandwidth_for (the fast end
/// of a range), no latency. Throws InputError for fewer than two GPUs, more than the link's domain
/// holds (check_domain_size), or a size that is not positive.
CollectiveCost headline_collective(const Link& link, const CollectiveRequest& request);

/// Whether `algorithm` can run `op` on `link` at all, whatever parameters a catalog gives it;
/// when it cannot, the reason ("in-network reduction performs all-reduce, reduce-scatter and
/// all-gather, not all-to-all"): nvls serves the operations of in_network_traffic,
/// inside a scale-up switch (NVSwitch), so a host or scale-out link has none. automatic
/// can always run. The one rule for every command that prices or fits an algorithm.
Check check_algorithm(const Link& link, Collective op, Algorithm algorithm);

/// Whether the expected model can price `algorithm` on `link`; when it cannot, the reason
/// ("… has no expected-model parameters …").
Check check_expected_model(const Link& link, Algorithm algorithm);

/// Whether `implementation` can run `op` on `link`: the engine's own kernels (custom,
/// multimem) perform all-reduce only, and only where the catalog has their parameters
/// (EngineAllReduce); nccl, vllm and sglang always can (the engines fall back to NCCL).
Check check_implementation(const Link& link, Collective op, Implementation implementation);

/// The topology the expected model assumes for `gpus` GPUs on `link`: the one named `id`,
/// or when `id` is empty the one whose default_up_to_gpus is the smallest that holds the
/// group. nullptr on a link without topologies, or when no default holds the group. Throws
/// InputError when `id` names no topology of a link that has some.
const LinkTopology* link_topology(const Link& link, std::string_view id, int gpus);

/// What the expected model assumes of `link`'s topology when `id` names one or none: "host
/// (P2P through one CPU's root complex)", or the defaults by group size. Empty for a link
/// without topologies.
std::string topology_text(const Link& link, std::string_view id);

/// `model` with the topology's efficiency and step latency (unchanged for nullptr).
ExpectedModel with_topology(ExpectedModel model, const LinkTopology* topology);

/// Whether NCCL may run NVLS (and NVLS-tree) under `implementation`: not under SGLang, whose
/// launcher turns it off unless asked (--enable-nccl-nvls).
bool nccl_runs_nvls(Implementation implementation);

/// The algorithm NCCL chooses among under the request's implementation: the request's own,
/// except that SGLang runs NCCL with NVLS off (ring for automatic).
Algorithm nccl_algorithm(const CollectiveRequest& request);

/// One line of the expected model: latency plus the bytes' time at the line's bandwidth.
struct ExpectedLine {
  Kernel kernel = Kernel::ring_simple;
  Seconds latency;
  Seconds bandwidth;
  [[nodiscard]] Seconds time() const { return latency + bandwidth; }
};

/// The lines that may run `request` on `link` with `model`: the algorithm's protocols (every
/// algorithm the link has for automatic), or the engine kernel the implementation's size
/// rule picks. Throws InputError as expected_collective does.
std::vector<ExpectedLine> expected_lines(const Link& link, const ExpectedModel& model,
                                         const CollectiveRequest& request);

/// Expected model (see the top of this file): the fastest line, with its kernel and the
/// topology assumed. Throws InputError when it is unavailable (the message is the reason),
/// for an operation nvls or the implementation does not serve, for fewer than two GPUs and
/// for a size that is not positive.
CollectiveCost expected_collective(const Link& link, const CollectiveRequest& request);

/// The expected model's latency and bandwidth terms of the line that runs `request`.
struct ExpectedTerms {
  Seconds latency;
  Seconds bandwidth;
};
ExpectedTerms expected_terms(const Link& link, const CollectiveRequest& request);

/// Message size at which the latency term equals the bandwidth term of the algorithm's
/// full-rate line (ring/Simple, or nvls): below it a collective is latency-bound. nullopt
/// when the expected model is unavailable or the algorithm cannot run the operation.
/// `request.size` is ignored; throws InputError for fewer than two GPUs.
std::optional<Bytes> crossover_size(const Link& link, const CollectiveRequest& request);

/// The expected time with `model` in place of the link's own parameters (used when fitting;
/// the request's topology is not applied).
Seconds expected_time(const Link& link, const ExpectedModel& model,
                      const CollectiveRequest& request);

} // namespace icx
