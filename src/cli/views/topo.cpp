// What icx topo prints as a table: the kinds of GPU pair, then what follows from them.
#include "views/topo.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/units_format.hpp"
#include "icx/util/table.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// One row per kind of pair (path, links, bandwidth), naming its pairs (the first few).
void print_pairs(const Style& style, const TopoReport& r) {
  struct Row {
    std::vector<std::string> pairs;
    std::vector<std::string> cells;
  };
  std::vector<Row> rows;
  for (std::size_t i = 0; i < r.node.pairs.size(); ++i) {
    const GpuPair& p = r.node.pairs[i];
    std::vector<std::string> cells{p.path, is_scale_up(p.kind) ? std::to_string(p.links) : "-",
                                   r.pair_bandwidth[i] ? format_rate(*r.pair_bandwidth[i]) : "-"};
    auto row = std::ranges::find_if(rows, [&](const Row& x) { return x.cells == cells; });
    if (row == rows.end()) {
      row = rows.insert(rows.end(), Row{{}, std::move(cells)});
    }
    row->pairs.push_back(fmt::format("{}–{}", p.a, p.b));
  }
  constexpr std::size_t named = 4;
  TextTable table({{"path"},
                   {"pairs", Align::right},
                   {"GPUs"},
                   {"links", Align::right},
                   {"each way", Align::right}});
  for (const Row& row : rows) {
    const std::span<const std::string> shown(row.pairs.data(), std::min(named, row.pairs.size()));
    table.add_row({row.cells[0], std::to_string(row.pairs.size()),
                   fmt::format("{}{}", fmt::join(shown, " "), row.pairs.size() > named ? " …" : ""),
                   row.cells[1], row.cells[2]});
  }
  print_out("{}\n", fit_table(style, table));
}

} // namespace

void print_topo(const Style& style, const TopoReport& r, const std::optional<std::string>& output,
                const std::string& id) {
  print_out("{}: {} GPUs, {} NIC{} ({}){}\n\n", r.file, r.node.gpus.size(), r.node.nics.size(),
            r.node.nics.size() == 1 ? "" : "s", to_string(r.node.source),
            r.gpu != nullptr ? fmt::format(", GPU {} ({})", r.gpu->id, r.gpu_from)
            : r.gpu_from.empty()
                ? std::string(", GPU unknown: the matrix names none (give --gpu for bandwidths)")
                : fmt::format(", GPU unknown: {} (give --gpu for bandwidths)", r.gpu_from));
  print_pairs(style, r);
  for (const std::string& line : r.consequences) {
    print_out("- {}\n", line);
  }
  if (r.system) {
    print_out("\nassumed:\n");
    for (const std::string& line : r.system->assumed) {
      print_out("  {}\n", line);
    }
    print_out("\nsystem '{}' written to {}: use it with --catalog {} --system {}\n", id, *output,
              *output, id);
  }
}

} // namespace icx::cli
