// icx place: a layout of a model on a cluster (recommended, or the one given), with each
// split's traffic, wire, time and verdict.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/place_report.hpp"
#include "icx/units_format.hpp"
#include "icx/util/table.hpp"
#include "output.hpp"
#include "terminal.hpp"

namespace icx::cli {

namespace {

struct PlaceOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  std::string system;
  std::optional<int> gpus;
  std::optional<int> gpus_per_node;
  std::string scale_up;
  std::string scale_out;
  std::int64_t tokens = 4096;
  std::optional<int> tp, pp, ep, dp;
  double reserve = default_memory_reserve;
};

/// The flag that chose the part of the cluster a contradiction lies in.
std::string flag_for(ClusterPart part, const PlaceOptions& o) {
  if (part == ClusterPart::scale_out) {
    return !o.scale_out.empty() ? "--scale-out " + o.scale_out : "--system " + o.system;
  }
  return !o.scale_up.empty()      ? "--scale-up " + o.scale_up
         : !o.compute.gpu.empty() ? "--gpu " + o.compute.gpu
                                  : "--system " + o.system;
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
  if (!o.system.empty()) {
    r.system = &for_flag("--system", [&]() -> const System& { return catalog.system(o.system); });
  }
  const std::string gpu = !o.compute.gpu.empty() ? o.compute.gpu
                          : r.system             ? r.system->gpu
                                                 : std::string();
  if (gpu.empty()) {
    throw UsageError("no cluster given: use --system ID (see 'icx systems'), or --gpu ID with "
                     "--gpus N (and --gpus-per-node, --scale-up, --scale-out as needed)");
  }
  r.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(gpu); });
  const std::string up = !o.scale_up.empty() ? o.scale_up
                         : r.system          ? r.system->scale_up_link
                                             : r.gpu->scale_up_link;
  r.scale_up = &for_flag("--scale-up", [&]() -> const Link& { return catalog.link(up); });
  const std::string out = !o.scale_out.empty() ? o.scale_out
                          : r.system           ? r.system->scale_out_link
                                               : std::string();
  if (!out.empty()) {
    r.scale_out = &for_flag("--scale-out", [&]() -> const Link& { return catalog.link(out); });
  }
  r.gpus = o.gpus;
  r.gpus_per_node = o.gpus_per_node;
  return r;
}

void print_header(const PlaceReport& r) {
  const Cluster& c = r.cluster;
  const Workload& w = r.workload;
  const Placement& p = r.placement;
  print_out("Placement of {} ({}, {} of weights) on {} × {}\n", w.model->id, w.dtype->id,
            format_bytes(p.weights), c.gpus, c.gpu->id);
  print_out("cluster  {} node{} × {} GPUs{}; {} inside each {}-GPU domain{}\n", r.nodes,
            r.nodes == 1 ? "" : "s", std::min(c.gpus, c.gpus_per_node),
            r.system != nullptr ? fmt::format(" ({})", r.system->id) : "", c.scale_up->id, c.domain,
            c.gpus > c.domain ? fmt::format(", {} between", c.scale_out->id) : "");
  print_out("prefill  {} tokens: {} of compute per pass on {}\n", w.tokens,
            format_seconds(p.compute), r.compute_assumption);
  print_out("layout   tp {} × ep {} × pp {} × dp {} ({})\n", p.layout.tp, p.layout.ep, p.layout.pp,
            p.layout.dp,
            r.recommended ? fmt::format("recommended: {}", fmt::join(r.layout_reasons, "; "))
                          : std::string("as given"));
  print_out("memory   {} of weights per GPU, {} usable ({} less a {:g} % reserve for "
            "activations and KV cache, --reserve): {}\n\n",
            format_bytes(p.per_gpu_weights), format_bytes(p.usable_per_gpu),
            format_bytes(c.gpu->hbm_capacity), w.memory_reserve * 100,
            p.fits ? "fits" : "does not fit");
}

void print_strategies(const Style& style, const PlaceReport& r) {
  const Placement& p = r.placement;
  TextTable table({{"strategy", Align::left},
                   {"degree", Align::right},
                   {"wire", Align::left},
                   {"traffic per pass", Align::right},
                   {"headline", Align::right},
                   {"expected", Align::right},
                   {"verdict", Align::left}});
  for (const StrategyCost& cost : p.strategies) {
    table.add_row({std::string(to_string(cost.strategy)), std::to_string(cost.degree),
                   cost.wire ? cost.wire->id : "-", format_bytes(cost.bytes),
                   cost.wire ? format_seconds(cost.seconds) : "-",
                   cost.expected_seconds ? format_seconds(*cost.expected_seconds) : "-",
                   paint(style, cost.verdict.level)});
  }
  print_out("{}\n", table.render());
  for (std::size_t i = 0; i < p.strategies.size(); ++i) {
    print_out("  {}: {}\n", to_string(p.strategies[i].strategy), r.strategy_reasons[i]);
  }
  print_out("\noverall: {} — {}\n", paint(style, p.level), r.verdict_reason);
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
  request.tokens = o.tokens;
  request.utilization = o.compute.mfu;
  request.memory_reserve = o.reserve;
  request.layout = {o.tp, o.pp, o.ep, o.dp};
  PlaceReport report;
  try {
    report = place_report(catalog, request);
  } catch (const LayoutError& error) {
    const std::string flag = error.degree.empty() ? "--tp/--pp/--ep/--dp" : "--" + error.degree;
    throw UsageError(fmt::format("{}: {}", flag, error.what()));
  }
  const Style style = style_of(o.common);
  emit(style, report, "strategies", style.explain ? report.derivations : Derivations{}, [&] {
    print_header(report);
    print_strategies(style, report);
  });
  return 0;
}

/// --system, --gpus, --gpus-per-node, --scale-up, --scale-out, --gpu and --mfu.
void add_cluster_options(CLI::App& app, PlaceOptions& options) {
  app.add_option("-s,--system", options.system,
                 "Catalog system: a node or rack (see 'icx systems')")
      ->type_name("ID");
  app.add_option("-g,--gpus", options.gpus, "GPUs in the cluster; default: one node")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  app.add_option("--gpus-per-node", options.gpus_per_node,
                 "GPUs per node; default: the system's, else the GPU's scale-up domain")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  app.add_option("--scale-up", options.scale_up, "Link inside a node; default: the GPU's")
      ->type_name("LINK");
  app.add_option("--scale-out", options.scale_out, "Link between nodes; default: the system's")
      ->type_name("LINK");
  add_compute_options(app, options.compute);
  app.get_option("--gpu")->description(
      "GPU in each node (see 'icx gpus'); default: the --system's. Without --system: a cluster "
      "of --gpus of them on their own scale-up link");
}

} // namespace

Command setup_place(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  CLI::App* sub = app.add_subcommand(
      "place", "Recommend (or judge) a layout of a model on a cluster: which split goes on "
               "which wire");
  add_model_options(*sub, o->model);
  add_cluster_options(*sub, *o);
  sub->add_option("-t,--tokens", o->tokens, "Tokens in the prefill batch judged")
      ->type_name("N")
      ->default_str("4096")
      ->transform(whole_number(1, limits::max_tokens));
  for (auto [flag, field, what] :
       {std::tuple{"--tp", &o->tp, "Tensor-parallel degree"},
        std::tuple{"--pp", &o->pp, "Pipeline stages"},
        std::tuple{"--ep", &o->ep, "Expert-parallel degree (MoE)"},
        std::tuple{"--dp", &o->dp, "Replicas; default: what the other degrees leave"}}) {
    sub->add_option(flag, *field, std::string(what) + " of an explicit layout to judge")
        ->type_name("N")
        ->transform(whole_number(1, limits::max_domain));
  }
  add_reserve_option(*sub, o->reserve);
  add_explain_option(*sub, o->common);
  add_common_options(*sub, o->common);
  sub->footer("Examples:\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16\n"
              "  icx place --model 70b --system dgx-h100 --gpus 16 --tp 16 --dp 1\n"
              "  icx place --model deepseek-v3 --system gb200-nvl72 --json\n"
              "  icx place --model 405b --gpu h100 --gpus 16 --gpus-per-node 8 --scale-up "
              "nvlink4 --scale-out ib-ndr");
  return {sub, [o] { return run_place(*o); }};
}

} // namespace icx::cli
