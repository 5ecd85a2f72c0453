// Collective operations over n GPUs on one link, under both cost models.
//
// Headline (the textbook arithmetic): an all-reduce of an S-byte buffer moves about 2·S
// bytes per GPU, any other collective S bytes, at the link's headline (vendor) bandwidth;
// no latency, no GPU-count factor.
//
// Expected (what an nccl-tests run shows), for a link whose catalog entry has an
// "expected" object (ExpectedModel in catalog.hpp):
//   time = L + tb + ramp · tb / (tb + ramp / slowdown)
//   tb   = wire_factor · S / (per-direction bandwidth · efficiency)   (the bandwidth term)
//   L    = steps · step latency for ring algorithms; the fixed NVLS latency for nvls
// The third term is the size-dependent shortfall of real runs: small messages move at
// 1/(1 + slowdown) of the large-message rate (NCCL's LL/LL128 protocols), large ones pay a
// fixed pipeline fill and drain, `ramp`.
//   ring all-reduce: 2(n-1) steps, wire factor 2(n-1)/n
//   all-gather, reduce-scatter: n-1 steps, (n-1)/n      all-to-all: n-1 steps, (n-1)/n
//   point-to-point: 1 step, 1
//   nvls (all-reduce, reduce-scatter, all-gather): the larger of the bytes a GPU sends to and
//   receives from the switch per byte of S (in_network_traffic), 1 for each of the three
// Reported as nccl-tests does (doc/PERFORMANCE.md): algbw = S / time, busbw = algbw ·
// busbw_factor (all-reduce 2(n-1)/n for every algorithm, as all_reduce_perf prints it, so
// NVLS busbw can exceed the ring's per-direction ceiling; all-gather, reduce-scatter,
// all-to-all (n-1)/n; point-to-point 1).
//
// Typical use (tensor parallelism: one all-reduce of the activations per sublayer):
//   CollectiveRequest request{Collective::all_reduce, Algorithm::ring, 8, Bytes::of(s)};
//   CollectiveCost headline = headline_collective(link, request);
//   if (const Check check = check_expected_model(link, request.algorithm); check) {
//     CollectiveCost expected = expected_collective(link, request);
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

#include "icx/catalog.hpp"
#include "icx/enum_names.hpp"
#include "icx/expected.hpp"
#include "icx/units.hpp"

namespace icx {

enum class Collective { all_reduce, all_gather, reduce_scatter, all_to_all, point_to_point };

/// ring: NCCL's ring algorithm; nvls: in-network reduction on NVSwitch (NVLink SHARP), for
/// the operations in_network_traffic serves.
enum class Algorithm { ring, nvls };

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

constexpr std::array<EnumName<Algorithm>, 2> enum_names(Algorithm /*unused*/) {
  return {{{Algorithm::ring, "ring"}, {Algorithm::nvls, "nvls"}}};
}

inline constexpr std::array all_collectives{Collective::all_reduce, Collective::all_gather,
                                            Collective::reduce_scatter, Collective::all_to_all,
                                            Collective::point_to_point};
inline constexpr std::array all_algorithms{Algorithm::ring, Algorithm::nvls};

/// The operation by name ("all-reduce", "all_reduce", "allreduce" …, case-insensitive).
std::optional<Collective> collective_from_name(std::string_view name);
std::optional<Algorithm> algorithm_from_name(std::string_view name);

/// Smallest group a collective needs.
constexpr int min_collective_gpus = 2;

struct CollectiveRequest {
  Collective op = Collective::all_reduce;
  Algorithm algorithm = Algorithm::ring;
  /// GPUs taking part, at least min_collective_gpus.
  int gpus = min_collective_gpus;
  /// The nccl-tests message size S: the buffer being reduced or gathered, not the wire bytes.
  Bytes size;
};

/// Time of one operation and the two nccl-tests bandwidths.
struct CollectiveCost {
  Seconds time;
  /// S / time.
  BytesPerSecond algbw;
  /// algbw · busbw_factor(op, gpus).
  BytesPerSecond busbw;
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

/// The headline model's bytes per GPU per byte of S: 2 for an all-reduce (the textbook
/// ~2·S), 1 for every other operation.
double headline_traffic_factor(Collective op);

/// The expected model's parameters that `algorithm` uses: the ring's step latency and
/// efficiency, or the in-network reduction's fixed latency and efficiency.
struct AlgorithmParameters {
  /// Ring steps; absent for nvls, whose latency is fixed.
  std::optional<std::int64_t> steps;
  /// Per step for a ring, per operation for nvls.
  Seconds unit_latency;
  /// The whole latency term L.
  Seconds latency;
  double efficiency = 0;
};
/// Throws InputError when `model` has no in-network reduction and nvls is asked for.
AlgorithmParameters algorithm_parameters(const ExpectedModel& model,
                                         const CollectiveRequest& request);
/// Latency-bound steps of a ring algorithm (2(n-1) for an all-reduce).
std::int64_t ring_steps(Collective op, int gpus);

/// Headline model: 2·S (all-reduce) or S bytes at the headline bandwidth (the fast end of a
/// range). Throws InputError for fewer than two GPUs, more than the link's domain holds
/// (check_domain_size), or a size that is not positive.
CollectiveCost headline_collective(const Link& link, const CollectiveRequest& request);

/// Whether `algorithm` can run `op` on `link` at all, whatever parameters a catalog gives it;
/// when it cannot, the reason ("in-network reduction performs all-reduce, reduce-scatter and
/// all-gather, not all-to-all"): nvls serves the operations of in_network_traffic,
/// inside a scale-up switch (NVSwitch), so a host or scale-out link has none. The one rule
/// for every command that prices or fits an algorithm.
Check check_algorithm(const Link& link, Collective op, Algorithm algorithm);

/// Whether the expected model can price `algorithm` on `link`; when it cannot, the reason
/// ("… has no expected-model parameters …").
Check check_expected_model(const Link& link, Algorithm algorithm);

/// Expected model (see the top of this file). Throws InputError when it is unavailable
/// (the message is the reason), for an operation nvls does not serve, for fewer than two
/// GPUs and for a size that is not positive.
CollectiveCost expected_collective(const Link& link, const CollectiveRequest& request);

/// The expected model's latency term L and bandwidth term tb for `request` (no ramp term).
struct ExpectedTerms {
  Seconds latency;
  Seconds bandwidth;
};
ExpectedTerms expected_terms(const Link& link, const CollectiveRequest& request);

/// Message size at which the latency term equals the bandwidth term, S = L · bandwidth ·
/// efficiency / wire_factor: below it a collective is latency-bound. nullopt when the
/// expected model is unavailable or the algorithm cannot run the operation.
/// `request.size` is ignored; throws InputError for fewer than two GPUs.
std::optional<Bytes> crossover_size(const Link& link, const CollectiveRequest& request);

/// The expected time with `model` in place of the link's own parameters (used when fitting).
Seconds expected_time(const Link& link, const ExpectedModel& model,
                      const CollectiveRequest& request);

} // namespace icx
