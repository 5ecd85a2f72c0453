#include "icx/tp_report.hpp"

#include <fmt/format.h>

#include "icx/collectives.hpp"
#include "icx/comm_time.hpp"
#include "icx/error.hpp"
#include "icx/host_link.hpp"

namespace icx {

std::string_view to_string(Phase phase) {
  return phase == Phase::prefill ? "prefill" : "decode";
}

namespace {

/// Prefill is compute-bound (2 FLOPs per active parameter per token); a decode step is
/// memory-bound (every weight byte read once from HBM).
Seconds compute_time_of(const TpRequest& request, const TpWire& wire) {
  if (request.phase == Phase::prefill) {
    return compute_time(prefill_flops(request.active_params, request.tokens), wire.gpus,
                        *wire.rate);
  }
  return decode_step_time(weight_bytes(request.total_params, request.shape.bytes_per_element),
                          wire.gpus, wire.gpu->hbm_bandwidth);
}

} // namespace

TpReport tensor_parallel_report(const Catalog& catalog, const TpRequest& request,
                                std::span<const Link* const> links) {
  TpReport report;
  report.traffic = tensor_parallel_traffic(request.shape, request.tokens);
  report.message = Bytes::of(static_cast<double>(request.tokens) * request.shape.hidden *
                             request.shape.bytes_per_element);
  for (const WireTime& time : headline_times(report.traffic.per_pass, links)) {
    TpWire wire;
    wire.link = time.link;
    wire.headline = time.seconds;
    wire.gpu = request.gpu;
    if (wire.gpu == nullptr) {
      wire.gpu = &gpu_for_link(catalog, *time.link, wire.gpu_native);
    }
    wire.gpus = request.gpus.value_or(wire.gpu->scale_up_domain);
    std::optional<std::string> problem = tensor_allreduce_problem(request.attention, wire.gpus);
    if (!problem) {
      problem = group_link_problem(request.gpu, wire.gpus, *time.link);
    }
    if (problem) {
      throw GroupError(request.gpus ? *problem
                                    : fmt::format("{} (the group is the {}-GPU scale-up domain of "
                                                  "catalog gpu '{}', scale_up_domain)",
                                                  *problem, wire.gpus, wire.gpu->id));
    }
    const CollectiveRequest one{Collective::all_reduce, Algorithm::ring, wire.gpus, report.message};
    const CommTime comm = comm_time(*time.link, report.traffic.per_pass, one,
                                    report.traffic.allreduces_per_layer * request.shape.layers);
    wire.expected = comm.expected;
    if (const auto why = expected_unavailable_reason(*time.link, one.algorithm)) {
      wire.expected_unavailable = *why;
    } else {
      wire.crossover = crossover_size(*time.link, one);
    }
    if (request.active_params > 0 && request.dtype != nullptr) {
      wire.rate = compute_rate(*wire.gpu, *request.dtype, catalog.dtypes(),
                               request.utilization.value_or(wire.gpu->achievable_mfu));
      wire.verdict =
          judge(Strategy::tensor, time.link, comm.judged(), compute_time_of(request, wire));
      wire.verdict->expected_model = comm.expected.has_value();
    }
    report.wires.push_back(std::move(wire));
  }
  return report;
}

} // namespace icx
