// icx ep: expert-parallel dispatch and combine of one MoE layer per GPU, split into the
// network and NVLink parts, under the headline and expected models, and per forward pass.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/units_format.hpp"
#include "icx/reports/ep.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/util/table.hpp"
#include "icx/words/ep.hpp"
#include "options/common.hpp"
#include "options/ep.hpp"
#include "options/fabric.hpp"
#include "options/serving.hpp"
#include "output/output.hpp"

namespace icx::cli {

namespace {

struct EpCommandOptions {
  CommonOptions common;
  ModelOptions model;
  FabricOptions fabric;
  std::optional<int> gpus;
  std::optional<std::int64_t> tokens_per_gpu;
  std::optional<std::int64_t> batch;
  EpOptions ep;
  std::string combine_dtype;
};

/// What to type when the group does not divide the experts: the fewest redundant experts that
/// make it divide (DeepSeek's EPLB replicas), or nothing.
std::string divide_hint(const EpRequest& r) {
  if (r.gpus < min_collective_gpus ||
      divides_experts(*r.model, r.gpus, r.routing.redundant_experts)) {
    return {};
  }
  const int slots = r.model->experts + r.routing.redundant_experts;
  const int more = r.gpus - slots % r.gpus;
  return fmt::format("; use a group size that divides {}, or --redundant-experts {}", slots,
                     r.routing.redundant_experts + more);
}

/// The GPUs in the group: --gpus, else one node of the fabric.
int group_size(const EpCommandOptions& o, const Catalog& catalog) {
  if (o.gpus) {
    return *o.gpus;
  }
  if (o.fabric.gpus_per_node) {
    return *o.fabric.gpus_per_node;
  }
  if (!o.fabric.system.empty()) {
    return for_flag("--system", [&]() -> const System& { return catalog.system(o.fabric.system); })
        .scale_up_domain;
  }
  throw UsageError("--gpus: give the expert-parallel group's size, e.g. --gpus 16, or a "
                   "--system (one node)");
}

EpRequest request_of(const EpCommandOptions& o, const Catalog& catalog,
                     const ResolvedModel& resolved) {
  const Model& model = resolved.model;
  if (!model.is_moe()) {
    throw UsageError(fmt::format("--model {}: a dense model has no experts to dispatch to; "
                                 "give an MoE model, e.g. --model deepseek-v3 or --model mixtral",
                                 model.id));
  }
  if (o.fabric.system.empty() && o.fabric.scale_up.empty()) {
    throw UsageError("no cluster given: use --system ID (see 'icx systems'), or --scale-up LINK "
                     "with --gpus-per-node, --scale-out and --nics-per-node");
  }
  EpRequest r;
  r.model = &model;
  r.gpus = group_size(o, catalog);
  r.fabric = parse_fabric(catalog, o.fabric, {}, r.gpus);
  r.mode = o.ep.mode.value_or(EpMode::normal);
  if (o.batch) {
    // One token per sequence, each GPU attending to its own share (data-parallel attention).
    const std::int64_t per_gpu = (*o.batch + r.gpus - 1) / r.gpus; // whole sequences
    r.tokens_per_gpu = static_cast<double>(per_gpu);
  } else {
    r.tokens_per_gpu =
        static_cast<double>(o.tokens_per_gpu.value_or(default_tokens_per_gpu(r.mode)));
  }
  // The combine sends the activations, which engines keep 16-bit (activation_dtype); DeepEP
  // dispatches in FP8, NCCL's all-to-all the activations (default_dispatch_dtype).
  const Dtype& activations = activation_dtype(catalog, resolved.dtype);
  const Dtype* dispatch = dispatch_dtype(catalog, o.ep);
  r.dispatch_dtype =
      dispatch != nullptr ? dispatch : &default_dispatch_dtype(catalog, r.mode, activations);
  r.combine_dtype =
      o.combine_dtype.empty() ? &activations : &for_flag("--combine-dtype", [&]() -> const Dtype& {
        return catalog.dtype(o.combine_dtype);
      });
  r.routing = o.ep.routing;
  if (const Check check = check_ep(r); !check) {
    throw UsageError(fmt::format("--gpus {}: {}{}", r.gpus, check.reason(), divide_hint(r)));
  }
  return r;
}

void print_report(const Style& style, const EpReport& r) {
  const EpRequest& q = r.request;
  const Fabric& f = q.fabric;
  const int per_node = std::min(f.gpus_per_node, q.gpus);
  const EpDestinations& d = r.layer.destinations;
  print_out("Expert-parallel dispatch and combine per GPU, one MoE layer\n");
  print_out("model    {}: hidden {}, {} routed experts, top {}; {} of {} layers are MoE\n",
            q.model->id, q.model->hidden, q.model->experts, q.model->experts_per_token,
            r.moe_layers, q.model->layers);
  const std::string out = q.gpus > per_node ? fmt::format(", {} × {} per node between",
                                                          f.nics_per_node, f.scale_out->id)
                                            : std::string();
  print_out("group    EP {} = {} node{} × {} GPUs; {} inside{}; {} expert{} per GPU\n", q.gpus,
            q.gpus / per_node, q.gpus > per_node ? "s" : "", per_node, f.scale_up->id, out,
            r.experts_per_gpu, r.experts_per_gpu == 1 ? "" : "s");
  print_out("kernel   {} (--mode {}), {} tokens per GPU\n", ep_mode_text(q.mode), to_string(q.mode),
            q.tokens_per_gpu);
  if (q.gpus > per_node) {
    print_out("routing  a token's experts lie on {:.2f} nodes (at most {}) and {:.2f} GPUs on "
              "average\n\n",
              d.nodes, d.max_nodes, d.gpus);
  } else {
    print_out("routing  a token's experts lie on {:.2f} GPUs on average\n\n", d.gpus);
  }
  TextTable table({{"kernel", Align::left},
                   {"bytes/token", Align::right},
                   {"network", Align::right},
                   {"scale-up", Align::right},
                   {"headline", Align::right},
                   {"expected", Align::right}});
  for (const auto& [name, k, token] :
       {std::tuple{"dispatch", r.layer.dispatch, r.layer.dispatch_token},
        std::tuple{"combine", r.layer.combine, r.layer.combine_token}}) {
    table.add_row({name, format_bytes(token), format_bytes(k.network), format_bytes(k.scale_up),
                   format_seconds(k.headline), k.expected ? format_seconds(*k.expected) : "-"});
  }
  print_out("{}\n", fit_table(style, table));
  const auto expected = r.layer.expected(r.moe_layers);
  print_out("per pass ({} MoE layers): {} per GPU; {} headline, {} expected\n", r.moe_layers,
            format_bytes(r.layer.bytes(r.moe_layers)),
            format_seconds(r.layer.headline(r.moe_layers)),
            expected ? format_seconds(*expected) : "-");
  print_out("network: bytes each GPU sends to other nodes; scale-up: bytes it sends inside its "
            "node; headline: vendor bandwidth, no latency\n");
  print_out("assumed:\n");
  for (const std::string& line : r.assumptions) {
    print_out("  {}\n", line);
  }
}

int run_ep(const EpCommandOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_model(catalog, options.model);
  const EpReport report = expert_parallel_report(request_of(options, catalog, model));
  const Style style = style_of(options.common);
  const Derivations derivations =
      style.explain ? derive_ep(report.request, report.layer, report.moe_layers) : Derivations{};
  emit(style, report, "kernels", derivations, [&] { print_report(style, report); });
  return 0;
}

} // namespace

Command setup_ep(CLI::App& app) {
  auto o = std::make_shared<EpCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "ep", "Expert-parallel dispatch and combine of one MoE layer per GPU, over NVLink and the "
            "network, under the headline and expected models");
  add_model_options(*sub, o->model);
  sub->add_option("-g,--gpus", o->gpus, "GPUs in the expert-parallel group; default: one node")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_fabric_options(*sub, o->fabric);
  CLI::Option* tokens =
      sub->add_option("-t,--tokens-per-gpu", o->tokens_per_gpu,
                      "Tokens each GPU dispatches per layer; default: 4096 for normal and nccl, "
                      "128 for low-latency (DeepEP's benchmark settings)")
          ->type_name("N")
          ->transform(whole_number(1, limits::max_tokens));
  add_batch_option(*sub, o->batch,
                   "Decode sequences across the group, one token each (tokens per GPU = batch / "
                   "GPUs, rounded up)")
      ->excludes(tokens);
  add_ep_options(*sub, o->ep, "--mode",
                 "normal (DeepEP's high-throughput kernels, as for a prefill; the default), "
                 "low-latency (DeepEP's decode kernels) or nccl (NCCL's all-to-all)");
  sub->add_option("--combine-dtype", o->combine_dtype, "What the combine sends; default bf16")
      ->type_name("ID");
  add_common_options(*sub, o->common);
  add_explain_option(*sub, o->common);
  sub->footer("Examples:\n"
              "  icx ep --model deepseek-v3 --system dgx-h100 --gpus 16\n"
              "  icx ep --model deepseek-v3 --gpus 16 --gpus-per-node 8 --scale-up nvlink4 "
              "--scale-out ib-ndr --nics-per-node 8 --tokens-per-gpu 4096 --json\n"
              "  icx ep --model deepseek-v3 --system dgx-h100 --gpus 32 --mode low-latency\n"
              "  icx ep --model deepseek-v3 --gpus 32 --gpus-per-node 8 --scale-up nvlink4-400 "
              "--scale-out ib-ndr --mode low-latency\n"
              "  icx ep --model deepseek-v3 --system gb200-nvl72 --gpus 72 --redundant-experts 32 "
              "--mode low-latency "
              "--batch 9216\n"
              "  icx ep --model mixtral --system dgx-h100 --gpus 8 --mode nccl --explain\n"
              "  icx ep --model deepseek-v3 --system dgx-h200 --gpus 144 --redundant-experts 32 "
              "--skew 1.3");
  return {sub, [o] { return run_ep(*o); }};
}

} // namespace icx::cli
