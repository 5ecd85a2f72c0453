// The expert-parallel model against hand-computed routing and bytes, and against published
// DeepEP runs (data/measurements/expert_parallel.csv: the rows its catalog figures were fitted to
// and the rows held out, each with the error bound icx is held to).
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/ep.hpp"
#include "icx/wire/expert_parallel.hpp"
#include "icx/words/ep.hpp"

namespace icx::unit_expert_parallel {
namespace {

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

Model routed(int hidden, int experts, int per_token) {
  Model model;
  model.id = "routed";
  model.hidden = hidden;
  model.layers = 1;
  model.experts = experts;
  model.experts_per_token = per_token;
  return model;
}

/// 1 − C(pool − block, k) / C(pool, k), written out for the test.
double hit(double pool, double block, int k) {
  double miss = 1;
  for (int i = 0; i < k; ++i) {
    miss *= (pool - block - i) / (pool - i);
  }
  return 1 - miss;
}

TEST(ExpertParallel, TokenBytesCarryFp8Scales) {
  // DeepEP's FP8 dispatch: 7168 values and 7168 / 128 four-byte scales; BF16 combine: 2 B each.
  EXPECT_EQ(ep_token_bytes(7168, shipped().dtype("fp8")).value(), 7168 + 56 * 4);
  EXPECT_EQ(ep_token_bytes(7168, shipped().dtype("bf16")).value(), 14336);
}

TEST(ExpertParallel, UniformRoutingOverTwoNodes) {
  // 256 experts, 128 per node, 8 per token: a token misses a node with probability
  // C(128, 8) / C(256, 8) = 0.0034899.
  const Model model = routed(7168, 256, 8);
  const EpDestinations d = ep_destinations(model, 16, 8, {});
  EXPECT_NEAR(d.nodes, 2 * 0.99651005771591, 1e-9);
  EXPECT_NEAR(d.gpus, 16 * hit(256, 16, 8), 1e-9);
  EXPECT_EQ(d.max_nodes, 2);
  EXPECT_EQ(d.limit, "none");
}

TEST(ExpertParallel, DeepSeekGroupsOnePerNodeReachFourNodes) {
  // 8 nodes of 32 experts, one expert group each; a token picks 4 groups, then its 8 experts
  // among their 128: a node is touched with probability 4/8 · (1 − C(96, 8) / C(128, 8)).
  const Model& model = shipped().model("deepseek-v3");
  const EpDestinations d = ep_destinations(model, 64, 8, {});
  EXPECT_EQ(d.limit, "model");
  EXPECT_EQ(d.max_nodes, 4);
  EXPECT_NEAR(d.nodes, 8 * 0.5 * 0.90725273110643, 1e-9);
  EXPECT_NEAR(d.gpus, 64 * 0.5 * hit(128, 4, 8), 1e-9);
}

TEST(ExpertParallel, FlagLimitsNodesAsDeepEpsTestRoutes) {
  const Model model = routed(7168, 256, 8);
  EpRouting routing;
  routing.max_nodes_per_token = 2;
  const EpDestinations d = ep_destinations(model, 64, 8, routing);
  EXPECT_EQ(d.limit, "flag");
  EXPECT_EQ(d.max_nodes, 2);
  EXPECT_NEAR(d.nodes, 8 * (2.0 / 8) * hit(64, 32, 8), 1e-9);
}

EpRequest request(const Model& model, int gpus, EpMode mode, double tokens) {
  const Catalog& c = shipped();
  EpRequest r;
  r.model = &model;
  r.fabric = {&c.link("nvlink4"), 8, &c.link("ib-ndr"), 8};
  r.gpus = gpus;
  r.tokens_per_gpu = tokens;
  r.mode = mode;
  r.dispatch_dtype = &c.dtype("fp8");
  r.combine_dtype = &c.dtype("bf16");
  return r;
}

TEST(ExpertParallel, LowLatencySendsOneCopyPerExpert) {
  // EP 32 on 4 nodes, 128 tokens × 8 copies of 7392 B: 3/4 of them leave the node, 7/32 go to
  // the seven other GPUs of the node.
  const Model model = routed(7168, 256, 8);
  const EpLayerCost cost = ep_layer_cost(request(model, 32, EpMode::low_latency, 128));
  EXPECT_DOUBLE_EQ(cost.dispatch.network.value(), 128 * 8 * 0.75 * 7392);
  EXPECT_DOUBLE_EQ(cost.dispatch.scale_up.value(), 128 * 8 * 7.0 / 32 * 7392);
  EXPECT_DOUBLE_EQ(cost.combine.network.value(), 128 * 8 * 0.75 * 14336);
}

TEST(ExpertParallel, NormalSendsOncePerNodeThenForwards) {
  // EP 16: each token crosses to the other node when it has an expert there, then the GPU on
  // its rail forwards it to the other GPUs there holding its experts.
  const Model model = routed(7168, 256, 8);
  const EpLayerCost cost = ep_layer_cost(request(model, 16, EpMode::normal, 4096));
  const double nodes = 2 * hit(256, 128, 8);
  const double gpus = 16 * hit(256, 16, 8);
  EXPECT_NEAR(cost.dispatch.network.value(), 4096 * nodes * 0.5 * 7392, 1e-3);
  EXPECT_NEAR(cost.dispatch.scale_up.value(), 4096 * gpus * (7.0 / 8) * 7392, 1e-3);
}

TEST(ExpertParallel, SkewScalesTheBusiestGpu) {
  const Model model = routed(7168, 256, 8);
  EpRequest r = request(model, 32, EpMode::low_latency, 128);
  const double uniform = ep_layer_cost(r).dispatch.network.value();
  r.routing.skew = 1.5;
  EXPECT_DOUBLE_EQ(ep_layer_cost(r).dispatch.network.value(), 1.5 * uniform);
}

TEST(ExpertParallel, RejectsWhatCannotBePriced) {
  const Model model = routed(7168, 256, 8);
  EXPECT_FALSE(check_ep(request(model, 12, EpMode::normal, 1)));
  EpRequest redundant = request(model, 144, EpMode::normal, 1);
  EXPECT_FALSE(check_ep(redundant));
  redundant.routing.redundant_experts = 32; // 288 = 144 · 2
  EXPECT_TRUE(check_ep(redundant));
  EpRequest skewed = request(model, 16, EpMode::normal, 1);
  skewed.routing.skew = 0.5;
  EXPECT_FALSE(check_ep(skewed));
  const Model dense = routed(8192, 0, 0);
  EXPECT_FALSE(check_ep(request(dense, 16, EpMode::normal, 1)));
}

TEST(ExpertParallel, DeepSeekOnTwoH100NodesMatchesDeepEpsRange) {
  // DeepEP's H800 tables put EP 16 at 4096 tokens per GPU at about 0.5-1.0 ms of dispatch and
  // 1-2 ms of combine per MoE layer, EP 32 at 128 tokens at 120-200 and 200-350 µs.
  const Model& model = shipped().model("deepseek-v3");
  const EpLayerCost normal = ep_layer_cost(request(model, 16, EpMode::normal, 4096));
  EXPECT_GT(normal.dispatch.expected->value(), 0.5e-3);
  EXPECT_LT(normal.dispatch.expected->value(), 1.0e-3);
  EXPECT_GT(normal.combine.expected->value(), 1.0e-3);
  EXPECT_LT(normal.combine.expected->value(), 2.0e-3);
  const EpLayerCost low = ep_layer_cost(request(model, 32, EpMode::low_latency, 128));
  EXPECT_GT(low.dispatch.expected->value(), 120e-6);
  EXPECT_LT(low.dispatch.expected->value(), 200e-6);
  EXPECT_GT(low.combine.expected->value(), 200e-6);
  EXPECT_LT(low.combine.expected->value(), 350e-6);
}

TEST(ExpertParallel, NcclModePricesTheAllToAllOfEveryCopy) {
  const Model model = routed(4096, 8, 2);
  EpRequest r = request(model, 8, EpMode::nccl, 1000);
  r.dispatch_dtype = &shipped().dtype("bf16");
  const EpLayerCost cost = ep_layer_cost(r);
  // One node: 1000 tokens × 2 copies × 8192 B, 7/8 of it to the other GPUs.
  EXPECT_DOUBLE_EQ(cost.dispatch.scale_up.value(), 1000 * 2 * 8192 * 7.0 / 8);
  EXPECT_EQ(cost.dispatch.network.value(), 0);
  EXPECT_TRUE(cost.dispatch.expected.has_value());
}

TEST(ExpertParallel, ExplainSubstitutesTheCopiesAndTheLayers) {
  // Two nodes of 8, NCCL's all-to-all of 2 copies: 8 of the 16 ranks are on the other node.
  Model model = routed(4096, 16, 2);
  model.layers = 4;
  EpRequest r = request(model, 16, EpMode::nccl, 1000);
  r.dispatch_dtype = &shipped().dtype("fp8");
  const EpLayerCost cost = ep_layer_cost(r);
  EXPECT_DOUBLE_EQ(cost.dispatch.network_copies, 2 * 8.0 / 16);
  EXPECT_DOUBLE_EQ(cost.dispatch.scale_up_copies, 2 * 7.0 / 16);
  const Derivations d = derive_ep(r, cost, 3);
  const auto value = [&](const std::string& quantity) {
    for (const Derivation& each : d) {
      if (each.quantity == quantity) {
        return each.value;
      }
    }
    ADD_FAILURE() << "no derivation of " << quantity;
    return 0.0;
  };
  // FP8: 4096 bytes and one 4-byte scale per 128 elements; BF16: 8192 bytes.
  const double fp8_token = 4096 + 4096 / 128 * 4;
  EXPECT_DOUBLE_EQ(value("dispatch bytes per token"), fp8_token);
  EXPECT_DOUBLE_EQ(value("combine bytes per token"), 8192);
  EXPECT_DOUBLE_EQ(value("dispatch network bytes per GPU"), fp8_token * 1000 * 1.0);
  EXPECT_DOUBLE_EQ(value("combine scale-up bytes per GPU"), 8192 * 1000 * 0.875);
  // Three MoE layers of dispatch and combine, each over the network and inside the node.
  EXPECT_DOUBLE_EQ(value("bytes per GPU per pass"), 3 * (fp8_token + 8192) * 1000 * (1.0 + 0.875));
  EXPECT_DOUBLE_EQ(value("headline per pass"),
                   3 * (cost.dispatch.headline + cost.combine.headline).value());
}

struct PublishedRun {
  std::map<std::string, std::string> field;
  [[nodiscard]] const std::string& operator[](const std::string& key) const {
    return field.at(key);
  }
  [[nodiscard]] double number(const std::string& key) const { return std::stod(field.at(key)); }
};

std::vector<PublishedRun> published_runs() {
  std::ifstream in(std::string(ICX_MEASUREMENTS_DIR) + "/expert_parallel.csv");
  std::vector<PublishedRun> rows;
  std::vector<std::string> header;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') {
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) {
      cells.push_back(cell);
    }
    if (header.empty()) {
      header = cells;
      continue;
    }
    PublishedRun run;
    for (std::size_t i = 0; i < header.size(); ++i) {
      run.field[header[i]] = i < cells.size() ? cells[i] : std::string();
    }
    rows.push_back(run);
  }
  return rows;
}

/// The published time: a time as given, or DeepEP's logical bytes (tokens × distinct nodes or
/// GPUs, its own included) over its bandwidth figure.
double measured_seconds(const PublishedRun& run, const EpLayerCost& cost) {
  if (run["unit"] == "us") {
    return run.number("published") * 1e-6;
  }
  const bool rdma = run["unit"] == "GBps-logical-rdma";
  const double copies = rdma ? cost.destinations.nodes : cost.destinations.gpus;
  const Bytes token = run["op"] == "dispatch" ? cost.dispatch_token : cost.combine_token;
  return run.number("tokens_per_gpu") * copies * token.value() / (run.number("published") * 1e9);
}

TEST(ExpertParallel, PublishedRunsWithinTheirBounds) {
  const Catalog& c = shipped();
  int checked = 0;
  for (const PublishedRun& run : published_runs()) {
    const Model model =
        routed(static_cast<int>(run.number("hidden")), static_cast<int>(run.number("experts")),
               static_cast<int>(run.number("topk")));
    EpRequest r;
    r.model = &model;
    const bool nodes = !run["scale_out"].empty();
    r.fabric = {&c.link(run["scale_up"]), static_cast<int>(run.number("gpus_per_node")),
                nodes ? &c.link(run["scale_out"]) : nullptr,
                static_cast<int>(run.number("nics_per_node"))};
    r.gpus = static_cast<int>(run.number("ep"));
    r.tokens_per_gpu = run.number("tokens_per_gpu");
    r.mode = *parse_enum<EpMode>(run["mode"]);
    r.dispatch_dtype = &c.dtype("fp8");
    r.combine_dtype = &c.dtype("bf16");
    if (run["routing"].starts_with("nodes:")) {
      r.routing.max_nodes_per_token = std::stoi(run["routing"].substr(6));
    }
    const EpLayerCost cost = ep_layer_cost(r);
    const EpKernelCost& kernel = run["op"] == "dispatch" ? cost.dispatch : cost.combine;
    const double measured = measured_seconds(run, cost);
    const double error = kernel.expected->value() / measured - 1;
    EXPECT_LE(std::abs(error), run.number("bound"))
        << run["source"] << " " << run["gpu"] << " EP " << run["ep"] << " " << run["mode"] << " "
        << run["op"] << ": measured " << measured * 1e6 << " us, expected "
        << kernel.expected->value() * 1e6 << " us";
    ++checked;
  }
  EXPECT_GE(checked, 40);
}

} // namespace
} // namespace icx::unit_expert_parallel
