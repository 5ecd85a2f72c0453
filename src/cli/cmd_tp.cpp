// icx tp: tensor-parallel all-reduce traffic of one forward pass, its time on each wire, and
// a verdict weighing that time against the pass's compute.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/compute.hpp"
#include "icx/limits.hpp"
#include "icx/lookup.hpp"
#include "icx/tensor_parallel.hpp"
#include "icx/verdict.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "table.hpp"
#include "units_format.hpp"
#include "verdict_format.hpp"

namespace icx::cli {

namespace {

struct TpOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  std::int64_t tokens = 4096;
  std::optional<int> gpus;
  std::vector<std::string> wires;
};

/// One wire's row: its headline time and, when the model's size is known, the verdict.
struct WireResult {
  WireTime time;
  const Gpu* gpu = nullptr;
  /// The GPU was chosen because its scale-up link is this wire (not --gpu, not the fallback).
  bool gpu_native = false;
  int gpus = 0;
  std::optional<ComputeRate> rate;
  std::optional<Verdict> verdict;
};

/// The links named by --wire (in the order given), or every link fastest first.
std::vector<const Link*> chosen_links(const Catalog& catalog, const std::vector<std::string>& ids) {
  const bool all = ids.empty() || std::ranges::any_of(ids, [](const std::string& id) {
                     return fold_case(id) == "all";
                   });
  if (all) {
    return fastest_first(catalog.links());
  }
  std::vector<const Link*> links;
  for (const std::string& id : ids) {
    const Link* link = &for_flag("--wire", [&]() -> const Link& { return catalog.link(id); });
    if (std::ranges::find(links, link) == links.end()) {
      links.push_back(link);
    }
  }
  return links;
}

WireResult judge_wire(const Catalog& catalog, const TpOptions& options, const ResolvedModel& model,
                      const WireTime& time) {
  WireResult result;
  result.time = time;
  if (options.compute.gpu.empty()) {
    result.gpu = &gpu_for_link(catalog, *time.link, result.gpu_native);
  } else {
    result.gpu =
        &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(options.compute.gpu); });
  }
  // Without --gpus the tensor group fills the GPU's scale-up domain.
  result.gpus = options.gpus.value_or(result.gpu->scale_up_domain);
  if (model.model.active_params <= 0) {
    return result;
  }
  result.rate = resolve_rate(catalog, *result.gpu, model.dtype, options.compute);
  const Seconds compute = compute_time(prefill_flops(model.model.active_params, options.tokens),
                                       result.gpus, *result.rate);
  result.verdict = judge(Strategy::tensor, time.link, time.seconds.low, compute);
  return result;
}

std::string bandwidth_label(const Link& link) {
  return fmt::format("{} {}", format_range(link.headline_bandwidth),
                     link.headline_convention == Convention::both_directions_summed
                         ? "both ways summed"
                         : "each way");
}

/// Columns of the bar drawn beside each wire's time.
constexpr int bar_width = 20;

Derivations derive(const ResolvedModel& model, std::int64_t tokens,
                   const TensorParallelTraffic& traffic, const std::vector<WireResult>& results) {
  const double b = model.dtype.bytes_per_element;
  Derivations d;
  d.push_back({"per all-reduce",
               fmt::format("2 × {} tokens × {} hidden × {} B", tokens, model.model.hidden, b),
               traffic.per_allreduce.value(), format_count(traffic.per_allreduce.value()) + " B"});
  d.push_back({"per layer",
               fmt::format("{} all-reduces × {} B", traffic.allreduces_per_layer,
                           format_count(traffic.per_allreduce.value())),
               traffic.per_layer.value(), format_count(traffic.per_layer.value()) + " B"});
  d.push_back(
      {"per prefill pass",
       fmt::format("{} layers × {} B", model.model.layers, format_count(traffic.per_layer.value())),
       traffic.per_pass.value(), format_count(traffic.per_pass.value()) + " B"});
  for (const WireResult& r : results) {
    const Link& link = *r.time.link;
    d.push_back({fmt::format("time on {}", link.id),
                 fmt::format("{} B / {}", format_count(traffic.per_pass.value()),
                             format_rate(link.headline_bandwidth.high)),
                 r.time.seconds.low.value(), format_seconds(r.time.seconds.low)});
    if (r.verdict) {
      d.push_back({fmt::format("compute for {}", link.id),
                   fmt::format("2 × {} params × {} tokens / {} GPUs / ({} × {})",
                               format_count(model.model.active_params), tokens, r.gpus,
                               format_flops_rate(r.rate->peak), r.rate->utilization),
                   r.verdict->compute.value(), format_seconds(r.verdict->compute)});
      d.push_back({fmt::format("ratio on {}", link.id),
                   fmt::format("{} / {}", format_seconds(r.verdict->comm),
                               format_seconds(r.verdict->compute)),
                   r.verdict->ratio, format_ratio(r.verdict->ratio)});
    }
  }
  return d;
}

void print_table(const Style& style, const ResolvedModel& model, std::int64_t tokens,
                 const TensorParallelTraffic& traffic, const std::vector<WireResult>& results,
                 bool gpu_given) {
  fmt::print("Tensor-parallel all-reduce traffic per GPU, headline model\n");
  fmt::print("model   {}: hidden {}, {} layers, {} ({} B per element){}\n", model.model.id,
             model.model.hidden, model.model.layers, model.dtype.id, model.dtype.bytes_per_element,
             model.overridden.empty()
                 ? ""
                 : fmt::format(" [overridden: {}]", fmt::join(model.overridden, ", ")));
  fmt::print("tokens  {} (one prefill pass)\n\n", tokens);

  TextTable traffic_table(
      {{"traffic", Align::left}, {"bytes", Align::right}, {"from", Align::left}});
  traffic_table.add_row({"per all-reduce", format_bytes(traffic.per_allreduce),
                         fmt::format("2 × {} tokens × {} hidden × {} B", tokens, model.model.hidden,
                                     model.dtype.bytes_per_element)});
  traffic_table.add_row({"per layer", format_bytes(traffic.per_layer),
                         fmt::format("{} all-reduces", traffic.allreduces_per_layer)});
  traffic_table.add_row({"per prefill pass", format_bytes(traffic.per_pass),
                         fmt::format("{} layers", model.model.layers)});
  fmt::print("{}\n", traffic_table.render());

  TextTable wire_table({{"wire", Align::left},
                        {"tier", Align::left},
                        {"headline bandwidth per GPU", Align::left},
                        {"time per pass", Align::right},
                        {"", Align::left},
                        {"compute on", Align::left},
                        {"compute", Align::right},
                        {"verdict", Align::left}});
  std::vector<std::string> reasons;
  double slowest = 0;
  for (const WireResult& r : results) {
    slowest = std::max(slowest, r.time.seconds.low.value());
  }
  for (const WireResult& r : results) {
    const Link& link = *r.time.link;
    wire_table.add_row({fmt::format("{} [{}]", link.name, link.id),
                        std::string(to_string(link.tier)), bandwidth_label(link),
                        format_range(r.time.seconds),
                        bar(style, r.time.seconds.low.value(), slowest, bar_width),
                        fmt::format("{} × {}", r.gpus, r.gpu->id),
                        r.verdict ? format_seconds(r.verdict->compute) : "-",
                        r.verdict ? paint(style, r.verdict->level) : "-"});
    if (r.verdict) {
      reasons.push_back(
          fmt::format("  {}: {}", link.id, verdict_reason(Strategy::tensor, &link, *r.verdict)));
    }
  }
  fmt::print("{}\n", wire_table.render());
  fmt::print("time = traffic per pass / headline bandwidth (no latency, no overlap with "
             "compute); a range gives fast–slow ends.\n");
  if (reasons.empty()) {
    fmt::print("verdicts need the model's parameter count: pass --params N.\n");
    return;
  }
  std::vector<std::string> assumed;
  for (const WireResult& r : results) {
    if (!r.gpu_native && std::ranges::find(assumed, r.gpu->id) == assumed.end()) {
      assumed.push_back(r.gpu->id);
    }
  }
  const std::string gpu_rule =
      gpu_given ? fmt::format("{}, as --gpu says", results.front().gpu->id)
                : fmt::format("the one whose scale-up link is the wire{}",
                              assumed.empty() ? std::string()
                                              : fmt::format(", else {} (change with --gpu)",
                                                            fmt::join(assumed, ", ")));
  fmt::print("compute = 2 × {} params × {} tokens / GPUs at the GPU's dense {} peak × its "
             "utilisation (catalog; --mfu); the GPU is {}\n",
             format_params(model.model.active_params), tokens, results.front().rate->peak_dtype,
             gpu_rule);
  fmt::print("verdict: ok ≤ {}× compute (hidden by overlap), marginal ≤ {}×, avoid above or "
             "off the placement rule\n{}\n",
             ok_ratio, marginal_ratio, fmt::join(reasons, "\n"));
}

Json to_json(const ResolvedModel& model, std::int64_t tokens, const TensorParallelTraffic& traffic,
             const std::vector<WireResult>& results) {
  Json doc = json_document("icx.tp/1");
  doc["cost_model"] = "headline";
  Json& m = doc["model"];
  m["id"] = model.model.id;
  m["hidden"] = model.model.hidden;
  m["layers"] = model.model.layers;
  m["dtype"] = model.dtype.id;
  m["bytes_per_element"] = json_number(model.dtype.bytes_per_element);
  m["active_params"] = json_number(model.model.active_params);
  m["overridden"] = model.overridden;
  doc["tokens"] = tokens;
  Json& t = doc["traffic"];
  t["per_allreduce_bytes"] = json_number(traffic.per_allreduce.value());
  t["allreduces_per_layer"] = traffic.allreduces_per_layer;
  t["per_layer_bytes"] = json_number(traffic.per_layer.value());
  t["total_bytes"] = json_number(traffic.per_pass.value());
  Json wires = Json::array();
  for (const WireResult& r : results) {
    const Link& link = *r.time.link;
    Json w;
    w["id"] = link.id;
    w["name"] = link.name;
    w["tier"] = to_string(link.tier);
    w["bandwidth_bytes_per_s"] = json_number(link.headline_bandwidth.high.value());
    w["bandwidth_convention"] = to_string(link.headline_convention);
    w["seconds"] = json_number(r.time.seconds.low.value());
    if (link.headline_bandwidth.is_range()) {
      w["bandwidth_range_bytes_per_s"] = json_range(link.headline_bandwidth);
      w["seconds_range"] = json_range(r.time.seconds);
    }
    Json compute = Json::object();
    compute["gpu"] = r.gpu->id;
    compute["gpus"] = r.gpus;
    if (r.rate) {
      compute["peak_dtype"] = r.rate->peak_dtype;
      compute["peak_flop_per_s"] = json_number(r.rate->peak.value());
      compute["utilization"] = json_number(r.rate->utilization);
    }
    w["compute"] = std::move(compute);
    w["verdict"] = r.verdict ? verdict_json(Strategy::tensor, &link, *r.verdict) : Json();
    wires.push_back(std::move(w));
  }
  doc["wires"] = std::move(wires);
  return doc;
}

int run_tp(const TpOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_model(catalog, options.model);
  const std::vector<const Link*> links = chosen_links(catalog, options.wires);
  const ActivationShape shape{model.model.hidden, model.model.layers,
                              model.dtype.bytes_per_element};
  const TensorParallelTraffic traffic = tensor_parallel_traffic(shape, options.tokens);
  std::vector<WireResult> results;
  for (const WireTime& time : headline_times(traffic.per_pass, links)) {
    results.push_back(judge_wire(catalog, options, model, time));
  }
  const Style style = style_of(options.common);
  emit(style, to_json(model, options.tokens, traffic, results), "wires",
       style.explain ? derive(model, options.tokens, traffic, results) : Derivations{}, [&] {
         print_table(style, model, options.tokens, traffic, results, !options.compute.gpu.empty());
       });
  return 0;
}

} // namespace

Command setup_tp(CLI::App& app) {
  auto options = std::make_shared<TpOptions>();
  CLI::App* sub = app.add_subcommand(
      "tp", "Tensor-parallel all-reduce traffic of a prefill pass, its time on each wire, and "
            "a verdict against compute");
  add_model_options(*sub, options->model);
  sub->add_option("-t,--tokens", options->tokens, "Tokens in the batch being prefilled")
      ->type_name("N")
      ->default_str("4096")
      ->check(whole_number(1, limits::max_tokens));
  sub->add_option("-w,--wire", options->wires,
                  "Link ids or aliases, space- or comma-separated (see 'icx links'); 'all' or "
                  "none: every link, fastest first")
      ->type_name("ID")
      ->delimiter(',');
  sub->add_option("-g,--gpus", options->gpus,
                  "GPUs in the tensor-parallel group; default: the GPU's scale-up domain")
      ->type_name("N")
      ->check(whole_number(1, limits::max_domain));
  add_compute_options(*sub, options->compute);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
              "  icx tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --json\n"
              "  icx tp --model 70b --wire pcie5 --gpu l40s --gpus 4\n"
              "  icx tp --hidden 8192 --layers 80 --params 70e9 --dtype bf16 --tokens 4096\n"
              "  icx tp --model 70b --dtype fp8          (every wire, fastest first)\n"
              "  icx tp --model 70b --wire pcie5 --explain\n"
              "  icx tp --model 70b --format csv > wires.csv");
  return {sub, [options] { return run_tp(*options); }};
}

} // namespace icx::cli
