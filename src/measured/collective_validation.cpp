#include "icx/measured/collective_validation.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/csv_rows.hpp"
#include "base/embedded_files.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/statistics.hpp"
#include "icx/util/text_file.hpp"

namespace icx {

namespace {

constexpr std::array required_columns{"hardware", "link",       "gpus",    "nodes",      "op",
                                      "algo",     "size_bytes", "time_us", "busbw_GBps", "source"};
constexpr std::array uses{"fit", "held-out", "outside"};

/// gpus, nodes, and the optional scale_up and nics_per_node columns of a row across nodes.
void read_layout(const detail::CsvRow& row, MeasuredCollective& m) {
  m.gpus = row.whole("gpus", min_collective_gpus, limits::max_domain);
  m.nodes = row.whole("nodes", 1, m.gpus);
  if (m.gpus % m.nodes != 0) {
    row.fail("nodes", fmt::format("{} GPUs do not split evenly over {} nodes; every node holds "
                                  "gpus / nodes GPUs",
                                  m.gpus, m.nodes));
  }
  if (row.has("scale_up")) {
    m.scale_up = row.text("scale_up");
  }
  if (row.has("nics_per_node") && !row.text("nics_per_node").empty()) {
    m.nics_per_node = row.whole("nics_per_node", 1, limits::max_domain);
  }
  const bool across = !m.scale_up.empty() || m.nics_per_node > 0;
  if (across && m.nodes == 1) {
    row.fail(m.scale_up.empty() ? "nics_per_node" : "scale_up",
             "describes a row across nodes, and this one has nodes = 1; leave it empty");
  }
  if (across && m.scale_up.empty() && m.gpus_per_node() > 1) {
    row.fail("scale_up", fmt::format("{} GPUs on each of {} nodes need the link inside a node "
                                     "(e.g. nvlink4)",
                                     m.gpus_per_node(), m.nodes));
  }
}

/// The optional columns impl and topology.
void read_setup(const detail::CsvRow& row, MeasuredCollective& m) {
  if (row.has("impl") && !row.text("impl").empty()) {
    const auto implementation = implementation_from_name(row.text("impl"));
    if (!implementation) {
      row.fail("impl", fmt::format("unknown implementation '{}'; known: {}", row.text("impl"),
                                   fmt::join(names<Implementation>(), ", ")));
    }
    m.setup.implementation = *implementation;
  }
  if (row.has("topology")) {
    m.setup.topology = row.text("topology");
  }
}

MeasuredCollective read_row(const detail::CsvRow& row, std::size_t line) {
  MeasuredCollective m;
  m.line = line;
  m.hardware = row.text("hardware");
  m.link = row.text("link");
  if (m.link.empty()) {
    row.fail("link", "expected a link id, got an empty field");
  }
  read_layout(row, m);
  const auto op = collective_from_name(row.text("op"));
  if (!op) {
    row.fail("op", fmt::format("unknown operation '{}'; known: {}", row.text("op"),
                               fmt::join(names<Collective>(), ", ")));
  }
  m.op = *op;
  const auto algorithm = algorithm_from_name(row.text("algo"));
  if (!algorithm) {
    row.fail("algo", fmt::format("unknown algorithm '{}'; known: {}", row.text("algo"),
                                 fmt::join(names<Algorithm>(), ", ")));
  }
  m.algorithm = *algorithm;
  read_setup(row, m);
  const auto size = row.optional_positive("size_bytes");
  if (!size || *size > limits::max_exact_double || std::trunc(*size) != *size) {
    row.fail("size_bytes", fmt::format("expected a whole number of bytes from 1 to 2^53, got '{}'",
                                       row.text("size_bytes")));
  }
  m.size = Bytes::of(*size);
  const double factor = busbw_factor(m.op, m.gpus);
  const auto time_us = row.optional_positive("time_us");
  const auto busbw_gbps = row.optional_positive("busbw_GBps");
  if (!time_us && !busbw_gbps) {
    row.fail("time_us", "a row needs time_us, busbw_GBps or both");
  }
  m.time = time_us ? microseconds(*time_us) : m.size / (gigabytes_per_second(*busbw_gbps) / factor);
  m.busbw = busbw_gbps ? gigabytes_per_second(*busbw_gbps) : (m.size / m.time) * factor;
  m.use = row.has("use") ? row.text("use") : "held-out";
  if (std::ranges::find(uses, m.use) == uses.end()) {
    row.fail("use", fmt::format("expected fit, held-out or outside, got '{}'", m.use));
  }
  m.source = row.text("source");
  return m;
}

/// Every required column present, and no column named twice (which one would be read?).
} // namespace

std::vector<MeasuredCollective> parse_measurements_csv(std::string_view text,
                                                       const std::string& origin) {
  return detail::read_csv_rows<MeasuredCollective>(text, origin, required_columns, read_row);
}

std::vector<MeasurementFile> shipped_measurements() {
  std::vector<MeasurementFile> files;
  for (const detail::EmbeddedFile& file : detail::embedded_validation_files()) {
    files.push_back({"<shipped>/" + std::string(file.name), file.text});
  }
  return files;
}

bool MeasuredCollective::spans_nodes() const {
  return nodes > 1 && (!scale_up.empty() || nics_per_node > 0);
}

Fabric fabric_of(const Catalog& catalog, const MeasuredCollective& m) {
  Fabric fabric;
  fabric.scale_up = m.scale_up.empty() ? nullptr : &catalog.link(m.scale_up);
  fabric.gpus_per_node = m.gpus_per_node();
  fabric.scale_out = &catalog.link(m.link);
  fabric.nics_per_node = m.nics();
  return fabric;
}

AccuracyBound accuracy_bound(Bytes size) {
  // The accuracy targets of the expected model, by message size.
  if (size.value() >= gibi) {
    return {Metric::busbw, 0.10};
  }
  if (size.value() >= 128 * mebi) {
    return {Metric::busbw, 0.25};
  }
  return {Metric::time, 0.50};
}

std::vector<std::size_t> AccuracyReport::out_of_bound() const {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    if (checks[i].comparison.misses()) {
      rows.push_back(i);
    }
  }
  return rows;
}

namespace {

/// Whether the row's implementation and topology exist on its link.
Check check_setup(const Link& link, const MeasuredCollective& m) {
  if (Check runs = check_implementation(link, m.op, m.setup.implementation); !runs) {
    return runs;
  }
  try {
    (void)link_topology(link, m.setup.topology, m.gpus);
  } catch (const InputError& error) {
    return unexpected(error.what());
  }
  return {};
}

/// The expected model on the row's one link.
Expected<CollectiveCost> predict_on_link(const Link& link, const MeasuredCollective& m) {
  if (const Check supported = check_algorithm(link, m.op, m.algorithm); !supported) {
    return unexpected(supported.reason());
  }
  if (const Check modelled = check_expected_model(link, m.algorithm); !modelled) {
    return unexpected(modelled.reason());
  }
  if (const Check runs = check_setup(link, m); !runs) {
    return unexpected(runs.reason());
  }
  return expected_collective(link, {m.op, m.algorithm, m.gpus, m.size, m.setup});
}

/// The expected model across the row's nodes.
Expected<CollectiveCost> predict_across_nodes(const Catalog& catalog, const MeasuredCollective& m) {
  const Fabric fabric = fabric_of(catalog, m);
  if (m.algorithm == Algorithm::nvls_tree && fabric.scale_up == nullptr) {
    return unexpected("nvls-tree reduces inside a node's switch, and the row has one GPU per "
                      "node; use tree or ring");
  }
  if (const Check check = check_fabric(fabric, m.op, m.algorithm, m.gpus); !check) {
    return unexpected(check.reason());
  }
  try {
    return fabric_collective(fabric, {m.op, m.algorithm, m.gpus, m.size, m.setup});
  } catch (const InputError& error) {
    return unexpected(error.what());
  }
}

/// The bound's metric of a cost: bytes per second of busbw, or seconds.
double metric_value(Metric metric, const CollectiveCost& cost) {
  return metric == Metric::busbw ? cost.busbw.value() : cost.time.value();
}

} // namespace

std::string wire_label(const MeasuredCollective& m) {
  std::string label = m.link;
  if (m.setup.implementation != Implementation::nccl) {
    label += fmt::format(" {}", to_string(m.setup.implementation));
  }
  if (!m.setup.topology.empty()) {
    label += " " + m.setup.topology;
  }
  if (m.spans_nodes()) {
    label += " across nodes";
  }
  return label;
}

AccuracyReport check_accuracy(const Catalog& catalog,
                              const std::vector<MeasuredCollective>& measurements) {
  AccuracyReport report;
  std::map<std::string, ComparisonTally, std::less<>> by_use;
  std::map<std::string, std::map<std::string, ComparisonTally, std::less<>>, std::less<>> by_wire;
  for (const MeasuredCollective& m : measurements) {
    AccuracyCheck check;
    check.measured = m;
    check.bound = accuracy_bound(m.size);
    check.predicted = m.spans_nodes() ? predict_across_nodes(catalog, m)
                                      : predict_on_link(catalog.link(m.link), m);
    const double measured = check.bound.metric == Metric::busbw ? m.busbw.value() : m.time.value();
    check.comparison =
        compare(measured,
                check.predicted ? std::optional(metric_value(check.bound.metric, *check.predicted))
                                : std::nullopt,
                check.bound.bound(), m.use != "outside");
    by_use[m.use].add(check.comparison);
    by_wire[wire_label(m)][m.use].add(check.comparison);
    report.checks.push_back(std::move(check));
  }
  for (const auto& [use, tally] : by_use) {
    report.by_use[use] = tally.summary();
  }
  for (const auto& [wire, uses] : by_wire) {
    for (const auto& [use, tally] : uses) {
      report.by_wire[wire][use] = tally.summary();
    }
  }
  return report;
}

} // namespace icx
