// icx offload: maps flags to an OffloadRequest and prints the report
// (icx/offload_report.hpp) as a table, JSON, CSV or its derivations.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "host_link_format.hpp"
#include "host_link_options.hpp"
#include "icx/limits.hpp"
#include "icx/offload_report.hpp"
#include "icx/units_format.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"

namespace icx::cli {

namespace {

struct OffloadOptions {
  CommonOptions common;
  WeightsOptions weights;
  std::string gpu;
  int gpus = 1;
  std::optional<std::int64_t> batch;
  std::optional<std::int64_t> context;
  double reserve = default_memory_reserve;
  std::vector<std::string> host_links;
};

void print_header(const ResolvedModel& model, const OffloadReport& report) {
  print_out("Offload to host memory: one decode step with the spill streamed over the host "
            "link\n");
  print_out("model     {}\n", describe_weights_model(model));
  print_out("GPUs      {} × {} [{}]: {} HBM at {} each\n", report.gpus, report.gpu->name,
            report.gpu->id, format_bytes(report.gpu->hbm_capacity),
            format_rate(report.gpu->hbm_bandwidth));
  if (report.kv_load) {
    print_out("KV cache  {} sequences × {} tokens, {} like the weights\n\n", report.kv_load->batch,
              report.kv_load->context, report.dtype->id);
  } else {
    print_out("KV cache  none (give --batch and --context to add it)\n\n");
  }
}

void print_memory(const ResolvedModel& model, const OffloadReport& report) {
  const Offload& r = report.result;
  TextTable memory({{"memory", Align::left}, {"bytes", Align::right}, {"from", Align::left}});
  memory.add_row({"weights", format_bytes(report.weights), describe_weights(model)});
  memory.add_row({"KV cache", format_bytes(report.kv_cache),
                  report.kv_load ? kv_cache_terms(report, "", "") : "-"});
  const bool copies = report.kv_copies > 1;
  if (copies) {
    memory.add_row({"KV held", format_bytes(r.kv_held),
                    fmt::format("KV cache × {}: {}", report.kv_copies, report.kv_copies_why)});
  }
  memory.add_row(
      {"needed", format_bytes(r.needed), copies ? "weights + KV held" : "weights + KV cache"});
  memory.add_row({"HBM", format_bytes(r.hbm), hbm_from(report)});
  memory.add_row({"in HBM", format_bytes(r.resident), "read from HBM every step"});
  memory.add_row({"spilled", format_bytes(r.spilled),
                  r.spilled.value() > 0 ? "needed − HBM: in host memory, streamed every step"
                                        : "nothing: it all fits in HBM"});
  print_out("{}\n", memory.render());
  print_out("step with everything in HBM: {} = {} / ({} × {})\n\n", format_seconds(r.step_all_hbm),
            format_bytes(r.needed), report.gpus, format_rate(report.gpu->hbm_bandwidth));
}

void print_links(const OffloadReport& report) {
  TextTable links({{"host link", Align::left},
                   {"one way", Align::right},
                   {"HBM ÷ link", Align::right},
                   {"step", Align::right},
                   {"slowdown", Align::right},
                   {"measured", Align::right},
                   {"expected step", Align::right},
                   {"slowdown", Align::right}});
  for (const HostLinkStep& step : report.result.links) {
    links.add_row({fmt::format("{} [{}]", step.link->name, step.link->id),
                   format_rate(step.bandwidth), format_ratio(step.tier_ratio),
                   format_seconds(step.step), format_ratio(step.slowdown),
                   step.expected_bandwidth ? format_rate(*step.expected_bandwidth) : "not measured",
                   step.expected_step ? format_seconds(*step.expected_step) : "-",
                   step.expected_slowdown ? format_ratio(*step.expected_slowdown) : "-"});
  }
  print_out("{}\n", links.render());
}

void print_table(const ResolvedModel& model, const OffloadReport& report) {
  print_header(model, report);
  print_memory(model, report);
  print_links(report);
  print_out("step = bytes in HBM / (GPUs × HBM bandwidth) + spilled bytes / (GPUs × host-link "
            "bandwidth)\n"
            "  decode reads every byte of weights and KV once per step; each GPU streams its "
            "share of the\n"
            "  spill over its own link, not overlapped with its HBM reads.\n"
            "HBM ÷ link: how many times slower per byte the host tier is than HBM. one way: the "
            "headline\n"
            "figure counted in one direction; measured: host-to-device copy bandwidth.\n");
  if (report.kv_load && report.kv_copy_reason == KvCopyReason::latent_per_rank) {
    print_out("KV cache: latent attention caches one latent per token and layer, shared by "
              "every head, so\n  each of the {} tensor-parallel ranks holds all of it (as vLLM "
              "and SGLang do without data-parallel\n  attention).\n",
              report.tp_width);
  }
  std::vector<const Entry*> sources;
  if (!model.custom()) {
    sources.push_back(report.model);
  }
  sources.push_back(report.gpu);
  for (const HostLinkStep& step : report.result.links) {
    sources.push_back(step.link);
  }
  print_out("\n{}", sources_section(sources));
}

/// The KV load --batch and --context describe: both or neither.
std::optional<KvLoad> kv_load(const OffloadOptions& options, const ResolvedModel& model) {
  if (!options.batch && !options.context) {
    return std::nullopt;
  }
  if (!options.batch || !options.context) {
    throw UsageError(fmt::format("{}: given without {}; the KV cache needs both (e.g. --batch 8 "
                                 "--context 8192)",
                                 options.batch ? "--batch" : "--context",
                                 options.batch ? "--context" : "--batch"));
  }
  if (model.model.kv_heads < 1 || model.model.head_dim < 1) {
    throw UsageError("--batch: the KV cache needs the model's KV heads and head dimension, which "
                     "a custom model (--hidden, --layers) does not give; use --model ID");
  }
  return KvLoad{*options.batch, *options.context};
}

int run_offload(const OffloadOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_weights_model(catalog, options.weights);
  if (options.gpu.empty()) {
    throw UsageError("no GPU given: use --gpu ID (e.g. --gpu h100; see 'icx gpus')");
  }
  OffloadRequest request;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(options.gpu); });
  request.gpus = options.gpus;
  request.reserve = options.reserve;
  request.kv = kv_load(options, model);
  request.host_links = host_links(catalog, "--host-link", options.host_links);
  const OffloadReport report = for_gpus_flag([&] { return offload_report(request); });
  Json doc = json_document("icx.offload/1");
  doc["model"] = weights_model_json(model);
  doc.update(Json(report));
  const Style style = style_of(options.common);
  emit(style, std::move(doc), "host_links",
       style.explain ? offload_derivations(model, report) : Derivations{},
       [&] { print_table(model, report); });
  return exit_ok;
}

} // namespace

Command setup_offload(CLI::App& app) {
  auto options = std::make_shared<OffloadOptions>();
  CLI::App* sub = app.add_subcommand(
      "offload", "What does not fit in HBM, and the decode-step cost of streaming it over the "
                 "host link");
  add_weights_options(*sub, options->weights);
  sub->add_option("--gpu", options->gpu, "GPU id or alias (see 'icx gpus')")->type_name("ID");
  sub->add_option("-g,--gpus", options->gpus, "GPUs sharing weights and KV cache in equal parts")
      ->type_name("N")
      ->default_str("1")
      ->transform(whole_number(1, limits::max_domain));
  sub->add_option("--batch", options->batch, "Sequences in the batch (KV cache; with --context)")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
  sub->add_option("--context", options->context,
                  "Tokens of context per sequence (KV cache; with --batch)")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
  add_reserve_option(*sub, options->reserve);
  add_host_link_option(*sub, options->host_links);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx offload --model 70b --gpu h100\n"
              "  icx offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c\n"
              "  icx offload --model 70b --gpu h100 --gpus 2 --batch 8 --context 8192 --json\n"
              "  icx offload --model 405b --gpu h200 --gpus 4 --reserve 0.1 --host-link all");
  return {sub, [options] { return run_offload(*options); }};
}

} // namespace icx::cli
