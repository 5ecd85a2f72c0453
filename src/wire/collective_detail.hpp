// Checks and results shared by the two halves of the collective cost models
// (collectives.cpp: traffic and the headline model; nccl_model.cpp: the expected
// model).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx::detail {

/// Throws InputError for a group outside 2…limits::max_domain GPUs or a size that is not a
/// positive finite number, GroupError for a group the link's domain cannot hold.
void check_collective_request(const Link& link, const CollectiveRequest& request);

/// `time` with the nccl-tests bandwidths of `request` (no kernel, no topology).
CollectiveCost collective_cost(const CollectiveRequest& request, Seconds time);

/// The line that runs: the fastest of `lines` (not empty).
ExpectedLine fastest(const std::vector<ExpectedLine>& lines);

/// `link`'s expected model with the topology the request assumes for `gpus` GPUs, and that
/// topology. Throws InputError when the link has no expected model for the algorithm.
std::pair<ExpectedModel, const LinkTopology*> model_for(const Link& link,
                                                        const CollectiveRequest& request, int gpus);

/// model_for without copying the link's model when no topology changes it (the hot path of
/// every collective a layout prices).
struct ModelView {
  std::optional<ExpectedModel> adjusted;
  const ExpectedModel* base = nullptr;
  const LinkTopology* topology = nullptr;
  [[nodiscard]] const ExpectedModel& model() const { return adjusted ? *adjusted : *base; }
};
ModelView model_view(const Link& link, const CollectiveRequest& request, int gpus);

} // namespace icx::detail
