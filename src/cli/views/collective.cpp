#include "views/collective.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/util/table.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// Where the collective runs: "NVLink 4 [nvlink4]", or for a group spanning nodes "2 nodes
/// of 8 on NVLink 4 [nvlink4], 8 × InfiniBand NDR (1 port) [ib-ndr] NICs each".
std::string where(const CollectiveReport& r) {
  if (!r.fabric) {
    return fmt::format("{} [{}]", r.link->name, r.link->id);
  }
  const Fabric& f = *r.fabric;
  const std::string inside =
      f.gpus_per_node > 1 ? fmt::format(" on {} [{}]", f.scale_up->name, f.scale_up->id) : "";
  return fmt::format("{} nodes of {}{}, {} × {} [{}] NIC{} each", r.nodes, f.gpus_per_node, inside,
                     f.nics_per_node, f.scale_out->name, f.scale_out->id,
                     f.nics_per_node == 1 ? "" : "s");
}

std::string headline_note(const CollectiveReport& r) {
  if (r.fabric) {
    return fmt::format("headline: {:.4g} × S at {} each way ({} at the vendor figure): the "
                       "expected model's fastest algorithm with nothing lost and no latency",
                       r.headline_factor, format_rate(r.headline_bandwidth),
                       r.op == Collective::point_to_point ? "one NIC" : "the node's NICs together");
  }
  return fmt::format("headline: {} × S at {} {} (the vendor figure; a range uses its fast end), "
                     "no latency",
                     r.headline_factor, format_rate(r.headline_bandwidth),
                     convention_label(r.headline_convention));
}

std::string expected_note(const CollectiveReport& r) {
  if (!r.expected) {
    return "expected: not available — " + r.expected_model.reason();
  }
  std::vector<std::string> lines;
  for (const LineFormula& line : r.expected->lines) {
    lines.push_back(fmt::format("{} {} + S / {}", to_string(line.kernel),
                                format_seconds(line.latency), format_rate(line.rate)));
  }
  std::string note = fmt::format("expected: the fastest of {} (NCCL's lines); the full-rate "
                                 "line's latency and bandwidth terms are equal at S = {}",
                                 fmt::join(lines, ", "), format_bytes(r.expected->crossover));
  if (r.setup.implementation != Implementation::nccl) {
    note += fmt::format("\nall-reduce by --impl {}: {}", to_string(r.setup.implementation),
                        implementation_text(r.setup.implementation));
  }
  if (const LinkTopology* t = r.expected->topology) {
    note += fmt::format("\ntopology assumed: {} ({}; --pcie-topology)", t->id, t->description);
  }
  return note;
}

/// What ran at one size: "nvls/Simple", "one-shot".
std::string ran(const CollectiveRow& row) {
  return row.expected && row.expected->kernel ? std::string(to_string(*row.expected->kernel))
                                              : std::string("-");
}

void derive_row(const CollectiveReport& r, const CollectiveRow& row, Derivations& d) {
  const std::string size = format_count(row.size.value()) + " B";
  d.push_back(
      {fmt::format("headline time at {}", size),
       fmt::format("{:.4g} × {} / {}", r.headline_factor, size, format_rate(r.headline_bandwidth)),
       row.headline.time.value(), format_seconds(row.headline.time)});
  if (!row.expected) {
    return;
  }
  d.push_back(
      {fmt::format("expected time at {}", size),
       fmt::format("{}: latency {} + bandwidth {}", ran(row), format_seconds(row.terms->latency),
                   format_seconds(row.terms->bandwidth)),
       row.expected->time.value(), format_seconds(row.expected->time)});
  d.push_back(
      {fmt::format("expected busbw at {}", size),
       fmt::format("{} / {} × {:.4g}", size, format_seconds(row.expected->time), r.busbw_factor),
       row.expected->busbw.value(), format_rate(row.expected->busbw)});
}

} // namespace

Derivations derive_collective(const CollectiveReport& r) {
  Derivations d;
  for (const CollectiveRow& row : r.rows) {
    derive_row(r, row, d);
  }
  return d;
}

namespace {

void print_single(const Style& style, const CollectiveReport& r) {
  const CollectiveRow& row = r.rows.front();
  print_out("{} of {} ({} B) over {} GPUs on {}, {} → {}\n\n", to_string(r.op),
            format_bytes(row.size), format_count(row.size.value()), r.gpus, where(r),
            to_string(r.algorithm), ran(row));
  TextTable table({{"model", Align::left},
                   {"time", Align::right},
                   {"", Align::left, 9},
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
  if (row.measured) {
    add("measured", *row.measured);
  } else if (!r.measured_from.empty()) {
    table.add_row({"measured", "-", "", "-", "-"});
  }
  print_out("{}\n", fit_table(style, table));
}

std::vector<std::string> sweep_cells(const Style& style, const CollectiveReport& r,
                                     const CollectiveRow& row, double fastest, double slowest) {
  std::vector<std::string> cells{fmt::format("{:.0f}", row.size.value()),
                                 format_seconds(row.headline.time), format_rate(row.headline.algbw),
                                 format_rate(row.headline.busbw)};
  if (row.expected) {
    cells.insert(cells.end(), {format_seconds(row.expected->time), format_rate(row.expected->algbw),
                               format_rate(row.expected->busbw), ran(row)});
  } else {
    cells.insert(cells.end(), {"-", "-", "-", "-"});
  }
  if (!r.measured_from.empty()) {
    cells.push_back(row.measured ? format_rate(row.measured->busbw) : "-");
  }
  // The bar shows the expected time where there is one, else the headline time.
  const double shown = (row.expected ? row.expected->time : row.headline.time).value();
  cells.push_back(log_bar(style, shown, fastest, slowest, bar_width));
  return cells;
}

void print_sweep(const Style& style, const CollectiveReport& r) {
  print_out("{} over {} GPUs on {}, {}\n\n", to_string(r.op), r.gpus, where(r),
            to_string(r.algorithm));
  std::vector<Column> columns{{"size (B)", Align::right},      {"headline time", Align::right},
                              {"algbw", Align::right, 6},      {"busbw", Align::right},
                              {"expected time", Align::right}, {"algbw", Align::right, 5},
                              {"busbw", Align::right},         {"ran", Align::left, 4}};
  if (!r.measured_from.empty()) {
    columns.push_back({"measured busbw", Align::right});
  }
  columns.push_back({"time (log scale)", Align::left, 9});
  TextTable table(std::move(columns));
  auto shown = [](const CollectiveRow& row) {
    return (row.expected ? row.expected->time : row.headline.time).value();
  };
  const auto [first, last] = std::ranges::minmax_element(r.rows, {}, shown);
  const double fastest = shown(*first);
  const double slowest = shown(*last);
  for (const CollectiveRow& row : r.rows) {
    table.add_row(sweep_cells(style, r, row, fastest, slowest));
  }
  print_out("{}\n", fit_table(style, table));
}

} // namespace

void print_collective(const Style& style, const CollectiveReport& r) {
  if (r.sweep) {
    print_sweep(style, r);
  } else {
    print_single(style, r);
  }
  print_out("{}\n{}\n", headline_note(r), expected_note(r));
  for (const std::string& assumption : r.assumptions) {
    print_out("assumed: {}\n", assumption);
  }
  if (!r.measured_from.empty()) {
    print_out("measured: {} ({} sizes; time = the mean of out-of-place and in-place, algbw and "
              "busbw recomputed from it)\n",
              r.measured_from, r.measured_points.size());
  }
  print_out("algbw = S / time; busbw = algbw × {:.4g} (nccl-tests' factor for {} over {} GPUs).\n",
            r.busbw_factor, to_string(r.op), r.gpus);
}

} // namespace icx::cli
