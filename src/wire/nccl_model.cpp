// The expected model: NCCL's algorithm/protocol lines and the serving engines' own
// all-reduce kernels (the formulas are at the top of icx/wire/collectives.hpp).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/base/knob.hpp"
#include "icx/wire/collectives.hpp"
#include "wire/collective_detail.hpp"

namespace icx {

namespace {

/// vLLM's and SGLang's custom kernel (vLLM's csrc/custom_all_reduce.cuh, which SGLang's v1
/// adapts) runs its one-shot stage below 256 KiB on 8 GPUs with full NVLink and its two-shot
/// stage above. vLLM's own limits for the kernel and for symmetric-memory multimem depend on
/// the GPU generation and are the wire's (EngineAllReduce::vllm_custom_below).
constexpr double custom_one_shot_below_bytes = 256.0 * 1024;
/// SGLang's custom all-reduce (v1, adapted from vLLM) serves messages below _MAX_CAR_SIZE
/// = 8 MiB (python/sglang/srt/distributed/device_communicators/custom_all_reduce.py); above,
/// NCCL runs with NVLS off, since SGLang's launcher sets NCCL_NVLS_ENABLE from
/// --enable-nccl-nvls (default off).
constexpr double sglang_custom_below_bytes = 8.0 * 1024 * 1024;

/// Bytes a GPU moves per byte of S in an engine kernel's busier direction: one-shot reads
/// every peer's whole buffer; two-shot is a reduce-scatter then an all-gather over P2P;
/// multimem sends S to the switch and receives the S-byte sum (in_network_traffic).
double engine_wire_factor(Kernel kernel, int gpus) {
  const double n = gpus;
  switch (kernel) {
  case Kernel::one_shot:
    return n - 1;
  case Kernel::two_shot:
    return 2.0 * (n - 1) / n;
  default:
    return wire_factor(Collective::all_reduce, Algorithm::nvls, gpus);
  }
}

/// `bytes` each way through one GPU of `gpus` at `efficiency` of what its links to them carry.
Seconds bytes_time(const Link& link, int gpus, double bytes, double efficiency) {
  return Bytes::of(bytes) / (group_bandwidth(link, gpus) * efficiency);
}

ExpectedLine engine_line(const Link& link, Kernel kernel, const EngineKernelParameters& p,
                         const CollectiveRequest& request) {
  const double bytes = request.size.value() * engine_wire_factor(kernel, request.gpus);
  return {kernel, p.latency, bytes_time(link, request.gpus, bytes, p.efficiency)};
}

void add_ring_lines(const Link& link, const ExpectedModel& model, const CollectiveRequest& request,
                    std::vector<ExpectedLine>& lines) {
  const Seconds steps =
      model.step_latency * static_cast<double>(ring_steps(request.op, request.gpus));
  const Seconds simple =
      bytes_time(link, request.gpus,
                 request.size.value() * wire_factor(request.op, Algorithm::ring, request.gpus),
                 model.efficiency);
  lines.push_back({Kernel::ring_ll, steps, simple * (1.0 + model.small_message_slowdown)});
  lines.push_back({Kernel::ring_simple, steps + model.ramp, simple});
}

void add_nvls_line(const Link& link, const ExpectedModel& model, const CollectiveRequest& request,
                   std::vector<ExpectedLine>& lines) {
  const InNetworkReduction& nvls = *model.in_network_reduction;
  const double bytes =
      request.size.value() * wire_factor(request.op, Algorithm::nvls, request.gpus);
  lines.push_back(
      {Kernel::nvls_simple, nvls.latency, bytes_time(link, request.gpus, bytes, nvls.efficiency)});
}

/// NCCL's lines for `algorithm`; automatic adds nvls where the link and operation allow it.
void add_nccl_lines(const Link& link, const ExpectedModel& model, const CollectiveRequest& request,
                    Algorithm algorithm, std::vector<ExpectedLine>& lines) {
  if (algorithm != Algorithm::nvls) {
    add_ring_lines(link, model, request, lines);
  }
  // in_network_traffic first: it rules out most operations without building check_algorithm's
  // message (this runs once per collective of every layout a sweep ranks).
  const bool nvls_runs = model.in_network_reduction &&
                         in_network_traffic(request.op, min_collective_gpus).has_value() &&
                         check_algorithm(link, request.op, Algorithm::nvls).has_value();
  if (algorithm == Algorithm::nvls || (algorithm == Algorithm::automatic && nvls_runs)) {
    add_nvls_line(link, model, request, lines);
  }
}

/// The engine kernels an implementation runs at this size; empty where NCCL runs it.
std::vector<ExpectedLine> engine_lines(const Link& link, const ExpectedModel& model,
                                       const CollectiveRequest& request) {
  std::vector<ExpectedLine> lines;
  if (request.op != Collective::all_reduce || !model.engine_all_reduce) {
    return lines;
  }
  const EngineAllReduce& engine = *model.engine_all_reduce;
  const double size = request.size.value();
  const auto add = [&](Kernel kernel, const std::optional<EngineKernelParameters>& p) {
    if (p) {
      lines.push_back(engine_line(link, kernel, *p, request));
    }
  };
  switch (request.setup.implementation) {
  case Implementation::custom:
    add(Kernel::one_shot, engine.one_shot);
    add(Kernel::two_shot, engine.two_shot);
    break;
  case Implementation::one_shot:
    add(Kernel::one_shot, engine.one_shot);
    break;
  case Implementation::two_shot:
    add(Kernel::two_shot, engine.two_shot);
    break;
  case Implementation::multimem:
    add(Kernel::multimem, engine.multimem);
    break;
  case Implementation::vllm:
    if (size < engine.vllm_custom_below.value()) {
      add(size < custom_one_shot_below_bytes ? Kernel::one_shot : Kernel::two_shot,
          size < custom_one_shot_below_bytes ? engine.one_shot : engine.two_shot);
    } else if (size < engine.vllm_multimem_below.value()) {
      add(Kernel::multimem, engine.multimem);
    }
    break;
  case Implementation::sglang:
    if (size < sglang_custom_below_bytes) {
      add(Kernel::one_shot, engine.one_shot);
      add(Kernel::two_shot, engine.two_shot);
    }
    break;
  case Implementation::nccl:
    break;
  }
  return lines;
}

void check_expected(const Link& link, const ExpectedModel& model,
                    const CollectiveRequest& request) {
  detail::check_collective_request(link, request);
  if (const Check check = check_algorithm(link, request.op, request.algorithm); !check) {
    throw InputError(check.reason());
  }
  if (request.algorithm == Algorithm::nvls && !model.in_network_reduction) {
    throw InputError(fmt::format(
        "wire '{}' has no in-network reduction (nvls) in the catalog; use ring", link.id));
  }
  if (const Check check = check_implementation(link, request.op, request.setup.implementation);
      !check) {
    throw InputError(check.reason());
  }
}

} // namespace

namespace detail {

ExpectedLine fastest(const std::vector<ExpectedLine>& lines) {
  return *std::ranges::min_element(lines, {}, [](const ExpectedLine& l) { return l.time(); });
}

std::pair<ExpectedModel, const LinkTopology*>
model_for(const Link& link, const CollectiveRequest& request, int gpus) {
  const ModelView view = model_view(link, request, gpus);
  return {view.model(), view.topology};
}

ModelView model_view(const Link& link, const CollectiveRequest& request, int gpus) {
  if (const Check check = check_expected_model(link, request.algorithm); !check) {
    throw InputError(check.reason());
  }
  ModelView view;
  view.base = &*link.expected;
  view.topology = link_topology(link, request.setup.topology, gpus);
  if (view.topology != nullptr) {
    view.adjusted = with_topology(*link.expected, view.topology);
  }
  // The setup's own time is measured on all-reduces over a GPU's scale-up link.
  if (request.setup.ring_step.value() > 0 && request.op == Collective::all_reduce &&
      link.tier == Tier::scale_up) {
    ExpectedModel slower = view.model();
    slower.step_latency += request.setup.ring_step;
    view.adjusted = slower;
  }
  return view;
}

} // namespace detail

std::string implementation_text(Implementation implementation) {
  const auto kib = [](double bytes) { return fmt::format("{:g} KiB", bytes / 1024); };
  const auto mib = [](double bytes) { return fmt::format("{:g} MiB", bytes / (1024 * 1024)); };
  switch (implementation) {
  case Implementation::nccl:
    return "NCCL, as nccl-tests runs it";
  case Implementation::custom:
    return "the engines' custom all-reduce, the faster of one-shot (each GPU reads every "
           "peer's buffer) and two-shot (reduce-scatter then all-gather over P2P)";
  case Implementation::one_shot:
    return "the engines' one-shot all-reduce: each GPU reads every peer's buffer";
  case Implementation::two_shot:
    return "the engines' two-shot all-reduce: reduce-scatter then all-gather over P2P";
  case Implementation::multimem:
    return "PyTorch symmetric-memory multimem (NVSwitch multicast)";
  case Implementation::vllm:
    return fmt::format("vLLM's dispatch since v0.11 (PR #24111): its custom kernel (one-shot "
                       "below {}, two-shot above) and then symmetric-memory multimem, each up to "
                       "the size vLLM allows on the wire's GPU generation, NCCL above; NCCL "
                       "where the wire has no figures for those kernels",
                       kib(custom_one_shot_below_bytes));
  case Implementation::sglang:
    return fmt::format("SGLang's custom all-reduce below {}, NCCL with NVLS off above (its "
                       "default without --enable-nccl-nvls); NCCL where the wire has no figures "
                       "for those kernels",
                       mib(sglang_custom_below_bytes));
  }
  return "";
}

std::string_view kernel_algorithm(Kernel kernel) {
  switch (kernel) {
  case Kernel::ring_ll:
  case Kernel::ring_simple:
    return to_string(Algorithm::ring);
  case Kernel::nvls_simple:
    return to_string(Algorithm::nvls);
  case Kernel::tree_ll:
  case Kernel::tree_simple:
    return to_string(Algorithm::tree);
  case Kernel::nvls_tree_simple:
    return to_string(Algorithm::nvls_tree);
  default:
    return to_string(kernel);
  }
}

std::optional<Protocol> kernel_protocol(Kernel kernel) {
  switch (kernel) {
  case Kernel::ring_ll:
  case Kernel::tree_ll:
    return Protocol::ll;
  case Kernel::ring_simple:
  case Kernel::nvls_simple:
  case Kernel::tree_simple:
  case Kernel::nvls_tree_simple:
    return Protocol::simple;
  default:
    return std::nullopt;
  }
}

AlgorithmParameters algorithm_parameters(const ExpectedModel& model,
                                         const CollectiveRequest& request) {
  if (request.algorithm == Algorithm::nvls) {
    if (!model.in_network_reduction) {
      throw InputError("the expected model has no in-network reduction (nvls) parameters");
    }
    const InNetworkReduction& nvls = *model.in_network_reduction;
    return {std::nullopt, nvls.latency, nvls.latency, nvls.efficiency};
  }
  const std::int64_t steps = ring_steps(request.op, request.gpus);
  return {steps, model.step_latency, model.step_latency * static_cast<double>(steps),
          model.efficiency};
}

Check check_expected_model(const Link& link, Algorithm algorithm) {
  if (!link.expected) {
    return unexpected(
        fmt::format("the expected model is not available for wire '{}': its catalog entry "
                    "has no expected-model parameters (no published measurement fixes them; "
                    "'icx calibrate' fits them from your own nccl-tests log)",
                    link.id));
  }
  if (algorithm == Algorithm::nvls && !link.expected->in_network_reduction) {
    return unexpected(fmt::format(
        "wire '{}' has no in-network reduction (nvls) in the catalog; use ring", link.id));
  }
  return {};
}

Check check_implementation(const Link& link, Collective op, Implementation implementation) {
  if (implementation == Implementation::nccl || implementation == Implementation::vllm ||
      implementation == Implementation::sglang) {
    return {};
  }
  if (op != Collective::all_reduce) {
    return unexpected(fmt::format("the engines' own kernels ({} {}) perform all-reduce only, "
                                  "not {}; use {} nccl",
                                  Knob::impl, to_string(implementation), to_string(op),
                                  Knob::impl));
  }
  const EngineAllReduce* engine = link.expected && link.expected->engine_all_reduce
                                      ? &*link.expected->engine_all_reduce
                                      : nullptr;
  bool present = false;
  if (engine) {
    switch (implementation) {
    case Implementation::custom:
      present = engine->one_shot || engine->two_shot;
      break;
    case Implementation::one_shot:
      present = engine->one_shot.has_value();
      break;
    case Implementation::two_shot:
      present = engine->two_shot.has_value();
      break;
    default:
      present = engine->multimem.has_value();
    }
  }
  if (!present) {
    return unexpected(fmt::format("wire '{}' has no published figures for the engines' {} "
                                  "all-reduce (engine_all_reduce in the catalog); use {} nccl",
                                  link.id, to_string(implementation), Knob::impl));
  }
  return {};
}

bool nccl_runs_nvls(Implementation implementation) {
  // SGLang's launcher sets NCCL_NVLS_ENABLE from --enable-nccl-nvls, off by default.
  return implementation != Implementation::sglang;
}

Algorithm nccl_algorithm(const CollectiveRequest& request) {
  return !nccl_runs_nvls(request.setup.implementation) && request.algorithm == Algorithm::automatic
             ? Algorithm::ring
             : request.algorithm;
}

std::vector<ExpectedLine> expected_lines(const Link& link, const ExpectedModel& model,
                                         const CollectiveRequest& request) {
  check_expected(link, model, request);
  std::vector<ExpectedLine> lines = engine_lines(link, model, request);
  if (lines.empty()) {
    // Ring LL and Simple, and NVLS: one allocation for all of them.
    constexpr std::size_t nccl_line_count = 3;
    lines.reserve(nccl_line_count);
    add_nccl_lines(link, model, request, nccl_algorithm(request), lines);
  }
  return lines;
}

CollectiveCost expected_collective(const Link& link, const CollectiveRequest& request) {
  const detail::ModelView view = detail::model_view(link, request, request.gpus);
  const ExpectedLine line = detail::fastest(expected_lines(link, view.model(), request));
  CollectiveCost cost = detail::collective_cost(request, line.time());
  cost.kernel = line.kernel;
  cost.topology = view.topology;
  return cost;
}

ExpectedTerms expected_terms(const Link& link, const CollectiveRequest& request) {
  const detail::ModelView view = detail::model_view(link, request, request.gpus);
  const ExpectedLine line = detail::fastest(expected_lines(link, view.model(), request));
  return {line.latency, line.bandwidth};
}

std::optional<Bytes> crossover_size(const Link& link, const CollectiveRequest& request) {
  if (!check_expected_model(link, request.algorithm) ||
      !check_algorithm(link, request.op, request.algorithm)) {
    return std::nullopt;
  }
  CollectiveRequest unit = request;
  unit.size = Bytes::of(1);
  unit.algorithm = nccl_algorithm(request);
  unit.setup.implementation = Implementation::nccl;
  const auto [model, topology] = detail::model_for(link, unit, unit.gpus);
  // The full-rate line: the one with the smallest bandwidth term per byte.
  const std::vector<ExpectedLine> lines = expected_lines(link, model, unit);
  const ExpectedLine full = *std::ranges::min_element(lines, {}, &ExpectedLine::bandwidth);
  // The bandwidth term is linear in S, so L = tb(1 B) · S at the crossover.
  return Bytes::of(full.latency / full.bandwidth);
}

Seconds expected_time(const Link& link, const ExpectedModel& model,
                      const CollectiveRequest& request) {
  return detail::fastest(expected_lines(link, model, request)).time();
}

} // namespace icx
