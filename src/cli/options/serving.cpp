#include "options/serving.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/limits.hpp"
#include "icx/serving/engine.hpp"
#include "icx/util/number_text.hpp"
#include "options/common.hpp"

namespace icx::cli {

CLI::Option* add_batch_option(CLI::App& app, std::optional<std::int64_t>& batch,
                              const std::string& help) {
  return app.add_option("-b,--batch", batch, help)
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
}

CLI::Option* add_context_option(CLI::App& app, std::optional<std::int64_t>& context,
                                const std::string& help) {
  return app.add_option("--context", context, help)
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
}

CLI::Option* add_hbm_fraction_option(CLI::App& app, std::optional<double>& fraction) {
  return app
      .add_option("--hbm-fraction", fraction,
                  "Achievable fraction of HBM bandwidth; default: the --tuning's figure, else "
                  "the GPU's catalog figure")
      ->type_name("FRACTION")
      ->transform(decimal_number(limits::utilisation));
}

CLI::Option* add_tuning_option(CLI::App& app, std::string& tuning, std::string_view sets) {
  return app
      .add_option("--tuning", tuning,
                  fmt::format("How the serving software is set up on the GPU, where the catalog "
                              "names setups for it ('icx gpus --json' shows them; the MI300X's: "
                              "stock, the image's defaults, or tuned, AMD's latency recipe; the "
                              "A100's: served, as published runs read the KV cache, or "
                              "kernel-tables); {}; "
                              "default: the GPU's default setup",
                              sets))
      ->type_name("ID");
}

void add_serving_options(CLI::App& app, ServingOptions& o) {
  const std::size_t first = app.get_options().size();
  app.add_option<Phase, int>("--phase", o.phase,
                             "prefill (one pass over each prompt) or decode (one step, one "
                             "token per sequence)")
      ->type_name("PHASE")
      ->default_str("prefill")
      ->transform(enum_choice<Phase>("phase"));
  app.add_option("-t,--tokens", o.tokens, "Prompt tokens of each sequence (prefill)")
      ->type_name("N")
      ->default_str(std::to_string(default_prompt_tokens))
      ->transform(whole_number(1, limits::max_tokens));
  add_batch_option(app, o.batch,
                   "Sequences in flight; default: 1 for latency, for throughput as many as each "
                   "layout's memory holds (up to --max-batch per replica)");
  add_context_option(app, o.context, "Tokens already in each sequence's KV cache (decode)")
      ->default_str(std::to_string(default_prompt_tokens));
  app.add_option<Objective, int>("--objective", o.objective,
                                 "What layouts are ranked by: latency (TTFT or TPOT) or "
                                 "throughput (tokens/s per GPU)")
      ->type_name("GOAL")
      ->default_str("latency")
      ->transform(enum_choice<Objective>("objective"));
  add_engine_options(app, o);
  group_options_from(app, first, "Workload");
}

void add_engine_options(CLI::App& app, ServingOptions& o) {
  const std::size_t first = app.get_options().size();
  app.add_option("--engine", o.engine,
                 "The serving engine whose own costs (per step, layer and request), scheduler "
                 "defaults and all-reduces are assumed ('icx engines' lists them)")
      ->type_name("ID")
      ->default_str(std::string(default_engine));
  app.add_option("--max-batch", o.max_batch,
                 "Most sequences one engine scheduler runs at once (vLLM's --max-num-seqs, "
                 "SGLang's --max-running-requests); default: the engine's for the GPU")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_tokens));
  app.add_option("--act-dtype", o.act_dtype,
                 "What crosses the wire; default: the weights' dtype if 16-bit or wider, else "
                 "bf16 (engines keep activations 16-bit with FP8 weights)")
      ->type_name("ID");
  app.add_option("--kv-dtype", o.kv_dtype, "What the KV cache stores; default: --act-dtype")
      ->type_name("ID");
  app.add_option("--overlap", o.overlap,
                 "Fraction of the tensor and expert collectives the engine hides behind compute")
      ->type_name("FRACTION")
      ->default_str("0")
      ->transform(decimal_number(limits::Bounds{0, 1}));
  add_hbm_fraction_option(app, o.hbm_fraction);
  add_tuning_option(app, o.tuning,
                    "it sets the HBM and GEMM efficiencies, which --hbm-fraction and --mfu "
                    "override, and the time each all-reduce ring step adds");
  app.add_option("--spec", o.spec,
                 "Speculative decoding in decode steps: mtp or eagle, the tokens a step emits "
                 "per sequence on average (accepted drafts and its own), and the drafts it "
                 "checks (default 1), e.g. mtp:1.7 or eagle:2.4:3; default: none")
      ->type_name("KIND:ACCEPTANCE[:DRAFTS]");
  add_reserve_option(app, o.reserve);
  add_run_setup_options(app, o.setup, "the engine's (icx engines)");
  group_options_from(app, first, "Engine");
}

void add_emit_option(CLI::App& app, ServingOptions& o) {
  const std::size_t first = app.get_options().size();
  app.add_option("--emit", o.emit,
                 "Print the command that launches the chosen layout on this engine (vllm, "
                 "sglang, trtllm), a comment per flag saying why; prices that engine unless "
                 "--engine names it")
      ->type_name("ENGINE");
  group_options_from(app, first, "Engine");
}

bool emits_launch(const ServingOptions& o, const ResolvedModel& model) {
  if (!o.emit) {
    return false;
  }
  // --dtype picks a checkpoint; the other overrides change the model itself.
  for (const std::string& flag : model.overridden) {
    if (flag != "--dtype") {
      throw UsageError(fmt::format("--emit {} with {}: the published checkpoint is not the model "
                                   "priced; drop {}, or serve your own with --hf-config "
                                   "DIR/config.json",
                                   *o.emit, flag, flag));
    }
  }
  return true;
}

namespace {

/// The engine priced: --engine's, else --emit's, else the default; both given must agree, so
/// the command printed launches the engine the figures describe.
const Engine& engine_flag(const Catalog& catalog, const ServingOptions& o) {
  const Engine* emit =
      o.emit ? &for_flag("--emit", [&]() -> const Engine& { return catalog.engine(*o.emit); })
             : nullptr;
  const Engine& engine = for_flag("--engine", [&]() -> const Engine& {
    return o.engine ? catalog.engine(*o.engine)
                    : (emit != nullptr ? *emit : catalog.engine(std::string(default_engine)));
  });
  if (emit != nullptr && emit != &engine) {
    throw UsageError(fmt::format("--emit {} with --engine {}: the command would launch another "
                                 "engine than the one priced; give --engine {} or drop --engine",
                                 *o.emit, *o.engine, *o.emit));
  }
  return engine;
}

const Dtype* dtype_flag(const Catalog& catalog, const char* flag, const std::string& id) {
  if (id.empty()) {
    return nullptr;
  }
  return &for_flag(flag, [&]() -> const Dtype& { return catalog.dtype(id); });
}

/// --spec KIND:ACCEPTANCE[:DRAFTS]: the kind a draft of one decoder layer and the LM head
/// stands for, at most DRAFTS + 1 tokens emitted a step.
std::optional<Speculation> spec_flag(const std::string& text) {
  if (text.empty()) {
    return std::nullopt;
  }
  const std::string valid = "give KIND:ACCEPTANCE[:DRAFTS], e.g. --spec mtp:1.7 or --spec "
                            "eagle:2.4:3 (kind mtp or eagle; acceptance from 1 to drafts + 1)";
  const std::size_t first = text.find(':');
  const std::size_t second = first == std::string::npos ? first : text.find(':', first + 1);
  Speculation spec;
  spec.kind = text.substr(0, first);
  const std::string_view rest =
      first == std::string::npos ? std::string_view() : std::string_view(text).substr(first + 1);
  const std::optional<double> acceptance = parse_decimal(rest.substr(0, rest.find(':')));
  const std::optional<std::int64_t> drafts =
      second == std::string::npos ? std::optional<std::int64_t>(1)
                                  : parse_whole_decimal(std::string_view(text).substr(second + 1));
  if ((spec.kind != "mtp" && spec.kind != "eagle") || !acceptance || !drafts || *drafts < 1 ||
      *drafts > limits::max_draft_tokens) {
    throw UsageError(fmt::format("--spec {}: {}", text, valid));
  }
  if (*acceptance < 1) {
    throw UsageError(fmt::format("--spec {}: a step emits at least the token it adds itself; give "
                                 "an acceptance of 1 or more, e.g. --spec {}:1.7",
                                 text, spec.kind));
  }
  if (*acceptance > static_cast<double>(*drafts) + 1) {
    throw UsageError(fmt::format("--spec {}: a step with {} draft{} emits from 1 to {} tokens "
                                 "a sequence, not {:g}; give more drafts, e.g. --spec {}:{:g}:{:g}",
                                 text, *drafts, *drafts == 1 ? "" : "s", *drafts + 1, *acceptance,
                                 spec.kind, *acceptance,
                                 std::max(1.0, std::ceil(*acceptance - 1))));
  }
  spec.acceptance = *acceptance;
  spec.draft_tokens = static_cast<int>(*drafts);
  return spec;
}

} // namespace

/// --tuning's id, checked against the setups the catalog names for any GPU: a GPU without
/// that setup is priced by its own figures, as the assumptions then say.
std::string tuning_flag(const Catalog& catalog, const std::string& id) {
  std::vector<std::string> known;
  for (const Gpu& gpu : catalog.gpus()) {
    for (const GpuTuning& tuning : gpu.tunings) {
      if (std::ranges::find(known, tuning.id) == known.end()) {
        known.push_back(tuning.id);
      }
    }
  }
  if (!id.empty() && std::ranges::find(known, id) == known.end()) {
    throw UsageError(fmt::format("--tuning '{}': no GPU in the catalog names that setup; give "
                                 "one of: {} ('icx gpus --json' shows each GPU's)",
                                 id, fmt::join(known, ", ")));
  }
  return id;
}

ServingRequest serving_request(const Catalog& catalog, const ServingOptions& o,
                               std::optional<double> utilization) {
  if (o.phase == Phase::decode && o.tokens) {
    throw UsageError("--tokens is for --phase prefill; a decode step takes --batch N "
                     "(sequences) and --context N (tokens already cached)");
  }
  if (o.phase == Phase::prefill && o.context) {
    throw UsageError("--context is for --phase decode; a prefill pass takes --tokens N");
  }
  ServingRequest r;
  r.phase = o.phase;
  r.tokens = o.tokens.value_or(default_prompt_tokens);
  r.context = o.context.value_or(default_prompt_tokens);
  r.batch = o.batch;
  r.max_batch = o.max_batch;
  r.objective = o.objective;
  r.act_dtype = dtype_flag(catalog, "--act-dtype", o.act_dtype);
  r.kv_dtype = dtype_flag(catalog, "--kv-dtype", o.kv_dtype);
  r.overlap = o.overlap;
  r.utilization = utilization;
  r.hbm_fraction = o.hbm_fraction;
  r.tuning = tuning_flag(catalog, o.tuning);
  r.memory_reserve = o.reserve;
  r.engine = &engine_flag(catalog, o);
  r.setup = parse_run_setup(catalog, o.setup, engine_implementation(*r.engine));
  r.spec = spec_flag(o.spec);
  return r;
}

} // namespace icx::cli
