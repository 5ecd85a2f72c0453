// icx tp: tensor-parallel all-reduce traffic of one forward pass and its time on each wire.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/lookup.hpp"
#include "icx/tensor_parallel.hpp"
#include "json_output.hpp"
#include "table.hpp"
#include "units_format.hpp"

namespace icx::cli {

namespace {

struct TpOptions {
  CommonOptions common;
  ModelOptions model;
  std::int64_t tokens = 4096;
  std::vector<std::string> wires;
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

std::string bandwidth_label(const Link& link) {
  return fmt::format("{} {}", format_range(link.headline_bandwidth),
                     link.headline_convention == Convention::both_directions_summed
                         ? "both ways summed"
                         : "each way");
}

void print_table(const ResolvedModel& model, std::int64_t tokens,
                 const TensorParallelTraffic& traffic, const std::vector<WireTime>& times) {
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
                        {"time per pass", Align::right}});
  for (const WireTime& time : times) {
    wire_table.add_row({fmt::format("{} [{}]", time.link->name, time.link->id),
                        std::string(to_string(time.link->tier)), bandwidth_label(*time.link),
                        format_range(time.seconds)});
  }
  fmt::print("{}\n", wire_table.render());
  fmt::print("time = traffic per pass / headline bandwidth (no latency, no overlap with "
             "compute); a range gives fast–slow ends.\n");
}

Json to_json(const ResolvedModel& model, std::int64_t tokens, const TensorParallelTraffic& traffic,
             const std::vector<WireTime>& times) {
  Json doc = json_document("icx.tp/1");
  doc["cost_model"] = "headline";
  Json& m = doc["model"];
  m["id"] = model.model.id;
  m["hidden"] = model.model.hidden;
  m["layers"] = model.model.layers;
  m["dtype"] = model.dtype.id;
  m["bytes_per_element"] = json_number(model.dtype.bytes_per_element);
  m["overridden"] = model.overridden;
  doc["tokens"] = tokens;
  Json& t = doc["traffic"];
  t["per_allreduce_bytes"] = json_number(traffic.per_allreduce.value());
  t["allreduces_per_layer"] = traffic.allreduces_per_layer;
  t["per_layer_bytes"] = json_number(traffic.per_layer.value());
  t["total_bytes"] = json_number(traffic.per_pass.value());
  Json wires = Json::array();
  for (const WireTime& time : times) {
    const Link& link = *time.link;
    Json w;
    w["id"] = link.id;
    w["name"] = link.name;
    w["tier"] = to_string(link.tier);
    w["bandwidth_bytes_per_s"] = json_number(link.headline_bandwidth.high.value());
    w["bandwidth_convention"] = to_string(link.headline_convention);
    w["seconds"] = json_number(time.seconds.low.value());
    if (link.headline_bandwidth.is_range()) {
      w["bandwidth_range_bytes_per_s"] = json_range(link.headline_bandwidth);
      w["seconds_range"] = json_range(time.seconds);
    }
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
  const std::vector<WireTime> times = headline_times(traffic.per_pass, links);
  if (options.common.json) {
    print_json(to_json(model, options.tokens, traffic, times));
  } else {
    print_table(model, options.tokens, traffic, times);
  }
  return 0;
}

} // namespace

Command setup_tp(CLI::App& app) {
  auto options = std::make_shared<TpOptions>();
  CLI::App* sub = app.add_subcommand(
      "tp", "Tensor-parallel all-reduce traffic of a prefill pass and its time on each wire");
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
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
              "  icx tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --json\n"
              "  icx tp --hidden 8192 --layers 80 --dtype bf16 --tokens 4096\n"
              "  icx tp --model 70b --dtype fp8          (every wire, fastest first)");
  return {sub, [options] { return run_tp(*options); }};
}

} // namespace icx::cli
