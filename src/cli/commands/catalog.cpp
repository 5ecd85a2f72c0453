// icx links | gpus | models | systems | dtypes | storage: the catalog, with the source of every
// figure.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/units_format.hpp"
#include "icx/catalog/json.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text.hpp"
#include "icx/words/engine.hpp"
#include "options/common.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// One listing subcommand: a table (with a sources section), or as JSON a catalog document
/// holding the section (a valid --catalog overlay).
template <class T> struct Listing {
  std::string name;
  std::string description;
  std::function<std::span<const T>(const Catalog&)> entries;
  std::vector<Column> columns;
  std::function<std::vector<std::string>(const T&)> row;
  /// Sources of the entry's parts, after its own (empty: none).
  std::function<std::string(const T&)> more_sources = nullptr;
};

template <class T> int run_listing(const Listing<T>& listing, const CommonOptions& options) {
  const Catalog catalog = load_catalog(options);
  Json doc = json_document(catalog_schema);
  Json items = Json::array();
  for (const T& entry : listing.entries(catalog)) {
    items.push_back(entry);
  }
  doc[std::string(catalog_section<T>)] = std::move(items);
  const Style style = style_of(options);
  emit(style, std::move(doc), catalog_section<T>, {}, [&] {
    std::vector<Column> columns{{"id", Align::left}, {"name", Align::left, 9, 12}};
    columns.insert(columns.end(), listing.columns.begin(), listing.columns.end());
    TextTable table(columns);
    std::string sources;
    for (const T& entry : listing.entries(catalog)) {
      std::vector<std::string> cells{entry.id, entry.name};
      const std::vector<std::string> rest = listing.row(entry);
      cells.insert(cells.end(), rest.begin(), rest.end());
      table.add_row(cells);
      const std::string line = fmt::format(
          "  {}: {}{}{}", entry.id, entry.source,
          listing.more_sources ? listing.more_sources(entry) : std::string(),
          entry.aliases.empty() ? ""
                                : fmt::format(" (aliases: {})", fmt::join(entry.aliases, ", ")));
      // Without --explain, a source takes one line of the terminal.
      sources +=
          (style.explain || !style.width ? line : shorten(line, *style.width, style.ascii)) + '\n';
    }
    print_out("{}\nSources{}:\n{}", fit_table(style, table),
              style.explain || !style.width ? "" : " (--explain: in full)", sources);
  });
  return 0;
}

template <class T>
Command setup_listing(CLI::App& app, Listing<T> listing, const std::string& example) {
  auto options = std::make_shared<CommonOptions>();
  auto shared_listing = std::make_shared<Listing<T>>(std::move(listing));
  CLI::App* sub = app.add_subcommand(shared_listing->name, shared_listing->description);
  sub->add_flag("--explain", options->explain,
                "Print each entry's source in full (else one line each on a terminal)");
  add_common_options(*sub, *options);
  sub->footer("Example:\n  " + example);
  return {sub, [options, shared_listing] { return run_listing(*shared_listing, *options); }};
}

} // namespace

Command setup_links(CLI::App& app) {
  return setup_listing<Link>(
      app,
      {"links",
       "List the links (wires) in the catalog, with bandwidth, latency and source",
       [](const Catalog& c) { return c.links(); },
       {{"tier", Align::left, 3},
        {"headline per GPU", Align::right},
        {"counts", Align::left, 4},
        {"each way", Align::right},
        {"latency", Align::right, 1},
        {"max GPUs", Align::right, 5},
        {"expected model", Align::left, 7, 14},
        {"host→GPU measured", Align::right, 6}},
       [](const Link& l) -> std::vector<std::string> {
         std::string expected = "-";
         if (l.expected) {
           expected = fmt::format("{:g} % eff., {}/step{}{}", l.expected->efficiency * 100,
                                  format_seconds(l.expected->step_latency),
                                  l.expected->in_network_reduction ? ", NVLS" : "",
                                  l.expected->engine_all_reduce ? ", engine kernels" : "");
         }
         if (!l.topologies.empty()) {
           const auto [low, high] =
               std::ranges::minmax(l.topologies, {}, &LinkTopology::efficiency);
           expected = fmt::format("{:g}–{:g} % eff. by topology", low.efficiency * 100,
                                  high.efficiency * 100);
         }
         return {std::string(to_string(l.tier)),
                 format_range(l.headline_bandwidth),
                 l.headline_convention == Convention::both_directions_summed ? "both ways"
                                                                             : "each way",
                 format_range(l.per_direction_bandwidth),
                 format_range(l.latency),
                 l.max_domain_gpus ? std::to_string(*l.max_domain_gpus) : "-",
                 expected,
                 l.measured_host_to_device ? format_rate(*l.measured_host_to_device) : "-"};
       }},
      "icx links --json");
}

Command setup_gpus(CLI::App& app) {
  return setup_listing<Gpu>(
      app,
      {"gpus",
       "List the GPUs in the catalog: HBM, dense peak compute, scale-up link and domain",
       [](const Catalog& c) { return c.gpus(); },
       {{"HBM", Align::right},
        {"HBM bandwidth", Align::right, 3},
        {"dense peak", Align::left, 8, 20},
        {"scale-up", Align::left, 0, 12}},
       [](const Gpu& g) -> std::vector<std::string> {
         std::vector<std::string> peaks;
         for (const auto& [dtype, peak] : g.dense_peak) {
           peaks.push_back(fmt::format("{} {}", dtype, format_flops_rate(peak)));
         }
         return {format_bytes(g.hbm_capacity), format_rate(g.hbm_bandwidth),
                 fmt::format("{}", fmt::join(peaks, ", ")),
                 fmt::format("{} × {}", g.scale_up_domain, g.scale_up_link)};
       }},
      "icx gpus");
}

Command setup_models(CLI::App& app) {
  return setup_listing<Model>(
      app,
      {"models",
       "List the models in the catalog with their architecture figures",
       [](const Catalog& c) { return c.models(); },
       {{"hidden", Align::right},
        {"layers", Align::right},
        {"params", Align::right},
        {"active", Align::right},
        {"dtype", Align::left, 3},
        {"heads/kv", Align::right, 4},
        {"experts", Align::right}},
       [](const Model& m) -> std::vector<std::string> {
         return {std::to_string(m.hidden), std::to_string(m.layers), format_params(m.total_params),
                 format_params(m.active_params),
                 // Experts stored apart: "bf16+mxfp4" (the rest, then the experts).
                 m.expert_dtype.empty() ? m.default_dtype
                                        : fmt::format("{}+{}", m.default_dtype, m.expert_dtype),
                 fmt::format("{}/{}", m.attention_heads, m.kv_heads),
                 m.is_moe() ? fmt::format("{} (top {})", m.experts, m.experts_per_token) : "-"};
       }},
      "icx models");
}

Command setup_systems(CLI::App& app) {
  return setup_listing<System>(
      app,
      {"systems",
       "List the systems (nodes and racks) in the catalog, for 'icx place --system', and "
       "their list prices per node-hour for 'icx plan'",
       [](const Catalog& c) { return c.systems(); },
       {{"gpu", Align::left, 0, 12},
        {"GPUs/node", Align::right},
        {"scale-up", Align::left, 2},
        {"domain", Align::right, 5},
        {"scale-out", Align::left, 1},
        {"host link", Align::left, 3},
        {"host DRAM", Align::right, 4},
        {"$/node-hour", Align::right}},
       [](const System& s) -> std::vector<std::string> {
         return {s.gpu,
                 std::to_string(s.gpus_per_node),
                 s.scale_up_link,
                 std::to_string(s.scale_up_domain),
                 s.scale_out_link,
                 s.host ? s.host->link : "-",
                 s.host ? format_bytes(s.host->dram) : "-",
                 s.price ? fmt::format("{:.2f} ({})", s.price->usd_per_hour, s.price->date) : "-"};
       }},
      "icx systems");
}

Command setup_dtypes(CLI::App& app) {
  return setup_listing<Dtype>(app,
                              {"dtypes",
                               "List the element types and their size in bytes",
                               [](const Catalog& c) { return c.dtypes(); },
                               {{"bytes per element", Align::right}},
                               [](const Dtype& d) -> std::vector<std::string> {
                                 return {fmt::format("{}", d.bytes_per_element)};
                               }},
                              "icx dtypes --json");
}

Command setup_storage(CLI::App& app) {
  return setup_listing<StorageTier>(
      app,
      {"storage",
       "List the storage tiers weights are loaded from, with read bandwidth and source",
       [](const Catalog& c) { return c.storage_tiers(); },
       {{"read bandwidth", Align::right}, {"shared by", Align::left}},
       [](const StorageTier& t) -> std::vector<std::string> {
         return {format_range(t.read_bandwidth),
                 t.scope == StorageScope::shared ? "all nodes" : "one node"};
       }},
      "icx storage");
}

Command setup_loaders(CLI::App& app) {
  return setup_listing<Loader>(
      app,
      {"loaders",
       "List the loaders 'icx coldstart --loader' prices, with their fitted read rates",
       [](const Catalog& c) { return c.loaders(); },
       {{"host buffer", Align::left},
        {"warm per rank", Align::right},
        {"warm per node", Align::right, 3},
        {"cold per rank", Align::right, 2},
        {"cold per node", Align::right, 4},
        {"overhead", Align::right}},
       [](const Loader& l) -> std::vector<std::string> {
         return {std::string(to_string(l.buffer)), format_rate(l.warm.rank),
                 format_rate(l.warm.node),         format_rate(l.cold.rank),
                 format_rate(l.cold.node),         format_seconds(l.overhead)};
       }},
      "icx loaders");
}

Command setup_engines(CLI::App& app) {
  return setup_listing<Engine>(
      app,
      {"engines",
       "List the serving engines '--engine' names: their fitted costs and scheduler defaults",
       [](const Catalog& c) { return c.engines(); },
       {{"version", Align::left, 8, 8},
        {"all-reduce", Align::left, 3},
        {"per step", Align::right, 1},
        {"per sequence", Align::right, 2},
        {"per layer", Align::right, 2},
        {"per request", Align::right},
        {"prefill pass", Align::right, 2},
        {"max batch", Align::left, 8, 11},
        {"prefill chunk", Align::left, 8, 11},
        {"memory", Align::left, 5},
        {"speculation", Align::left, 4}},
       [](const Engine& e) -> std::vector<std::string> {
         return {e.version,
                 e.implementation,
                 format_seconds(e.costs.step),
                 format_seconds(e.costs.sequence),
                 format_seconds(e.costs.layer),
                 format_seconds(e.costs.request),
                 prefill_pass_text(e.costs),
                 scheduler_default_text(e, &SchedulerTier::max_batch),
                 scheduler_default_text(e, &SchedulerTier::prefill_chunk),
                 engine_memory_text(e),
                 e.speculation ? fmt::format("{} + {}/draft", format_seconds(e.speculation->step),
                                             format_seconds(e.speculation->draft))
                               : std::string("-")};
       },
       [](const Engine& e) {
         return (e.memory ? fmt::format("; memory: {}", e.memory->source) : std::string()) +
                (e.speculation ? fmt::format("; speculation: {}", e.speculation->source)
                               : std::string());
       }},
      "icx engines");
}

} // namespace icx::cli
