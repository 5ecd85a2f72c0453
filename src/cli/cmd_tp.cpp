// icx tp: tensor-parallel all-reduce traffic of a prefill pass or a decode step, its time on
// each wire under the headline and expected models, and a verdict against compute.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/topology.hpp"
#include "icx/tp_report.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"
#include "verdict_format.hpp"

namespace icx::cli {

namespace {

constexpr std::int64_t default_prefill_tokens = 4096;
constexpr std::int64_t default_decode_batch = 1;
/// Columns of the bar drawn beside each wire's time.
constexpr int bar_width = 16;

struct TpOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  std::string phase = "prefill";
  std::optional<std::int64_t> tokens;
  std::optional<std::int64_t> batch;
  std::optional<int> gpus;
  std::vector<std::string> wires;
};

struct SkippedWire {
  const Link* link = nullptr;
  std::string reason;
};

struct WireChoice {
  std::vector<const Link*> links;
  /// Links left out of an implicit "every link" list: the group cannot exist on them.
  std::vector<SkippedWire> skipped;
};

/// The wires --wire names, each checked against --gpu and --gpus; without --wire (or with
/// 'all'), every link the group can use, with the others listed as skipped.
WireChoice choose_wires(const Catalog& catalog, const TpOptions& options, const Gpu* gpu) {
  WireChoice choice;
  const bool every =
      options.wires.empty() ||
      std::ranges::any_of(options.wires, [](const auto& id) { return fold_case(id) == "all"; });
  for (const Link* link : links_named(catalog, "--wire", options.wires)) {
    const std::optional<std::string> problem = group_link_problem(gpu, options.gpus, *link);
    if (!problem) {
      choice.links.push_back(link);
    } else if (every) {
      choice.skipped.push_back({link, *problem});
    } else {
      throw UsageError(fmt::format("--wire {}: {}", link->id, *problem));
    }
  }
  if (choice.links.empty()) {
    throw UsageError(
        fmt::format("--wire: no link can carry this group; {}", choice.skipped.front().reason));
  }
  return choice;
}

void print_skipped(const std::vector<SkippedWire>& skipped) {
  for (const SkippedWire& wire : skipped) {
    print_out("not shown: {}: {}\n", wire.link->id, wire.reason);
  }
}

/// What one pass is: "one prefill pass of 4096 tokens" or "one decode step, 8 sequences".
std::string pass_name(Phase phase) {
  return phase == Phase::prefill ? "prefill pass" : "decode step";
}

std::string bandwidth_label(const Link& link) {
  return fmt::format("{} {}", format_range(link.headline_bandwidth),
                     link.headline_convention == Convention::both_directions_summed ? "both ways"
                                                                                    : "each way");
}

Derivations derive(const ResolvedModel& model, const TpRequest& request, const TpReport& report) {
  const TensorParallelTraffic& traffic = report.traffic;
  Derivations d;
  d.push_back({"per all-reduce",
               fmt::format("2 × {} tokens × {} hidden × {} B", request.tokens, model.model.hidden,
                           model.dtype.bytes_per_element),
               traffic.per_allreduce.value(), format_count(traffic.per_allreduce.value()) + " B"});
  d.push_back({"per layer",
               fmt::format("{} all-reduces × {} B", traffic.allreduces_per_layer,
                           format_count(traffic.per_allreduce.value())),
               traffic.per_layer.value(), format_count(traffic.per_layer.value()) + " B"});
  d.push_back(
      {"per " + pass_name(request.phase),
       fmt::format("{} layers × {} B", model.model.layers, format_count(traffic.per_layer.value())),
       traffic.per_pass.value(), format_count(traffic.per_pass.value()) + " B"});
  for (const TpWire& w : report.wires) {
    const std::string& id = w.link->id;
    d.push_back({fmt::format("headline on {}", id),
                 fmt::format("{} B / {}", format_count(traffic.per_pass.value()),
                             format_rate(w.link->headline_bandwidth.high)),
                 w.headline.low.value(), format_seconds(w.headline.low)});
    if (w.expected) {
      d.push_back({fmt::format("expected on {}", id),
                   fmt::format("{} all-reduces × ring all-reduce of {} B over {} GPUs",
                               traffic.allreduces_per_layer * model.model.layers,
                               format_count(report.message.value()), w.gpus),
                   w.expected->value(), format_seconds(*w.expected)});
    }
    if (!w.verdict) {
      continue;
    }
    const std::string compute =
        request.phase == Phase::prefill
            ? fmt::format("2 × {} params × {} tokens / {} GPUs / ({} × {})",
                          format_count(model.model.active_params), request.tokens, w.gpus,
                          format_flops_rate(w.rate->peak), w.rate->utilization)
            : fmt::format("{} params × {} B / {} GPUs / {}", format_count(model.model.total_params),
                          model.dtype.bytes_per_element, w.gpus, format_rate(w.gpu->hbm_bandwidth));
    d.push_back({fmt::format("compute for {}", id), compute, w.verdict->compute.value(),
                 format_seconds(w.verdict->compute)});
    d.push_back({fmt::format("ratio on {}", id),
                 fmt::format("{} / {}", format_seconds(w.verdict->comm),
                             format_seconds(w.verdict->compute)),
                 w.verdict->ratio, format_ratio(w.verdict->ratio)});
  }
  return d;
}

void print_table(const Style& style, const ResolvedModel& model, const TpRequest& request,
                 const TpReport& report, bool gpu_given) {
  const TensorParallelTraffic& traffic = report.traffic;
  const std::string pass = pass_name(request.phase);
  print_out("Tensor-parallel all-reduce traffic per GPU\n");
  print_out("model   {}: hidden {}, {} layers, {} ({} B per element){}\n", model.model.id,
            model.model.hidden, model.model.layers, model.dtype.id, model.dtype.bytes_per_element,
            model.overridden.empty()
                ? ""
                : fmt::format(" [overridden: {}]", fmt::join(model.overridden, ", ")));
  if (request.phase == Phase::prefill) {
    print_out("tokens  {} (one prefill pass)\n\n", request.tokens);
  } else {
    print_out("batch   {} sequences, one token each (one decode step)\n\n", request.tokens);
  }

  TextTable traffic_table(
      {{"traffic", Align::left}, {"bytes", Align::right}, {"from", Align::left}});
  traffic_table.add_row({"per all-reduce", format_bytes(traffic.per_allreduce),
                         fmt::format("2 × {} tokens × {} hidden × {} B", request.tokens,
                                     model.model.hidden, model.dtype.bytes_per_element)});
  traffic_table.add_row({"per layer", format_bytes(traffic.per_layer),
                         fmt::format("{} all-reduces", traffic.allreduces_per_layer)});
  traffic_table.add_row({"per " + pass, format_bytes(traffic.per_pass),
                         fmt::format("{} layers", model.model.layers)});
  print_out("{}\n", traffic_table.render());

  TextTable wires({{"wire", Align::left},
                   {"tier", Align::left},
                   {"headline bandwidth", Align::left},
                   {"headline", Align::right},
                   {"", Align::left, true},
                   {"expected", Align::right},
                   {"crossover", Align::right},
                   {"compute on", Align::left},
                   {"compute", Align::right},
                   {"verdict", Align::left}});
  double slowest = 0;
  for (const TpWire& w : report.wires) {
    slowest = std::max(slowest, w.headline.low.value());
  }
  std::vector<std::string> reasons;
  std::vector<std::string> unavailable;
  for (const TpWire& w : report.wires) {
    const Link& link = *w.link;
    wires.add_row({link.id, std::string(to_string(link.tier)), bandwidth_label(link),
                   format_range(w.headline), bar(style, w.headline.low.value(), slowest, bar_width),
                   w.expected ? format_seconds(*w.expected) : "-",
                   w.crossover ? format_bytes(*w.crossover) : "-",
                   fmt::format("{} × {}", w.gpus, w.gpu->id),
                   w.verdict ? format_seconds(w.verdict->compute) : "-",
                   w.verdict ? paint(style, w.verdict->level) : "-"});
    if (w.verdict) {
      reasons.push_back(fmt::format("  {}: {}", link.id,
                                    verdict_reason(Strategy::tensor, &link, *w.verdict, pass)));
    }
    if (!w.expected) {
      unavailable.push_back(link.id);
    }
  }
  print_out("{}\n", wires.render(style.width));
  print_out("headline = traffic per {} / headline bandwidth (vendor bandwidth, no latency: the "
            "textbook arithmetic, both directions as the vendor counts them); a range gives "
            "fast–slow ends.\n",
            pass);
  print_out("expected = {} ring all-reduces of {} each over the GPUs, per-direction bandwidth × "
            "measured efficiency plus per-step latency (see 'icx collective'){}.\n",
            traffic.allreduces_per_layer * model.model.layers, format_bytes(report.message),
            unavailable.empty()
                ? ""
                : fmt::format("; no expected model for {}", fmt::join(unavailable, ", ")));
  print_out("crossover = all-reduce size at which latency and bandwidth terms are equal: "
            "smaller messages are latency-bound.\n");
  if (reasons.empty()) {
    print_out("verdicts need the model's parameter count: pass --params N.\n");
    return;
  }
  std::vector<std::string> assumed;
  for (const TpWire& w : report.wires) {
    if (!w.gpu_native && std::ranges::find(assumed, w.gpu->id) == assumed.end()) {
      assumed.push_back(w.gpu->id);
    }
  }
  const std::string gpu_rule =
      gpu_given ? fmt::format("{}, as --gpu says", report.wires.front().gpu->id)
                : fmt::format("the one whose scale-up link is the wire{}",
                              assumed.empty() ? std::string()
                                              : fmt::format(", else {} (change with --gpu)",
                                                            fmt::join(assumed, ", ")));
  if (request.phase == Phase::prefill) {
    std::vector<std::string> rates;
    for (const TpWire& w : report.wires) {
      const std::string rate =
          fmt::format("{} {} ({}) × {}", w.gpu->id, format_flops_rate(w.rate->peak),
                      w.rate->peak_dtype, w.rate->utilization);
      if (std::ranges::find(rates, rate) == rates.end()) {
        rates.push_back(rate);
      }
    }
    print_out("compute = 2 × {} params × {} tokens / GPUs at the GPU's dense peak × its "
              "utilisation (catalog; --mfu); the GPU is {}\n  assumed: {}\n",
              format_params(model.model.active_params), request.tokens, gpu_rule,
              fmt::join(rates, "; "));
  } else {
    print_out("compute = {} of weights / GPUs / HBM bandwidth (a decode step reads every "
              "weight once; KV-cache reads not counted); the GPU is {}\n",
              format_bytes(Bytes::of(model.model.total_params * model.dtype.bytes_per_element)),
              gpu_rule);
  }
  print_out("verdict: ok ≤ {}× compute (hidden by overlap), marginal ≤ {}×, avoid above or "
            "off the placement rule; the expected time where there is one\n{}\n",
            ok_ratio, marginal_ratio, fmt::join(reasons, "\n"));
}

Json to_json(const ResolvedModel& model, const TpRequest& request, const TpReport& report,
             const std::vector<SkippedWire>& skipped) {
  const TensorParallelTraffic& traffic = report.traffic;
  Json doc = json_document("icx.tp/1");
  doc["phase"] = to_string(request.phase);
  Json& m = doc["model"];
  m["id"] = model.model.id;
  m["hidden"] = model.model.hidden;
  m["layers"] = model.model.layers;
  m["dtype"] = model.dtype.id;
  m["bytes_per_element"] = json_number(model.dtype.bytes_per_element);
  m["total_params"] = json_number(model.model.total_params);
  m["active_params"] = json_number(model.model.active_params);
  m["overridden"] = model.overridden;
  doc["tokens"] = request.tokens;
  Json& t = doc["traffic"];
  t["per_allreduce_bytes"] = json_number(traffic.per_allreduce.value());
  t["allreduce_message_bytes"] = json_number(report.message.value());
  t["allreduces_per_layer"] = traffic.allreduces_per_layer;
  t["per_layer_bytes"] = json_number(traffic.per_layer.value());
  t["total_bytes"] = json_number(traffic.per_pass.value());
  Json wires = Json::array();
  for (const TpWire& w : report.wires) {
    const Link& link = *w.link;
    Json j;
    j["id"] = link.id;
    j["name"] = link.name;
    j["tier"] = to_string(link.tier);
    j["bandwidth_bytes_per_s"] = json_number(link.headline_bandwidth.high.value());
    j["bandwidth_convention"] = to_string(link.headline_convention);
    j["seconds"] = json_number(w.headline.low.value());
    if (link.headline_bandwidth.is_range()) {
      j["bandwidth_range_bytes_per_s"] = json_range(link.headline_bandwidth);
      j["seconds_range"] = json_range(w.headline);
    }
    j["expected_seconds"] = w.expected ? json_number(w.expected->value()) : Json();
    if (!w.expected) {
      j["expected_unavailable"] = w.expected_unavailable;
    }
    j["crossover_bytes"] = w.crossover ? json_number(w.crossover->value()) : Json();
    Json compute = Json::object();
    compute["gpu"] = w.gpu->id;
    compute["gpus"] = w.gpus;
    if (w.rate) {
      compute["peak_dtype"] = w.rate->peak_dtype;
      compute["peak_flop_per_s"] = json_number(w.rate->peak.value());
      compute["utilization"] = json_number(w.rate->utilization);
    }
    j["compute"] = std::move(compute);
    j["verdict"] = w.verdict
                       ? verdict_json(Strategy::tensor, &link, *w.verdict, pass_name(request.phase))
                       : Json();
    wires.push_back(std::move(j));
  }
  doc["wires"] = std::move(wires);
  if (!skipped.empty()) {
    Json not_shown = Json::array();
    for (const SkippedWire& wire : skipped) {
      Json j;
      j["id"] = wire.link->id;
      j["reason"] = wire.reason;
      not_shown.push_back(std::move(j));
    }
    doc["skipped_wires"] = std::move(not_shown);
  }
  return doc;
}

int run_tp(const TpOptions& options) {
  TpRequest request;
  request.phase = options.phase == "decode" ? Phase::decode : Phase::prefill;
  if (request.phase == Phase::prefill && options.batch) {
    throw UsageError("--batch is for --phase decode; a prefill pass takes --tokens N");
  }
  if (request.phase == Phase::decode && options.tokens) {
    throw UsageError("--tokens is for --phase prefill; a decode step takes --batch N "
                     "(sequences, one token each)");
  }
  request.tokens = request.phase == Phase::prefill ? options.tokens.value_or(default_prefill_tokens)
                                                   : options.batch.value_or(default_decode_batch);
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_model(catalog, options.model);
  request.shape = {model.model.hidden, model.model.layers, model.dtype.bytes_per_element};
  request.attention = attention_shape(model.model);
  request.total_params = model.model.total_params;
  request.active_params = model.model.active_params;
  request.dtype = &model.dtype;
  request.gpus = options.gpus;
  request.utilization = options.compute.mfu;
  if (!options.compute.gpu.empty()) {
    request.gpu =
        &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(options.compute.gpu); });
  }
  const std::string gpus_flag =
      options.gpus ? fmt::format("--gpus {}", *options.gpus) : std::string("--gpus");
  const WireChoice wires = choose_wires(catalog, options, request.gpu);
  TpReport report;
  try {
    report = tensor_parallel_report(catalog, request, wires.links);
  } catch (const GroupError& error) {
    throw UsageError(fmt::format("{}: {}", gpus_flag, error.what()));
  }
  const Style style = style_of(options.common);
  emit(style, to_json(model, request, report, wires.skipped), "wires",
       style.explain ? derive(model, request, report) : Derivations{}, [&] {
         print_table(style, model, request, report, request.gpu != nullptr);
         print_skipped(wires.skipped);
       });
  return 0;
}

} // namespace

Command setup_tp(CLI::App& app) {
  auto options = std::make_shared<TpOptions>();
  CLI::App* sub = app.add_subcommand(
      "tp", "Tensor-parallel all-reduce traffic of a prefill pass or decode step, its time on "
            "each wire (headline and expected), and a verdict against compute");
  add_model_options(*sub, options->model);
  sub->add_option("--phase", options->phase,
                  "prefill (one pass over --tokens) or decode (one step of --batch sequences)")
      ->type_name("PHASE")
      ->default_str("prefill")
      ->check(CLI::IsMember({"prefill", "decode"}));
  sub->add_option("-t,--tokens", options->tokens, "Tokens in the prefill pass")
      ->type_name("N")
      ->default_str(std::to_string(default_prefill_tokens))
      ->transform(whole_number(1, limits::max_tokens));
  sub->add_option("-b,--batch", options->batch, "Sequences in a decode step, one token each")
      ->type_name("N")
      ->default_str(std::to_string(default_decode_batch))
      ->transform(whole_number(1, limits::max_tokens));
  sub->add_option("-w,--wire", options->wires,
                  "Link ids or aliases, space- or comma-separated (see 'icx links'); 'all' or "
                  "none: every link, fastest first")
      ->type_name("ID")
      ->delimiter(',');
  sub->add_option("-g,--gpus", options->gpus,
                  "GPUs in the tensor-parallel group; default: the GPU's scale-up domain")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_compute_options(*sub, options->compute);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
              "  icx tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --json\n"
              "  icx tp --model 70b --phase decode --batch 32 --wire nvlink4 --gpus 8\n"
              "  icx tp --model 70b --wire pcie5 --gpu l40s --gpus 4\n"
              "  icx tp --hidden 8192 --layers 80 --params 70e9 --dtype bf16 --tokens 4096\n"
              "  icx tp --model 70b --dtype fp8          (every wire, fastest first)\n"
              "  icx tp --model 70b --wire pcie5 --explain\n"
              "  icx tp --model 70b --format csv > wires.csv");
  return {sub, [options] { return run_tp(*options); }};
}

} // namespace icx::cli
