// icx collective: one collective operation (or a sweep of sizes) on one wire, headline and
// expected time, algbw and busbw, as nccl-tests reports them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "icx/collectives.hpp"
#include "icx/limits.hpp"
#include "icx/topology.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/table.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "terminal.hpp"
#include "units_format.hpp"

namespace icx::cli {

namespace {

struct CollectiveOptions {
  CommonOptions common;
  std::string op;
  std::string size;
  int gpus = 0;
  std::string wire;
  std::string algo = "ring";
};

/// One size in bytes: a whole number with an optional unit, B, KB, MB, GB, TB (powers of 1000)
/// or KiB, MiB, GiB, TiB (powers of 1024), case-insensitive — CLI11's AsSizeValue.
std::int64_t parse_size(const std::string& text) {
  std::string value = text;
  std::string problem;
  if (text.find_first_of(" \t") != std::string::npos) {
    problem = "blank"; // AsSizeValue would trim it; every other number flag rejects it
  }
  try {
    if (problem.empty()) {
      problem = CLI::AsSizeValue(true)(value);
    }
  } catch (const CLI::ValidationError& error) {
    problem = error.what();
  }
  std::int64_t bytes = 0;
  if (problem.empty()) {
    const std::optional<std::int64_t> parsed = parse_whole(value);
    if (parsed && *parsed >= 1 && *parsed <= limits::max_message_bytes) {
      bytes = *parsed;
    }
  }
  if (bytes == 0) {
    throw UsageError(fmt::format("--size: '{}' is not a message size; expected a whole number of "
                                 "bytes from 1 B to 1 PiB with an optional unit: B, KB, MB, GB "
                                 "(powers of 1000) or KiB, MiB, GiB (powers of 1024), or a sweep "
                                 "FROM:TO such as 8B:16GiB",
                                 text));
  }
  return bytes;
}

/// "1GiB" gives one size; "8B:16GiB" every doubling from 8 B up to 16 GiB.
std::vector<std::int64_t> parse_sizes(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    return {parse_size(text)};
  }
  const std::int64_t from = parse_size(text.substr(0, colon));
  const std::int64_t to = parse_size(text.substr(colon + 1));
  if (from > to) {
    throw UsageError(
        fmt::format("--size: sweep '{}' runs backwards; give FROM:TO with FROM <= TO", text));
  }
  std::vector<std::int64_t> sizes;
  for (std::int64_t size = from; size <= to; size *= 2) {
    sizes.push_back(size);
  }
  return sizes;
}

Collective parse_op(const std::string& name) {
  if (const auto op = collective_from_name(name)) {
    return *op;
  }
  std::vector<std::string> names;
  for (const Collective op : all_collectives) {
    names.emplace_back(to_string(op));
  }
  const auto suggestion = nearest(name, names);
  throw UsageError(
      fmt::format("unknown operation '{}'; known: {}{}", name, fmt::join(names, ", "),
                  suggestion ? fmt::format(" (did you mean '{}'?)", *suggestion) : std::string()));
}

Algorithm parse_algo(const std::string& name) {
  if (const auto algorithm = algorithm_from_name(name)) {
    return *algorithm;
  }
  throw UsageError(fmt::format("--algo: unknown algorithm '{}'; known: ring, nvls (in-network "
                               "reduction)",
                               name));
}

struct Row {
  Bytes size;
  CollectiveCost headline;
  std::optional<CollectiveCost> expected;
};

Json cost_json(const CollectiveCost& cost) {
  Json json = Json::object();
  json["seconds"] = json_number(cost.time.value());
  json["algbw_bytes_per_s"] = json_number(cost.algbw.value());
  json["busbw_bytes_per_s"] = json_number(cost.busbw.value());
  return json;
}

Json row_json(const Row& row) {
  Json json = Json::object();
  json["size_bytes"] = json_number(row.size.value());
  json["headline"] = cost_json(row.headline);
  json["expected"] = row.expected ? cost_json(*row.expected) : Json(nullptr);
  return json;
}

struct Result {
  Collective op;
  Algorithm algorithm;
  int gpus;
  const Link* link;
  std::vector<Row> rows;
  bool sweep;
  std::optional<std::string> unavailable;
  std::optional<Bytes> crossover;
};

Json to_json(const Result& r) {
  Json doc = json_document("icx.collective/1");
  doc["op"] = to_string(r.op);
  doc["gpus"] = r.gpus;
  if (!r.sweep) {
    doc["size_bytes"] = json_number(r.rows.front().size.value());
  }
  doc["wire"] = r.link->id;
  doc["algo"] = to_string(r.algorithm);
  if (!r.sweep) {
    doc["headline"] = cost_json(r.rows.front().headline);
    doc["expected"] = r.rows.front().expected ? cost_json(*r.rows.front().expected) : Json(nullptr);
  }
  Json rows = Json::array();
  for (const Row& row : r.rows) {
    rows.push_back(row_json(row));
  }
  doc["rows"] = std::move(rows);
  doc["crossover_bytes"] = r.crossover ? json_number(r.crossover->value()) : Json(nullptr);
  if (r.unavailable) {
    doc["expected_unavailable"] = *r.unavailable;
  }
  return doc;
}

std::string headline_note(const Result& r) {
  const Link& link = *r.link;
  return fmt::format(
      "headline: {} × S at {} {} (the vendor figure; a range uses its fast end), "
      "no latency",
      r.op == Collective::all_reduce ? "2" : "1", format_rate(link.headline_bandwidth.high),
      link.headline_convention == Convention::both_directions_summed ? "both ways summed"
                                                                     : "each way");
}

std::string expected_note(const Result& r) {
  if (r.unavailable) {
    return "expected: not available — " + *r.unavailable;
  }
  const ExpectedModel& model = *r.link->expected;
  const bool nvls = r.algorithm == Algorithm::nvls;
  const double efficiency = nvls ? model.in_network_reduction->efficiency : model.efficiency;
  const std::string latency =
      nvls ? fmt::format("{} fixed", format_seconds(model.in_network_reduction->latency))
           : fmt::format("{} steps × {}", ring_steps(r.op, r.gpus),
                         format_seconds(model.step_latency));
  return fmt::format("expected: latency {} + {:.3g} × S / ({} each way × {:.3g}) + size ramp "
                     "(up to {}); latency and bandwidth terms are equal at S = {}",
                     latency, wire_factor(r.op, r.algorithm, r.gpus),
                     format_rate(r.link->per_direction_bandwidth.high), efficiency,
                     format_seconds(model.ramp), format_bytes(*r.crossover));
}

/// Columns of the bars beside times.
constexpr int bar_width = 16;

Derivations derive(const Result& r) {
  Derivations d;
  for (const Row& row : r.rows) {
    const std::string size = format_count(row.size.value()) + " B";
    d.push_back({fmt::format("headline time at {}", size),
                 fmt::format("{} × {} / {}", r.op == Collective::all_reduce ? 2 : 1, size,
                             format_rate(r.link->headline_bandwidth.high)),
                 row.headline.time.value(), format_seconds(row.headline.time)});
    if (!row.expected) {
      continue;
    }
    const CollectiveRequest request{r.op, r.algorithm, r.gpus, row.size};
    const ExpectedTerms terms = expected_terms(*r.link, request);
    d.push_back({fmt::format("expected time at {}", size),
                 fmt::format("latency {} + bandwidth {} + size ramp {}",
                             format_seconds(terms.latency), format_seconds(terms.bandwidth),
                             format_seconds(row.expected->time - terms.latency - terms.bandwidth)),
                 row.expected->time.value(), format_seconds(row.expected->time)});
    d.push_back({fmt::format("expected busbw at {}", size),
                 fmt::format("{} / {} × {:.4g}", size, format_seconds(row.expected->time),
                             busbw_factor(r.op, r.gpus)),
                 row.expected->busbw.value(), format_rate(row.expected->busbw)});
  }
  return d;
}

void print_single(const Style& style, const Result& r) {
  const Row& row = r.rows.front();
  print_out("{} of {} ({} B) over {} GPUs on {} [{}], {}\n\n", to_string(r.op),
            format_bytes(row.size), format_count(row.size.value()), r.gpus, r.link->name,
            r.link->id, to_string(r.algorithm));
  TextTable table({{"model", Align::left},
                   {"time", Align::right},
                   {"", Align::left, true},
                   {"algbw", Align::right},
                   {"busbw", Align::right}});
  const double slowest =
      std::max(row.headline.time.value(), row.expected ? row.expected->time.value() : 0.0);
  auto add = [&](const std::string& name, const CollectiveCost& cost) {
    table.add_row({name, format_seconds(cost.time),
                   bar(style, cost.time.value(), slowest, bar_width), format_rate(cost.algbw),
                   format_rate(cost.busbw)});
  };
  add("headline", row.headline);
  if (row.expected) {
    add("expected", *row.expected);
  } else {
    table.add_row({"expected", "-", "", "-", "-"});
  }
  print_out("{}\n", table.render(style.width));
}

void print_sweep(const Style& style, const Result& r) {
  print_out("{} over {} GPUs on {} [{}], {}\n\n", to_string(r.op), r.gpus, r.link->name, r.link->id,
            to_string(r.algorithm));
  TextTable table({{"size (B)", Align::right},
                   {"headline time", Align::right},
                   {"algbw", Align::right},
                   {"busbw", Align::right},
                   {"expected time", Align::right},
                   {"algbw", Align::right},
                   {"busbw", Align::right},
                   {"time (log scale)", Align::left, true}});
  // The bar shows the expected time where there is one, else the headline time.
  auto shown = [](const Row& row) {
    return (row.expected ? row.expected->time : row.headline.time).value();
  };
  double fastest = shown(r.rows.front());
  double slowest = fastest;
  for (const Row& row : r.rows) {
    fastest = std::min(fastest, shown(row));
    slowest = std::max(slowest, shown(row));
  }
  for (const Row& row : r.rows) {
    std::vector<std::string> cells{
        fmt::format("{:.0f}", row.size.value()), format_seconds(row.headline.time),
        format_rate(row.headline.algbw), format_rate(row.headline.busbw)};
    if (row.expected) {
      cells.insert(cells.end(),
                   {format_seconds(row.expected->time), format_rate(row.expected->algbw),
                    format_rate(row.expected->busbw)});
    } else {
      cells.insert(cells.end(), {"-", "-", "-"});
    }
    cells.push_back(log_bar(style, shown(row), fastest, slowest, bar_width));
    table.add_row(std::move(cells));
  }
  print_out("{}\n", table.render(style.width));
}

int run_collective(const CollectiveOptions& options) {
  const Collective op = parse_op(options.op);
  const Algorithm algorithm = parse_algo(options.algo);
  const std::vector<std::int64_t> sizes = parse_sizes(options.size);
  const Catalog catalog = load_catalog(options.common);
  const Link& link =
      for_flag("--wire", [&]() -> const Link& { return catalog.link(options.wire); });
  if (const auto reason = algorithm_unsupported_reason(link, op, algorithm)) {
    throw UsageError(fmt::format("--algo {}: {}; use --algo ring", to_string(algorithm), *reason));
  }
  if (const auto problem = domain_size_problem(link, options.gpus)) {
    throw UsageError(fmt::format("--gpus {}: {}", options.gpus, *problem));
  }
  if (algorithm == Algorithm::nvls) {
    if (!link.expected || !link.expected->in_network_reduction) {
      throw UsageError(fmt::format("--algo nvls: wire '{}' has no in-network reduction; use "
                                   "--algo ring (NVLS needs NVLink 4 or later with NVSwitch, and "
                                   "catalog parameters for it)",
                                   link.id));
    }
  }
  Result result{op,
                algorithm,
                options.gpus,
                &link,
                {},
                sizes.size() > 1,
                expected_unavailable_reason(link, algorithm),
                std::nullopt};
  CollectiveRequest request{op, algorithm, options.gpus, Bytes::of(1)};
  result.crossover = crossover_size(link, request);
  for (const std::int64_t size : sizes) {
    request.size = Bytes::of(static_cast<double>(size));
    Row row{request.size, headline_collective(link, request), std::nullopt};
    if (!result.unavailable) {
      row.expected = expected_collective(link, request);
    }
    result.rows.push_back(row);
  }
  const Style style = style_of(options.common);
  emit(style, to_json(result), "rows", style.explain ? derive(result) : Derivations{}, [&] {
    if (result.sweep) {
      print_sweep(style, result);
    } else {
      print_single(style, result);
    }
    print_out("{}\n{}\nalgbw = S / time; busbw = algbw × {:.4g} (nccl-tests' factor for {} over "
              "{} GPUs).\n",
              headline_note(result), expected_note(result), busbw_factor(op, options.gpus),
              to_string(op), options.gpus);
  });
  return 0;
}

} // namespace

Command setup_collective(CLI::App& app) {
  auto options = std::make_shared<CollectiveOptions>();
  CLI::App* sub = app.add_subcommand(
      "collective", "Time, algbw and busbw of a collective on one wire, headline and expected");
  sub->add_option("op", options->op,
                  "all-reduce, all-gather, reduce-scatter, all-to-all or point-to-point")
      ->required();
  sub->add_option("-s,--size", options->size,
                  "Message size S (the buffer, as nccl-tests counts it): 1GiB, 512MB, 4096 …; "
                  "FROM:TO sweeps doubling sizes")
      ->type_name("SIZE")
      ->required();
  sub->add_option("-g,--gpus", options->gpus, "GPUs taking part")
      ->type_name("N")
      ->required()
      ->transform(whole_number(min_collective_gpus, limits::max_domain));
  sub->add_option("-w,--wire", options->wire, "Link id or alias (see 'icx links')")
      ->type_name("ID")
      ->required();
  sub->add_option("--algo", options->algo,
                  "ring, or nvls: in-network reduction on NVSwitch (all-reduce only)")
      ->type_name("ALGO")
      ->default_str("ring");
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4\n"
              "  icx collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --algo nvls\n"
              "  icx collective all-gather --size 8B:16GiB --gpus 8 --wire nvlink3\n"
              "  icx collective all-reduce --size 64KiB --gpus 2 --wire ib-ndr --json");
  return {sub, [options] { return run_collective(*options); }};
}

} // namespace icx::cli
