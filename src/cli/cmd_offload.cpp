// icx offload: what does not fit in HBM, and what streaming it over the host link every
// decode step costs against everything in HBM, per host link.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "host_link_options.hpp"
#include "icx/host_link.hpp"
#include "icx/limits.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"

namespace icx::cli {

namespace {

struct OffloadOptions {
  CommonOptions common;
  WeightsOptions weights;
  std::string gpu;
  int gpus = 1;
  std::optional<std::int64_t> batch;
  std::optional<std::int64_t> context;
  double hbm_reserve = 0;
  std::vector<std::string> host_links;
};

/// What the command works out before printing anything.
struct OffloadRun {
  ResolvedModel model;
  const Gpu* gpu = nullptr;
  int gpus = 0;
  double hbm_reserve = 0;
  std::optional<std::int64_t> batch;
  std::optional<std::int64_t> context;
  Bytes weights;
  Bytes kv_cache;
  /// Tensor-parallel ranks the GPUs form, and the copies of the KV cache they hold.
  int tp_width = 1;
  int kv_copies = 1;
  Offload result;
};

/// How one token's KV cache is counted: "61 layers × (512 + 64) latent" or
/// "2 × 80 layers × 8 KV heads × 128 head dim".
std::string kv_formula(const Model& model) {
  if (model.latent_attention) {
    return fmt::format("{} layers × ({} + {}) latent", model.layers,
                       model.latent_attention->kv_lora_rank,
                       model.latent_attention->qk_rope_head_dim);
  }
  return fmt::format("2 × {} layers × {} KV heads × {} head dim", model.layers, model.kv_heads,
                     model.head_dim);
}

/// Why the GPUs hold more than one copy of the KV cache.
std::string kv_copies_reason(const OffloadRun& run) {
  if (run.model.model.latent_attention) {
    return fmt::format("each of {} tensor-parallel ranks holds the whole latent cache, not split "
                       "by head",
                       run.tp_width);
  }
  return fmt::format("a {}-GPU tensor-parallel group replicates the {} KV heads", run.tp_width,
                     run.model.model.kv_heads);
}

/// The KV cache of --batch sequences of --context tokens, or none without those flags.
Bytes kv_cache(const OffloadOptions& options, const ResolvedModel& model) {
  if (!options.batch && !options.context) {
    return Bytes::of(0);
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
  return kv_cache_bytes(kv_shape(model.model, model.dtype.bytes_per_element), *options.batch,
                        *options.context);
}

std::string hbm_from(const OffloadRun& run) {
  const std::string per_gpu = format_bytes(run.gpu->hbm_capacity);
  const std::string reserve =
      run.hbm_reserve > 0 ? fmt::format(" × (1 − {} reserved)", run.hbm_reserve) : "";
  return fmt::format("{} GPU{} × {}{}", run.gpus, run.gpus == 1 ? "" : "s", per_gpu, reserve);
}

std::string optional_ratio(const std::optional<double>& ratio) {
  return ratio ? format_ratio(*ratio) : "-";
}

void print_table(const OffloadRun& run) {
  const Offload& r = run.result;
  print_out("Offload to host memory: one decode step with the spill streamed over the host "
            "link\n");
  print_out("model     {}\n", describe_weights_model(run.model));
  print_out("GPUs      {} × {} [{}]: {} HBM at {} each\n", run.gpus, run.gpu->name, run.gpu->id,
            format_bytes(run.gpu->hbm_capacity), format_rate(run.gpu->hbm_bandwidth));
  if (run.batch) {
    print_out("KV cache  {} sequences × {} tokens, {} like the weights\n", *run.batch, *run.context,
              run.model.dtype.id);
  } else {
    print_out("KV cache  none (give --batch and --context to add it)\n");
  }
  print_out("\n");

  TextTable memory({{"memory", Align::left}, {"bytes", Align::right}, {"from", Align::left}});
  memory.add_row({"weights", format_bytes(run.weights), describe_weights(run.model)});
  memory.add_row({"KV cache", format_bytes(run.kv_cache),
                  run.batch
                      ? fmt::format("{} × {} B × {} × {}", kv_formula(run.model.model),
                                    run.model.dtype.bytes_per_element, *run.batch, *run.context)
                      : "-"});
  if (run.kv_copies > 1) {
    memory.add_row({"KV held", format_bytes(r.kv_held),
                    fmt::format("KV cache × {}: {}", run.kv_copies, kv_copies_reason(run))});
  }
  memory.add_row({"needed", format_bytes(r.needed),
                  run.kv_copies > 1 ? "weights + KV held" : "weights + KV cache"});
  memory.add_row({"HBM", format_bytes(r.hbm), hbm_from(run)});
  memory.add_row({"in HBM", format_bytes(r.resident), "read from HBM every step"});
  memory.add_row({"spilled", format_bytes(r.spilled),
                  r.spilled.value() > 0 ? "needed − HBM: in host memory, streamed every step"
                                        : "nothing: it all fits in HBM"});
  print_out("{}\n", memory.render());

  print_out("step with everything in HBM: {} = {} / ({} × {})\n\n", format_seconds(r.step_all_hbm),
            format_bytes(r.needed), run.gpus, format_rate(run.gpu->hbm_bandwidth));

  TextTable links({{"host link", Align::left},
                   {"one way", Align::right},
                   {"HBM ÷ link", Align::right},
                   {"step", Align::right},
                   {"slowdown", Align::right},
                   {"measured", Align::right},
                   {"expected step", Align::right},
                   {"slowdown", Align::right}});
  for (const HostLinkStep& step : r.links) {
    links.add_row({fmt::format("{} [{}]", step.link->name, step.link->id),
                   format_rate(step.bandwidth), format_ratio(step.tier_ratio),
                   format_seconds(step.step), format_ratio(step.slowdown),
                   step.expected_bandwidth ? format_rate(*step.expected_bandwidth) : "not measured",
                   step.expected_step ? format_seconds(*step.expected_step) : "-",
                   optional_ratio(step.expected_slowdown)});
  }
  print_out("{}\n", links.render());
  print_out("step = bytes in HBM / (GPUs × HBM bandwidth) + spilled bytes / (GPUs × host-link "
            "bandwidth)\n"
            "  decode reads every byte of weights and KV once per step; each GPU streams its "
            "share of the\n"
            "  spill over its own link, not overlapped with its HBM reads.\n"
            "HBM ÷ link: how many times slower per byte the host tier is than HBM. one way: the "
            "headline\n"
            "figure counted in one direction; measured: host-to-device copy bandwidth.\n");
  if (run.batch && run.model.model.latent_attention) {
    print_out("KV cache: latent attention caches one latent per token and layer, shared by "
              "every head, so\n  each of the {} tensor-parallel ranks holds all of it (as vLLM "
              "and SGLang do without data-parallel\n  attention).\n",
              run.tp_width);
  }
  print_out("\n");
  std::vector<const Entry*> sources;
  if (!run.model.custom()) {
    sources.push_back(&run.model.model);
  }
  sources.push_back(run.gpu);
  for (const HostLinkStep& step : r.links) {
    sources.push_back(step.link);
  }
  print_out("{}", sources_section(sources));
}

Json optional_json(const std::optional<double>& value) {
  return value ? json_number(*value) : Json(nullptr);
}

Json link_json(const HostLinkStep& step) {
  Json j;
  j["id"] = step.link->id;
  j["name"] = step.link->name;
  j["bandwidth_bytes_per_s"] = json_number(step.bandwidth.value());
  j["tier_ratio"] = json_number(step.tier_ratio);
  j["step_seconds"] = json_number(step.step.value());
  j["slowdown"] = json_number(step.slowdown);
  j["expected_bandwidth_bytes_per_s"] = optional_json(
      step.expected_bandwidth ? std::optional(step.expected_bandwidth->value()) : std::nullopt);
  j["expected_step_seconds"] =
      optional_json(step.expected_step ? std::optional(step.expected_step->value()) : std::nullopt);
  j["expected_slowdown"] = optional_json(step.expected_slowdown);
  return j;
}

Derivations derive(const OffloadRun& run) {
  const Offload& r = run.result;
  Derivations d;
  d.push_back({"weights", describe_weights(run.model), run.weights.value(),
               format_count(run.weights.value()) + " B"});
  if (run.batch) {
    d.push_back({"KV cache",
                 fmt::format("{} × {} B × {} sequences × {} tokens", kv_formula(run.model.model),
                             run.model.dtype.bytes_per_element, *run.batch, *run.context),
                 run.kv_cache.value(), format_count(run.kv_cache.value()) + " B"});
    d.push_back({"KV held",
                 fmt::format("{} B × {} ({})", format_count(run.kv_cache.value()), run.kv_copies,
                             run.kv_copies > 1 ? kv_copies_reason(run)
                             : run.model.model.latent_attention
                                 ? "one rank: the whole latent cache"
                                 : "KV heads split over the tensor-parallel ranks"),
                 r.kv_held.value(), format_count(r.kv_held.value()) + " B"});
  }
  d.push_back({"needed",
               fmt::format("{} B weights + {} B KV held", format_count(run.weights.value()),
                           format_count(r.kv_held.value())),
               r.needed.value(), format_count(r.needed.value()) + " B"});
  d.push_back({"HBM",
               fmt::format("{} GPUs × {} × (1 − {})", run.gpus, format_bytes(run.gpu->hbm_capacity),
                           run.hbm_reserve),
               r.hbm.value(), format_count(r.hbm.value()) + " B"});
  d.push_back({"spilled",
               fmt::format("max(0, {} B − {} B)", format_count(r.needed.value()),
                           format_count(r.hbm.value())),
               r.spilled.value(), format_count(r.spilled.value()) + " B"});
  d.push_back({"step, all in HBM",
               fmt::format("{} B / ({} × {})", format_count(r.needed.value()), run.gpus,
                           format_rate(run.gpu->hbm_bandwidth)),
               r.step_all_hbm.value(), format_seconds(r.step_all_hbm)});
  for (const HostLinkStep& step : r.links) {
    d.push_back(
        {fmt::format("step over {}", step.link->id),
         fmt::format("{} B / ({} × {}) + {} B / ({} × {})", format_count(r.resident.value()),
                     run.gpus, format_rate(run.gpu->hbm_bandwidth), format_count(r.spilled.value()),
                     run.gpus, format_rate(step.bandwidth)),
         step.step.value(), format_seconds(step.step)});
    d.push_back({fmt::format("slowdown over {}", step.link->id),
                 fmt::format("{} / {}", format_seconds(step.step), format_seconds(r.step_all_hbm)),
                 step.slowdown, format_ratio(step.slowdown)});
  }
  return d;
}

Json to_json(const OffloadRun& run) {
  const Offload& r = run.result;
  Json doc = json_document("icx.offload/1");
  doc["model"] = weights_model_json(run.model);
  Json& gpu = doc["gpu"];
  gpu["id"] = run.gpu->id;
  gpu["hbm_bytes"] = json_number(run.gpu->hbm_capacity.value());
  gpu["hbm_bandwidth_bytes_per_s"] = json_number(run.gpu->hbm_bandwidth.value());
  doc["gpus"] = run.gpus;
  doc["hbm_reserve"] = json_number(run.hbm_reserve);
  if (run.batch) {
    doc["batch"] = *run.batch;
    doc["context"] = *run.context;
  }
  doc["weights_bytes"] = json_number(run.weights.value());
  doc["kv_cache_bytes"] = json_number(run.kv_cache.value());
  doc["kv_cache_copies"] = run.kv_copies;
  doc["kv_held_bytes"] = json_number(r.kv_held.value());
  doc["hbm_bytes"] = json_number(r.hbm.value());
  doc["needed_bytes"] = json_number(r.needed.value());
  doc["resident_bytes"] = json_number(r.resident.value());
  doc["spilled_bytes"] = json_number(r.spilled.value());
  doc["step_seconds_all_hbm"] = json_number(r.step_all_hbm.value());
  const Json first = link_json(r.links.front());
  doc["host_link"] = first["id"];
  for (const char* key :
       {"step_seconds", "slowdown", "expected_step_seconds", "expected_slowdown"}) {
    doc[key] = first[key];
  }
  Json links = Json::array();
  for (const HostLinkStep& step : r.links) {
    links.push_back(link_json(step));
  }
  doc["host_links"] = std::move(links);
  return doc;
}

int run_offload(const OffloadOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  OffloadRun run;
  run.model = resolve_weights_model(catalog, options.weights);
  if (options.gpu.empty()) {
    throw UsageError("no GPU given: use --gpu ID (e.g. --gpu h100; see 'icx gpus')");
  }
  run.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(options.gpu); });
  check_gpu_count(run.model, options.gpus, "--gpus");
  run.gpus = options.gpus;
  run.hbm_reserve = options.hbm_reserve;
  run.batch = options.batch;
  run.context = options.context;
  run.weights = weight_bytes(run.model.model.total_params, run.model.dtype.bytes_per_element);
  run.kv_cache = kv_cache(options, run.model);
  const ShardShape shard{run.model.model.layers, attention_shape(run.model.model)};
  run.tp_width = tensor_parallel_width(shard, run.gpus);
  run.kv_copies = kv_cache_copies(shard, run.gpus);
  const std::vector<std::string> ids =
      options.host_links.empty() ? std::vector<std::string>{"pcie5"} : options.host_links;
  const std::vector<const Link*> links = host_links(catalog, "--host-link", ids);
  run.result = offload(
      {run.weights, run.kv_cache, run.gpu, run.gpus, run.hbm_reserve, links, run.kv_copies});
  const Style style = style_of(options.common);
  emit(style, to_json(run), "host_links", style.explain ? derive(run) : Derivations{},
       [&] { print_table(run); });
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
  sub->add_option("--reserve", options->hbm_reserve,
                  "Fraction of each GPU's HBM kept free for activations and the runtime, e.g. 0.1; "
                  "default 0 (all of HBM holds weights and KV, so the spill is a lower bound)")
      ->type_name("FRACTION")
      ->default_str("0")
      ->transform(unit_fraction());
  sub->add_option("--host-link", options->host_links,
                  "Host link ids, space- or comma-separated (see 'icx links': tier host); 'all': "
                  "every host link, fastest first; default pcie5")
      ->type_name("ID")
      ->delimiter(',');
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
