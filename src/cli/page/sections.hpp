// The sections of 'icx report': the deployment, the ranked layouts, the curves (the layouts'
// TTFT and the tensor-parallel all-reduce over prompt tokens) and the cold-start path, each
// built from the reports of icx place, tp and coldstart.
#pragma once

#include <cstddef>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/place.hpp"
#include "options/common.hpp"
#include "page/page.hpp"

namespace icx::cli {

/// The prompt lengths the curves sweep.
inline constexpr std::string_view report_curve_sweep = "tokens=256:32768:x2";

/// What every section is built from: the place request and its report, and the cluster as named.
struct ReportInputs {
  const Catalog& catalog;
  const ResolvedModel& model;
  const PlaceRequest& request;
  const ClusterRequest& cluster;
  const PlaceReport& report;
  std::size_t top;
};

/// The model, GPU, system, cluster and wires, the pass, and what was assumed.
PageSection deployment_section(const ReportInputs& in);

/// The ranked layouts (top N and the chosen one) and the chosen layout's splits.
PageSection layouts_section(const ReportInputs& in);

/// The layouts' TTFT and the tensor-parallel all-reduce time over prompt tokens, and for an
/// MoE model the expert-parallel dispatch and combine (charts not drawn yet).
PageSection curves_section(const ReportInputs& in);

/// When the chosen layout has a tensor group, the chart of its all-reduce per prefill pass over
/// the sweep's prompt lengths as placed on the cluster (expected, headline, on the scale-up
/// wire alone when it leaves the node, and the stage's kernels), added to `section`; false
/// (nothing added) without one.
bool add_tensor_curves(const ReportInputs& in, const PlaceRequest& prefill, const Sweep& sweep,
                       PageSection& section);

/// For an MoE model, the chart of one MoE layer's expert-parallel dispatch and combine over
/// tokens per GPU (icx ep), added to `section`; nothing for a dense model.
void add_ep_curves(const ReportInputs& in, PageSection& section);

/// The page's footer: icx's version and build, the command line, the time, the config file in
/// force, and the catalog entries used with their sources.
PageFooter provenance_footer(const ReportInputs& in);

/// The cold-start floor's stages and each loader's expected load of one replica's weights,
/// from the system's host side (a note when there is none).
PageSection coldstart_section(const ReportInputs& in);

} // namespace icx::cli
