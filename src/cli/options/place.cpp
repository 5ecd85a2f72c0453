#include "options/place.hpp"

#include <string>
#include <tuple>

#include <fmt/format.h>

#include "icx/base/limits.hpp"

namespace icx::cli {

namespace {

/// The flag that chose the part of the cluster a contradiction lies in.
std::string flag_for(ClusterPart part, const PlaceOptions& o) {
  if (part == ClusterPart::scale_out) {
    return !o.nodes.scale_out.empty() ? "--scale-out " + o.nodes.scale_out
                                      : "--system " + o.nodes.system;
  }
  return !o.nodes.scale_up.empty() ? "--scale-up " + o.nodes.scale_up
         : !o.compute.gpu.empty()  ? "--gpu " + o.compute.gpu
                                   : "--system " + o.nodes.system;
}

/// The cluster error in the words of the flags that fix it.
[[noreturn]] void reject(const ClusterError& error, const PlaceOptions& o) {
  const Cluster& c = error.cluster;
  switch (error.issue) {
  case ClusterIssue::ragged_nodes:
    throw UsageError(fmt::format("--gpus {} is not a whole number of {}-GPU nodes; use a "
                                 "multiple of {} or set --gpus-per-node",
                                 c.gpus, c.gpus_per_node, c.gpus_per_node));
  case ClusterIssue::needs_scale_out:
    throw UsageError(fmt::format("{} GPUs span more than one {}-GPU scale-up domain: give "
                                 "--scale-out LINK (e.g. ib-ndr) or --system ID",
                                 c.gpus, c.domain));
  case ClusterIssue::contradiction:
    break;
  }
  throw UsageError(fmt::format("{}: {}", flag_for(error.part, o), error.what()));
}

/// --system, --gpus, --gpus-per-node, --scale-up, --scale-out and --nics-per-node (unless the
/// command has its own), --gpu and --mfu.
void add_cluster_options(CLI::App& app, PlaceOptions& options, bool fabric) {
  const std::size_t first = app.get_options().size();
  if (fabric) {
    add_fabric_options(app, options.nodes, "-s,--system",
                       "GPUs per node; default: the system's, else the GPU's scale-up domain");
    app.add_option("-g,--gpus", options.gpus, "GPUs in the cluster; default: one node")
        ->type_name("N")
        ->transform(whole_number(1, limits::max_domain));
  }
  add_compute_options(app, options.compute);
  app.get_option("--gpu")->description(
      "GPU in each node (see 'icx gpus'); default: the --system's. Without --system: a cluster "
      "of --gpus of them on their own scale-up link");
  group_options_from(app, first, "Cluster");
}

} // namespace

void add_place_options(CLI::App& app, PlaceOptions& o, bool fabric) {
  const std::size_t first = app.get_options().size();
  add_model_options(app, o.model);
  add_cluster_options(app, o, fabric);
  add_serving_options(app, o.serving);
  add_ep_options(app, o.experts, "--ep-mode",
                 "Expert-parallel kernels: normal (DeepEP's high-throughput ones), low-latency "
                 "(DeepEP's decode ones) or nccl (NCCL's all-to-all); default: normal for a "
                 "prefill, low-latency for a decode step (SGLang's --deepep-mode auto)");
  app.add_option("--top", o.top, "Ranked layouts to show (the chosen one always is)")
      ->type_name("N")
      ->default_str(std::to_string(default_top))
      ->transform(whole_number(1, limits::max_domain));
  for (auto [flag, field, what] :
       {std::tuple{"--tp,--attn-tp", &o.tp, "Tensor-parallel degree (attention's)"},
        std::tuple{"--pp", &o.pp, "Pipeline stages"},
        std::tuple{"--ep,--attn-dp", &o.ep,
                   "Expert-parallel degree (MoE): ranks of an expert group, each running "
                   "attention for its own sequences (data-parallel attention)"},
        std::tuple{"--dp", &o.dp, "Replicas"}}) {
    app.add_option(flag, *field,
                   std::string(what) + " of an explicit layout to judge" +
                       (field == &o.dp ? "; default: what the other degrees leave" : ""))
        ->type_name("N")
        ->transform(whole_number(1, limits::max_domain));
  }
  app.add_option("--moe-ep", o.moe_ep,
                 "GPUs of a stage the routed experts are spread over, each holding whole experts "
                 "(MoE; e.g. --tp 8 --moe-ep 8: attention tensor parallel, experts expert "
                 "parallel); default: --ep, each expert split over the tensor group")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  app.add_option("--moe-tp", o.moe_tp,
                 "GPUs each routed expert is split over, a divisor of --tp; the experts spread "
                 "over the rest of the stage (MoE; --tp 8 --moe-tp 1 is --tp 8 --moe-ep 8); "
                 "default: --tp")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  group_options_from(app, first, "Layout");
}

ClusterRequest cluster_request(const Catalog& catalog, const PlaceOptions& o) {
  ClusterRequest r;
  if (!o.nodes.system.empty()) {
    r.system =
        &for_flag("--system", [&]() -> const System& { return catalog.system(o.nodes.system); });
  }
  const std::string gpu = !o.compute.gpu.empty() ? o.compute.gpu
                          : r.system             ? r.system->gpu
                                                 : std::string();
  if (gpu.empty()) {
    throw UsageError("no cluster given: use --system ID (see 'icx systems'), or --gpu ID with "
                     "--gpus N (and --gpus-per-node, --scale-up, --scale-out as needed)");
  }
  r.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(gpu); });
  const std::string up = !o.nodes.scale_up.empty() ? o.nodes.scale_up
                         : r.system                ? r.system->scale_up_link
                                                   : r.gpu->scale_up_link;
  r.scale_up = &for_flag("--scale-up", [&]() -> const Link& { return catalog.link(up); });
  const std::string out = !o.nodes.scale_out.empty() ? o.nodes.scale_out
                          : r.system                 ? r.system->scale_out_link
                                                     : std::string();
  if (!out.empty()) {
    r.scale_out = &for_flag("--scale-out", [&]() -> const Link& { return catalog.link(out); });
  }
  r.gpus = o.gpus;
  r.gpus_per_node = o.nodes.gpus_per_node;
  r.nics_per_node = o.nodes.nics_per_node;
  return r;
}

Cluster cluster_of(const Catalog& catalog, const ClusterRequest& request,
                   const PlaceOptions& options) {
  try {
    return resolve_cluster(request, catalog.links());
  } catch (const ClusterError& error) {
    reject(error, options);
  }
}

PlaceRequest place_request(const Catalog& catalog, const PlaceOptions& o,
                           const ResolvedModel& model, ClusterRequest* named) {
  if (model.model.total_params <= 0) {
    throw UsageError("placement needs the model's parameter count: pass --params N");
  }
  const ClusterRequest cluster = cluster_request(catalog, o);
  if (named != nullptr) {
    *named = cluster;
  }
  PlaceRequest request;
  request.cluster = cluster_of(catalog, cluster, o);
  request.system = cluster.system;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.serving = serving_request(catalog, o.serving, o.compute.mfu);
  request.serving.ep_mode = o.experts.mode;
  request.serving.dispatch_dtype = dispatch_dtype(catalog, o.experts);
  request.serving.ep_routing = o.experts.routing;
  request.layout = {o.tp, o.pp, o.ep, o.dp, o.moe_ep, o.moe_tp};
  return request;
}

PlaceReport place_report_of(const Catalog& catalog, const PlaceRequest& request) {
  try {
    return place_report(catalog, request);
  } catch (const LayoutError& error) {
    const std::string flag = error.degree.empty() ? "--tp/--pp/--ep/--dp" : "--" + error.degree;
    throw UsageError(fmt::format("{}: {}", flag, error.what()));
  }
}

} // namespace icx::cli
