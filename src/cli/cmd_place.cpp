// icx place: a layout of a model on a cluster (recommended, or the one given), with each
// split's traffic, wire, time and verdict.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "ep_options.hpp"
#include "fabric_options.hpp"
#include "icx/limits.hpp"
#include "icx/place_report.hpp"
#include "icx/units_format.hpp"
#include "icx/util/table.hpp"
#include "output.hpp"
#include "place_view.hpp"
#include "serving_options.hpp"
#include "terminal.hpp"

namespace icx::cli {

namespace {

/// Ranked layouts shown unless --top says otherwise.
constexpr std::size_t default_top = 8;

struct PlaceOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  FabricOptions nodes;
  std::optional<int> gpus;
  ServingOptions serving;
  EpOptions experts;
  std::optional<int> tp, pp, ep, dp;
  std::size_t top = default_top;
};

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

/// The catalog entries the flags name: a system, or a GPU; parts given replace the system's.
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

int run_place(const PlaceOptions& o) {
  const Catalog catalog = load_catalog(o.common);
  const ResolvedModel model = resolve_model(catalog, o.model);
  if (model.model.total_params <= 0) {
    throw UsageError("placement needs the model's parameter count: pass --params N");
  }
  PlaceRequest request;
  const ClusterRequest cluster = cluster_request(catalog, o);
  try {
    request.cluster = resolve_cluster(cluster, catalog.links());
  } catch (const ClusterError& error) {
    reject(error, o);
  }
  request.system = cluster.system;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.serving = serving_request(catalog, o.serving, o.compute.mfu);
  request.serving.ep_mode = o.experts.mode;
  request.serving.dispatch_dtype = dispatch_dtype(catalog, o.experts);
  request.serving.ep_routing = o.experts.routing;
  request.layout = {o.tp, o.pp, o.ep, o.dp};
  PlaceReport report;
  try {
    report = place_report(catalog, request);
  } catch (const LayoutError& error) {
    const std::string flag = error.degree.empty() ? "--tp/--pp/--ep/--dp" : "--" + error.degree;
    throw UsageError(fmt::format("{}: {}", flag, error.what()));
  }
  const Style style = style_of(o.common);
  emit(style, report, "layouts", style.explain ? report.derivations : Derivations{},
       [&] { print_place(style, report, o.top); });
  return 0;
}

/// --system, --gpus, --gpus-per-node, --scale-up, --scale-out, --nics-per-node, --gpu and --mfu.
void add_cluster_options(CLI::App& app, PlaceOptions& options) {
  add_fabric_options(app, options.nodes, "-s,--system",
                     "GPUs per node; default: the system's, else the GPU's scale-up domain");
  app.add_option("-g,--gpus", options.gpus, "GPUs in the cluster; default: one node")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_compute_options(app, options.compute);
  app.get_option("--gpu")->description(
      "GPU in each node (see 'icx gpus'); default: the --system's. Without --system: a cluster "
      "of --gpus of them on their own scale-up link");
}

} // namespace

Command setup_place(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  CLI::App* sub = app.add_subcommand(
      "place", "Rank every layout of a model on a cluster by a serving step model (TTFT, "
               "TPOT, tokens/s per GPU) and judge the best or the one given");
  add_model_options(*sub, o->model);
  add_cluster_options(*sub, *o);
  add_serving_options(*sub, o->serving);
  add_ep_options(*sub, o->experts, "--ep-mode",
                 "Expert-parallel kernels: normal (DeepEP's high-throughput ones), low-latency "
                 "(DeepEP's decode ones) or nccl (NCCL's all-to-all); default: normal for a "
                 "prefill, low-latency for a decode step (SGLang's --deepep-mode auto)");
  sub->add_option("--top", o->top, "Ranked layouts to show (the chosen one always is)")
      ->type_name("N")
      ->default_str(std::to_string(default_top))
      ->transform(whole_number(1, limits::max_domain));
  for (auto [flag, field, what] : {std::tuple{"--tp", &o->tp, "Tensor-parallel degree"},
                                   std::tuple{"--pp", &o->pp, "Pipeline stages"},
                                   std::tuple{"--ep", &o->ep, "Expert-parallel degree (MoE)"},
                                   std::tuple{"--dp", &o->dp, "Replicas"}}) {
    sub->add_option(flag, *field,
                    std::string(what) + " of an explicit layout to judge" +
                        (field == &o->dp ? "; default: what the other degrees leave" : ""))
        ->type_name("N")
        ->transform(whole_number(1, limits::max_domain));
  }
  add_explain_option(*sub, o->common);
  add_common_options(*sub, o->common);
  sub->footer("Examples:\n"
              "  icx place --model 70b --system dgx-h100 --phase decode --batch 32 --context 2048\n"
              "  icx place --model 405b --system dgx-h200 --objective throughput\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16 --tp 16 --dp 1\n"
              "  icx place --model deepseek-v3 --system gb200-nvl72 --json\n"
              "  icx place --model 70b --system l40s-8 --pcie-topology switch\n"
              "  icx place --model 405b --gpu h100 --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr");
  return {sub, [o] { return run_place(*o); }};
}

} // namespace icx::cli
