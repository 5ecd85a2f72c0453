// Published offloaded runs against icx offload's expected step
// (icx/reports/offload_validation.hpp).
#include "icx/reports/offload_validation.hpp"

#include <fmt/format.h>

#include "base/csv_rows.hpp"
#include "icx/base/error.hpp"
#include "icx/measured/comparison.hpp"
#include "icx/reports/offload.hpp"

namespace icx {

namespace {

/// batch / the expected step of the row's run.
double predicted_tokens_per_s(const Catalog& catalog, const MeasuredOffload& row) {
  // The run's own HBM holds the resident bytes, at the catalog GPU's bandwidth.
  Gpu gpu = detail::look_up(row, "gpu", [&]() -> const Gpu& { return catalog.gpu(row.gpu); });
  gpu.hbm_capacity = row.hbm_held;
  gpu.device_memory.reset();
  const Link& link = detail::look_up(row, "host_link",
                                     [&]() -> const Link& { return catalog.link(row.host_link); });
  if (link.tier != Tier::host || !link.measured_host_to_device) {
    throw InputError(fmt::format("{}:{}: column 'host_link': '{}' is not a host link with a "
                                 "measured host-to-device rate (e.g. pcie5, nvlink-c2c)",
                                 row.origin, row.line, row.host_link));
  }
  OffloadRequest request;
  request.model =
      &detail::look_up(row, "model", [&]() -> const Model& { return catalog.model(row.model); });
  request.dtype =
      &detail::look_up(row, "dtype", [&]() -> const Dtype& { return catalog.dtype(row.dtype); });
  request.gpu = &gpu;
  request.gpus = row.gpus;
  request.reserve = 0;
  request.host_links = {&link};
  request.engine = row.engine;
  const OffloadReport report = [&] {
    try {
      return offload_report(request);
    } catch (const GroupError& error) {
      throw InputError(fmt::format("{}:{}: column 'gpus': {}", row.origin, row.line, error.what()));
    }
  }();
  return row.batch / report.result.links.front().expected_step->value();
}

} // namespace

std::vector<OffloadCheck> check_offloads(const Catalog& catalog,
                                         std::span<const MeasuredOffload> rows) {
  std::vector<OffloadCheck> checks;
  for (const MeasuredOffload& row : rows) {
    const bool held = row.use == "held-out";
    const std::optional<Bound> bound = factor_bound(row.bound);
    checks.push_back(
        {row, compare(row.measured_tokens_per_s,
                      held ? std::optional(predicted_tokens_per_s(catalog, row)) : std::nullopt,
                      bound, held)});
  }
  return checks;
}

} // namespace icx
