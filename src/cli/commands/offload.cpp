// icx offload: maps flags to an OffloadRequest and prints the report
// (icx/reports/offload.hpp) as a table, JSON, CSV or its derivations.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/reports/offload.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text.hpp"
#include "icx/words/engine.hpp"
#include "options/common.hpp"
#include "options/host_link.hpp"
#include "options/offload.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "sweeps/document.hpp"
#include "sweeps/offload.hpp"
#include "views/host_link.hpp"

namespace icx::cli {

namespace {

void print_header(const ResolvedModel& model, const OffloadReport& report) {
  print_out("Offload to host memory: one decode step with the spill streamed over the host "
            "link\n");
  print_out("model     {}\n", describe_weights_model(model));
  print_out("GPUs      {} × {} [{}]: {} HBM at {} each\n", report.gpus, report.gpu->name,
            report.gpu->id, format_bytes(report.gpu->memory()),
            format_rate(report.gpu->hbm_bandwidth));
  if (report.kv_load) {
    print_out("KV cache  {} × {} tokens, {} like the weights\n\n",
              counted(report.kv_load->batch, "sequence"), report.kv_load->context,
              report.dtype->id);
  } else {
    print_out("KV cache  none (give --batch and --context to add it)\n\n");
  }
}

std::string host_memory_from(const HostMemoryOrigin& origin) {
  return (origin.words.empty() ? "--host-memory" : origin.words) + ": the spill fits";
}

void print_memory(const Style& style, const ResolvedModel& model, const OffloadReport& report,
                  const HostMemoryOrigin& origin) {
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
  memory.add_row(
      {"host", r.host_memory ? format_bytes(*r.host_memory) : "-",
       r.host_memory ? host_memory_from(origin) : "not given: the spill is not checked"});
  print_out("{}\n", fit_table(style, memory));
  print_out("step with everything in HBM: {} = {} / ({} × {}: {:g} % of {}{}, the reads' "
            "achieved fraction)\n\n",
            format_seconds(r.step_all_hbm), format_bytes(r.needed), report.gpus,
            format_rate(report.gpu->hbm_bandwidth * r.hbm_fraction), r.hbm_fraction * 100,
            format_rate(report.gpu->hbm_bandwidth),
            hbm_fraction_origin(report.hbm_fraction_given, report.tuning, *report.gpu));
}

void print_links(const Style& style, const OffloadReport& report) {
  TextTable links({{"host link", Align::left, 6, 20},
                   {"one way", Align::right},
                   {"HBM ÷ link", Align::right, 5},
                   {"step", Align::right},
                   {"slowdown", Align::right, 2},
                   {"measured", Align::right, 4},
                   {"per GPU", Align::right, 3},
                   {"bound by", Align::left},
                   {"expected step", Align::right},
                   {"slowdown", Align::right}});
  for (const HostLinkStep& step : report.result.links) {
    const std::optional<StreamRate>& stream = step.expected_stream;
    links.add_row({fmt::format("{} [{}]", step.link->name, step.link->id),
                   format_rate(step.bandwidth), format_ratio(step.tier_ratio),
                   format_seconds(step.step), format_ratio(step.slowdown),
                   step.expected_bandwidth ? format_rate(*step.expected_bandwidth) : "not measured",
                   stream ? format_rate(stream->rate) : "-",
                   stream ? std::string(to_string(stream->limit)) : "-",
                   step.expected_step ? format_seconds(*step.expected_step) : "-",
                   step.expected_slowdown ? format_ratio(*step.expected_slowdown) : "-"});
  }
  print_out("{}\n", fit_table(style, links));
}

void print_notes(const OffloadReport& report) {
  const bool overlap = report.result.engine == OffloadEngine::prefetch;
  print_out("step = {}\n", overlap
                               ? "max(bytes in HBM / (GPUs × HBM bandwidth reached), spilled "
                                 "bytes / (GPUs × per-GPU stream rate))"
                               : "bytes in HBM / (GPUs × HBM bandwidth reached) + spilled bytes "
                                 "/ (GPUs × per-GPU stream rate)");
  print_out("  decode reads every byte of weights and KV once per step; each GPU streams its share "
            "of the\n  spill {}.\n",
            overlap ? "while its resident layers compute (--offload-engine prefetch: the best "
                      "case of a\n  prefetching offloader)"
                    : "on its compute stream, not overlapped with its HBM reads (--offload-engine "
                      "vllm:\n  vLLM --cpu-offload-gb)");
  print_out("HBM ÷ link: how many times slower per byte the host tier is than HBM. one way: the "
            "headline\nfigure counted in one direction; measured: host-to-device copy bandwidth; "
            "per GPU: what each\nGPU streams at once ({}).\n",
            report.system != nullptr && report.system->host
                ? fmt::format("{}: {} GPUs per uplink, host DRAM {} per node of {} GPUs",
                              report.system->id, report.system->host->gpus_per_uplink,
                              format_rate(report.system->host->dram_bandwidth),
                              report.system->gpus_per_node)
                : "no --system: each GPU alone on its link");
  if (!report.result.host_memory) {
    print_out("host memory: not given, so the spill was not checked against it; give "
              "--host-memory BYTES or\n  --system ID to check it.\n");
  }
}

void print_table(const Style& style, const ResolvedModel& model, const OffloadReport& report,
                 const HostMemoryOrigin& origin) {
  print_header(model, report);
  print_memory(style, model, report, origin);
  print_links(style, report);
  print_notes(report);
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
  if (report.system != nullptr && report.system->host) {
    print_out("  {} host side: {}\n", report.system->id, report.system->host->source);
  }
  if (report.tuning != nullptr) {
    print_out("  {} '{}' tuning: {}\n", report.gpu->id, report.tuning->id, report.tuning->source);
  }
}

int run_offload(const OffloadOptions& options) {
  const Style style = style_of(options.common);
  check_sweep_flags(options.sweep, style, !options.sweep.sweep.empty(),
                    "--sweep batch=1:256 (with --context)");
  const std::optional<Sweep> sweep = sweep_of(options.sweep, offload_sweep_params);
  if (sweep) {
    check_offload_sweep(options, *sweep);
  }
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_weights_model(catalog, options.weights);
  HostMemoryOrigin origin;
  if (sweep) {
    const OffloadRequest base =
        offload_request(catalog, offload_sweep_base(options, *sweep), model, origin);
    SweepWriter out(style, options.sweep);
    out.finish(offload_sweep(base, origin, *sweep, out));
    return exit_ok;
  }
  const OffloadRequest request = offload_request(catalog, options, model, origin);
  const OffloadReport report = for_gpus_flag([&] { return offload_report(request); });
  check_host_memory(report, origin);
  Json doc = json_document("icx.offload/1");
  doc["model"] = weights_model_json(model);
  doc.update(Json(report));
  emit(style, std::move(doc), "host_links",
       style.explain ? offload_derivations(model, report) : Derivations{},
       [&] { print_table(style, model, report, origin); });
  return exit_ok;
}

} // namespace

Command setup_offload(CLI::App& app) {
  auto options = std::make_shared<OffloadOptions>();
  CLI::App* sub = app.add_subcommand(
      "offload", "What does not fit in HBM, and the decode-step cost of streaming it over the "
                 "host link");
  add_offload_options(*sub, *options);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer(
      "Examples:\n"
      "  icx offload --model 70b --gpu h100\n"
      "  icx offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c\n"
      "  icx offload --model 70b --gpu h100 --gpus 2 --batch 8 --context 8192 --json\n"
      "  icx offload --model 405b --gpu h200 --gpus 4 --reserve 0.1 --host-link all\n"
      "  icx offload --model 405b --system dgx-h100 --gpus 4\n"
      "  icx offload --model 70b --gpu h100 --host-memory 512GB --offload-engine prefetch\n"
      "  icx offload --model 70b --gpu h100 --context 8192 --sweep batch=1:64\n"
      "  icx offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --batch 16 --sweep "
      "context=1024:131072 --plot offload.svg\n"
      "\n"
      "Out of scope: llama.cpp's partial offload, where the CPU computes the layers left in "
      "host\nmemory (bounded by host DRAM bandwidth and CPU speed, not by the host link).");
  return {sub, [options] { return run_offload(*options); }};
}

} // namespace icx::cli
