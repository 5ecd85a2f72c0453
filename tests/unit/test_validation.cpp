#include "icx/measured/collective_validation.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_validation {
namespace {

const std::string columns =
    "hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,source\n";

std::string error_of(const std::string& text) {
  try {
    (void)parse_measurements_csv(text, "m.csv");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(Validation, ParsesRowsAndDerivesTheMissingFigure) {
  const auto rows = parse_measurements_csv(
      columns + "\"8x A100, SXM\",nvlink3,8,1,all-reduce,ring,1073741824,,229.04,\"a \"\"b\"\"\"\n"
                "x,nvlink3,8,1,all-reduce,ring,32768,43.83,,s\n",
      "m.csv");
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].hardware, "8x A100, SXM");
  EXPECT_EQ(rows[0].source, "a \"b\"");
  EXPECT_EQ(rows[0].use, "held-out");
  EXPECT_EQ(rows[0].line, 2U);
  // time = S / (busbw / 1.75) = 2^30 × 1.75 / 229.04e9 s = 8.20402 ms (published: 8203.9 µs).
  EXPECT_NEAR(rows[0].time.value(), 8.20402e-3, 1e-8);
  // busbw = S / t × 1.75 = 32768 / 43.83e-6 × 1.75 = 1.3083 GB/s.
  EXPECT_NEAR(rows[1].busbw.value(), 32768 / 43.83e-6 * 1.75, 1.0);
}

TEST(Validation, RejectsMalformedRowsNamingTheLine) {
  EXPECT_EQ(error_of("hardware,link\n"),
            "m.csv:1: header lacks column 'gpus'; required: hardware,link,gpus,nodes,op,algo,"
            "size_bytes,time_us,busbw_GBps,source");
  EXPECT_EQ(error_of(columns + "x,nvlink3,8,1,all-reduce,ring,32768,,,s\n"),
            "m.csv:2: column 'time_us': a row needs time_us, busbw_GBps or both");
  EXPECT_EQ(error_of(columns + "x,nvlink3,1,1,all-reduce,ring,32768,4,,s\n"),
            "m.csv:2: column 'gpus': expected a whole number from 2 to 1048576, got '1'");
  EXPECT_EQ(error_of(columns + "x,nvlink3,8,1,broadcast,ring,32768,4,,s\n"),
            "m.csv:2: column 'op': unknown operation 'broadcast'; known: all-reduce, all-gather, "
            "reduce-scatter, all-to-all, point-to-point");
  EXPECT_EQ(error_of(columns + "x,nvlink3,8,1,all-reduce,ring,1.5,4,,s\n"),
            "m.csv:2: column 'size_bytes': expected a whole number of bytes from 1 to 2^53, got "
            "'1.5'");
  EXPECT_EQ(error_of(columns + "x,nvlink3,8\n"),
            "m.csv:2: expected 10 fields as in the header, got 3");
  EXPECT_EQ(error_of(columns + "\"x,nvlink3\n"), "m.csv:2: unterminated quoted field");
  EXPECT_EQ(error_of(""), "m.csv: empty file; expected a header line naming the columns");
}

TEST(Validation, BoundsBySize) {
  EXPECT_EQ(accuracy_bound(Bytes::of(1073741824)).metric, Metric::busbw);
  EXPECT_DOUBLE_EQ(accuracy_bound(Bytes::of(1073741824)).tolerance, 0.10);
  EXPECT_DOUBLE_EQ(accuracy_bound(Bytes::of(134217728)).tolerance, 0.25);
  EXPECT_EQ(accuracy_bound(Bytes::of(134217727)).metric, Metric::time);
  EXPECT_DOUBLE_EQ(accuracy_bound(Bytes::of(32768)).tolerance, 0.50);
}

// The accuracy targets: every shipped published measurement that the model claims to cover
// (fit and held-out rows) is predicted within its bound by the shipped catalog.
TEST(Validation, ShippedModelMeetsItsBoundsOnEveryPublishedRow) {
  const Catalog catalog = Catalog::shipped();
  std::vector<MeasuredCollective> rows;
  for (const MeasurementFile& file : shipped_measurements()) {
    for (const MeasuredCollective& row : parse_measurements_csv(file.text, file.origin)) {
      rows.push_back(row);
    }
  }
  ASSERT_GE(rows.size(), 100U);
  const AccuracyReport report = check_accuracy(catalog, rows);
  int held_out = 0;
  for (const AccuracyCheck& check : report.checks) {
    if (check.measured.use == "outside") {
      continue;
    }
    held_out += check.measured.use == "held-out" ? 1 : 0;
    ASSERT_TRUE(check.predicted) << check.measured.link << " line " << check.measured.line;
    EXPECT_LE(std::abs(check.comparison.error), check.bound.tolerance)
        << check.measured.hardware << " " << check.measured.size.value() << " B, line "
        << check.measured.line;
  }
  // Every row of the shipped validation/collectives.csv, plus the extra held-out rows.
  EXPECT_GE(held_out, 33);
  EXPECT_EQ(report.by_use.at("held-out").within, report.by_use.at("held-out").rows);
}

TEST(Validation, OutOfBoundListsOnlyPredictedRowsHeldToABound) {
  // One link priced at 450 GB/s each way × 0.8: a 4 GiB ring all-reduce on 8 GPUs runs
  // ring/Simple, 14 × 2 µs + 100 µs + 1.75 × 2^32 / 360e9 = 20.8777 ms, busbw
  // 1.75 × 2^32 / 20.8777 ms = 357.81 GB/s: 350 is within 10 %, 300 and 700 are not.
  Catalog catalog = test::nvswitch_catalog();
  catalog.overlay_text(R"({"links": [
    {"id": "slow", "name": "Slow", "connects": "node", "tier": "scale-out", "headline_GBps": 50,
     "headline_convention": "each-way", "per_direction_GBps": 50, "latency_us": 1,
     "source": "s"}]})",
                       "links.json");
  const std::string csv =
      "hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,use,source\n"
      "x,fast,8,1,all-reduce,ring,4294967296,,350,held-out,within 10 %\n"
      "x,fast,8,1,all-reduce,ring,4294967296,,700,held-out,twice as fast: out\n"
      "x,fast,8,1,all-reduce,ring,4294967296,,700,outside,shown only\n"
      "x,slow,8,1,all-reduce,ring,4294967296,,700,held-out,not predicted\n"
      "x,fast,8,1,all-reduce,ring,4294967296,,300,fit,below 10 %: out\n";
  const AccuracyReport report = check_accuracy(catalog, parse_measurements_csv(csv, "m.csv"));
  EXPECT_EQ(report.out_of_bound(), (std::vector<std::size_t>{1, 4}));
}

const std::string setup_columns = "hardware,link,gpus,nodes,op,algo,impl,topology,size_bytes,"
                                  "time_us,busbw_GBps,use,source\n";

TEST(Validation, ImplementationAndTopologyColumns) {
  const auto rows =
      parse_measurements_csv(setup_columns + "x,nvlink4,8,1,all-reduce,auto,vllm,,65536,12,,fit,s\n"
                                             "x,pcie4,8,1,all-reduce,ring,,host,65536,40,,fit,s\n",
                             "m.csv");
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].setup.implementation, Implementation::vllm);
  EXPECT_EQ(rows[0].setup.topology, "");
  EXPECT_EQ(rows[1].setup.implementation, Implementation::nccl); // empty: NCCL
  EXPECT_EQ(rows[1].setup.topology, "host");
  EXPECT_EQ(wire_label(rows[0]), "nvlink4 vllm");
  EXPECT_EQ(wire_label(rows[1]), "pcie4 host");
  MeasuredCollective both = rows[0];
  both.setup.topology = "switch";
  EXPECT_EQ(wire_label(both), "nvlink4 vllm switch");
  // Without the columns: NCCL and the link's default topology.
  const auto plain =
      parse_measurements_csv(columns + "x,nvlink3,8,1,all-reduce,ring,32768,43.83,,s\n", "m.csv");
  EXPECT_EQ(plain[0].setup.implementation, Implementation::nccl);
  EXPECT_EQ(wire_label(plain[0]), "nvlink3");
  EXPECT_EQ(error_of(setup_columns + "x,nvlink4,8,1,all-reduce,ring,trtllm,,65536,12,,fit,s\n"),
            "m.csv:2: column 'impl': unknown implementation 'trtllm'; known: nccl, custom, "
            "one-shot, two-shot, multimem, vllm, sglang");
}

TEST(Validation, AccuracyByWire) {
  // "fast" (test::nvswitch_catalog): 4 GiB on 8 GPUs at 357.81 GB/s busbw (see above); vllm
  // runs NCCL there (no engine figures), custom cannot run. "pc": 64 GB/s each way, its "host"
  // topology 0.5 at 4 µs per step: ring/Simple 14 × 4 µs + 100 µs + 1.75 × 2^32 / 32e9 =
  // 235.037 ms, busbw 1.75 × 2^32 / 235.037 ms = 31.979 GB/s; 31 is within 10 %.
  Catalog catalog = test::nvswitch_catalog();
  catalog.overlay_text(R"({"links": [
    {"id": "pc", "name": "PC", "connects": "c", "tier": "host", "headline_GBps": 64,
     "headline_convention": "each-way", "per_direction_GBps": 64, "latency_us": 1, "source": "s",
     "expected": {"efficiency": 0.8, "step_latency_us": 3, "ramp_us": 100,
                  "small_message_slowdown": 1, "source": "s"},
     "topologies": {"host": {"description": "d", "efficiency": 0.5, "step_latency_us": 4,
                             "default_up_to_gpus": 8, "source": "t"}}}]})",
                       "links.json");
  const std::string csv = setup_columns +
                          "x,fast,8,1,all-reduce,ring,,,4294967296,,350,held-out,s\n"
                          "x,fast,8,1,all-reduce,ring,nccl,,4294967296,,300,fit,s\n"
                          "x,fast,8,1,all-reduce,ring,vllm,,4294967296,,350,held-out,s\n"
                          "x,fast,8,1,all-reduce,ring,custom,,4294967296,,350,held-out,s\n"
                          "x,pc,8,1,all-reduce,ring,,host,4294967296,,31,held-out,s\n"
                          "x,pc,8,1,all-reduce,ring,,numa,4294967296,,31,held-out,s\n";
  const AccuracyReport report = check_accuracy(catalog, parse_measurements_csv(csv, "m.csv"));
  ASSERT_EQ(report.by_wire.size(), 5U);
  const auto summary = [&](const char* wire, const char* use) {
    return report.by_wire.at(wire).at(use);
  };
  EXPECT_EQ(summary("fast", "held-out").rows, 1);
  EXPECT_EQ(summary("fast", "held-out").within, 1);
  EXPECT_EQ(summary("fast", "fit").within, 0);
  EXPECT_EQ(summary("fast vllm", "held-out").within, 1);
  EXPECT_EQ(summary("fast custom", "held-out").predicted, 0);
  EXPECT_EQ(summary("pc host", "held-out").within, 1);
  EXPECT_NEAR(summary("pc host", "held-out").median_abs_error, 31.979 / 31 - 1, 1e-4);
  EXPECT_EQ(summary("pc numa", "held-out").predicted, 0);
  EXPECT_EQ(report.checks[5].predicted.reason(),
            "wire 'pc' has no topology 'numa'; choose one of: host");
  // by_use still counts every row once.
  EXPECT_EQ(report.by_use.at("held-out").rows, 5);
}

const std::string node_columns = "hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,"
                                 "use,source,scale_up,nics_per_node\n";

/// "fast" (test::nvswitch_catalog: 450 GB/s each way at 0.8, 2 µs a step, no NVLS) inside a
/// node, and "nic": an HDR-like NIC of 25 GB/s each way at 0.96, 5 µs a step, ramp 100 µs.
Catalog node_catalog() {
  Catalog catalog = test::nvswitch_catalog();
  catalog.overlay_text(R"({"links": [
    {"id": "nic", "name": "NIC", "connects": "node", "tier": "scale-out", "headline_GBps": 25,
     "headline_convention": "each-way", "per_direction_GBps": 25, "latency_us": 1,
     "source": "s",
     "expected": {"efficiency": 0.96, "step_latency_us": 5, "ramp_us": 100,
                  "small_message_slowdown": 1, "source": "s"}}]})",
                       "links.json");
  return catalog;
}

TEST(Validation, ARowAcrossNodesIsPricedOnTheNodesNics) {
  // 3 nodes of 8 GPUs with 4 NICs each: the ring carries 2·23/24 · 8e9 = 15.333e9 B through
  // a node's NICs at 4 · 25 · 0.96 = 96 GB/s (the GPU's own link would allow 360) = 159.72 ms;
  // of its 46 steps 4 cross nodes (5 µs) and 42 stay inside (2 µs), plus the 100 µs ramp:
  // 204 µs. busbw = 8e9 · 46/24 / 159.93 ms = 95.88 GB/s, within 10 % of 96. On one NIC
  // (the flat ring of a row without scale_up) it would be 24 GB/s.
  const auto rows = parse_measurements_csv(
      node_columns + "x,nic,24,3,all-reduce,ring,8000000000,,96,held-out,s,fast,4\n", "m.csv");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_TRUE(rows[0].spans_nodes());
  EXPECT_EQ(rows[0].gpus_per_node(), 8);
  EXPECT_EQ(rows[0].scale_up, "fast");
  EXPECT_EQ(rows[0].nics(), 4);
  EXPECT_EQ(wire_label(rows[0]), "nic across nodes");
  const AccuracyReport report = check_accuracy(node_catalog(), rows);
  const AccuracyCheck& check = report.checks[0];
  ASSERT_TRUE(check.predicted) << check.predicted.reason();
  EXPECT_EQ(check.predicted->kernel, Kernel::ring_simple);
  const double seconds = 8e9 * 46 / 24 / 96e9 + (4 * 5 + 42 * 2 + 100) * 1e-6;
  EXPECT_NEAR(check.predicted->time.value(), seconds, 1e-9);
  EXPECT_NEAR(check.predicted->busbw.value() / 1e9, 95.877, 1e-3);
  EXPECT_TRUE(check.comparison.within());
  EXPECT_EQ(report.by_wire.at("nic across nodes").at("held-out").within, 1);
}

TEST(Validation, OneGpuPerNodeStaysTheFlatRingUnlessNicsAreGiven) {
  // Without scale_up or nics_per_node: the flat ring on one NIC, 1e9 B at 24 GB/s after
  // 2 steps of 5 µs and the ramp. With 2 NICs a node: the same bytes at 48 GB/s.
  const auto rows =
      parse_measurements_csv(node_columns + "x,nic,2,2,all-reduce,ring,1000000000,,20,fit,s,,\n"
                                            "x,nic,2,2,all-reduce,ring,1000000000,,40,fit,s,,2\n",
                             "m.csv");
  EXPECT_FALSE(rows[0].spans_nodes());
  EXPECT_TRUE(rows[1].spans_nodes());
  EXPECT_EQ(wire_label(rows[0]), "nic");
  const AccuracyReport report = check_accuracy(node_catalog(), rows);
  EXPECT_NEAR(report.checks[0].predicted->time.value(), 1e9 / 24e9 + 110e-6, 1e-9);
  EXPECT_NEAR(report.checks[1].predicted->time.value(), 1e9 / 48e9 + 110e-6, 1e-9);
}

TEST(Validation, RowsAcrossNodesTheModelCannotRunSayWhy) {
  const auto rows = parse_measurements_csv(
      node_columns + "x,nic,2,2,all-reduce,nvls-tree,1000000000,,20,fit,s,,2\n"
                     "x,nic,16,2,all-gather,tree,1000000000,,20,fit,s,fast,8\n"
                     "x,fast,8,1,all-reduce,tree,1000000000,,20,fit,s,,\n",
      "m.csv");
  const AccuracyReport report = check_accuracy(node_catalog(), rows);
  EXPECT_EQ(report.checks[0].predicted.reason(),
            "nvls-tree reduces inside a node's switch, and the row has one GPU per node; use "
            "tree or ring");
  EXPECT_EQ(report.checks[1].predicted.reason(),
            "tree performs all-reduce only, not all-gather; use ring");
  EXPECT_FALSE(report.checks[2].predicted);
}

TEST(Validation, RejectsRaggedAndMisplacedNodeColumns) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"x,nic,24,5,all-reduce,ring,65536,40,,fit,s,fast,4",
       "column 'nodes': 24 GPUs do not split evenly over 5 nodes; every node holds gpus / nodes "
       "GPUs"},
      {"x,fast,8,1,all-reduce,ring,65536,40,,fit,s,fast,",
       "column 'scale_up': describes a row across nodes, and this one has nodes = 1; leave it "
       "empty"},
      {"x,fast,8,1,all-reduce,ring,65536,40,,fit,s,,8",
       "column 'nics_per_node': describes a row across nodes, and this one has nodes = 1; leave "
       "it empty"},
      {"x,nic,16,2,all-reduce,ring,65536,40,,fit,s,,8",
       "column 'scale_up': 8 GPUs on each of 2 nodes need the link inside a node (e.g. nvlink4)"},
      {"x,nic,16,2,all-reduce,ring,65536,40,,fit,s,fast,0",
       "column 'nics_per_node': expected a whole number from 1 to 1048576, got '0'"}};
  for (const auto& [row, message] : cases) {
    EXPECT_EQ(error_of(node_columns + row + "\n"), "m.csv:2: " + message) << row;
  }
}

} // namespace
} // namespace icx::unit_validation
