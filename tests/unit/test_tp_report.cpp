#include "icx/reports/tp.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "icx/serving/step_model.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_tp_report {
namespace {

// An NVLink-4-like link with expected-model parameters and a PCIe-like link without; a GPU
// native to the first and a reference GPU.
Catalog catalog() {
  Catalog c;
  c.overlay_text(R"({"dtypes": [{"id": "bf16", "name": "B", "bytes_per_element": 2, "source": "s"}],
    "links": [
      {"id": "nv", "name": "NV", "connects": "c", "tier": "scale-up", "headline_GBps": 900,
       "headline_convention": "both-directions-summed", "per_direction_GBps": 450,
       "latency_us": 1, "source": "s",
       "expected": {"efficiency": 0.8, "step_latency_us": 2, "ramp_us": 100,
                    "small_message_slowdown": 1, "source": "s"}},
      {"id": "pc", "name": "PC", "connects": "c", "tier": "host", "headline_GBps": 64,
       "headline_convention": "each-way", "per_direction_GBps": 64, "latency_us": 1,
       "source": "s"}],
    "gpus": [{"id": "g", "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3000,
              "dense_tflops": {"bf16": 1000}, "scale_up_link": "nv", "scale_up_domain": 8,
              "achievable_mfu": 0.5, "reference": true, "source": "s"}]})",
                 "test.json");
  c.overlay_text(test::engine_overlay, "engines.json");
  return c;
}

/// The catalog above and a scale-up link of another vendor, joining at most 8 GPUs.
Catalog with_foreign_link() {
  Catalog c = catalog();
  c.overlay_text(R"({"links": [
      {"id": "xg", "name": "XG", "connects": "c", "tier": "scale-up", "headline_GBps": 896,
       "headline_convention": "both-directions-summed", "per_direction_GBps": 448,
       "latency_us": 1, "max_domain_gpus": 8, "source": "s"}]})",
                 "more.json");
  return c;
}

/// Prefill of one 4096-token prompt in BF16 (the model outlives every request).
TpRequest prefill_request(const Catalog& c) {
  // 70e9 parameters, hidden 8192, 80 layers, 64 heads; no head width, so neither attention
  // FLOPs nor a KV cache enter the step: 2 FLOPs and one read per weight.
  static const Model model = test::make_dense(8192, 80, 70e9, 64);
  TpRequest r = tp_request_for(model, c.dtype("bf16"), c.dtype("bf16"));
  r.serving.tokens = 4096;
  return r;
}

/// A decode step of one sequence at no context: the same model with a head width, since a
/// decode step needs the KV cache's shape; at no context the cache adds no bytes.
TpRequest decode_request(const Catalog& c) {
  static const Model model = [] {
    Model m = test::make_dense(8192, 80, 70e9, 64);
    m.head_dim = 128;
    return m;
  }();
  TpRequest r = tp_request_for(model, c.dtype("bf16"), c.dtype("bf16"));
  r.serving.phase = Phase::decode;
  r.serving.batch = 1;
  r.serving.context = 0;
  return r;
}

/// Compute of the prefill on 8 GPUs: 2 × 70e9 × 4096 / 8 FLOP at 1e15 × 0.5 = 143 ms.
constexpr double prefill_compute = 2 * 70e9 * 4096 / 8 / 5e14;

TEST(TpReport, HeadlineAndExpectedSideBySide) {
  const Catalog c = catalog();
  const std::vector<const Link*> links{&c.link("nv"), &c.link("pc")};
  const TpReport report = tensor_parallel_report(c, prefill_request(c), links);
  EXPECT_EQ(report.message.value(), 4096.0 * 8192 * 2);
  ASSERT_EQ(report.wires.size(), 2U);
  const TpWire& nv = report.wires[0];
  EXPECT_DOUBLE_EQ(nv.headline.low.value(), 21474836480.0 / 900e9);
  // One all-reduce of S = 67,108,864 B over 8 GPUs. vLLM's dispatch (the default) runs NCCL:
  // nv has no engine figures, nor in-network reduction, so the ring: tb = 2·7/8·S /
  // (450e9 · 0.8) = 326.2 µs; ring/Simple 14 steps × 2 µs + 100 µs + tb = 454.2 µs beats
  // ring/LL 28 µs + 2 tb = 680.5 µs.
  const double tb = 1.75 * 67108864.0 / (450e9 * 0.8);
  const double one = 28e-6 + 100e-6 + tb;
  ASSERT_TRUE(nv.expected.has_value());
  EXPECT_NEAR(nv.expected->value(), 160 * one, 1e-9);
  EXPECT_EQ(nv.kernel, Kernel::ring_simple);
  EXPECT_EQ(nv.topology, nullptr);
  // Crossover of ring/Simple: 128 µs = 1.75 S / 360e9 at S = 128 µs · 360e9 / 1.75.
  ASSERT_TRUE(nv.crossover.has_value());
  EXPECT_NEAR(nv.crossover->value(), 128e-6 * 360e9 / 1.75, 1.0);
  // The step weighs the expected time against 143 ms of compute.
  ASSERT_TRUE(nv.judged.has_value());
  const Placement& p = nv.judged->placement;
  EXPECT_EQ(p.layout, (Layout{8, 1, 1, 1}));
  EXPECT_NEAR(p.step.work.compute.value(), prefill_compute, 1e-12);
  EXPECT_NEAR(p.step.comm.value(), 160 * one, 1e-9);
  EXPECT_NEAR(p.step.stage.value(), prefill_compute + 160 * one, 1e-9);
  const Verdict& tensor = p.strategies.at(0).verdict;
  EXPECT_TRUE(tensor.expected_model);
  EXPECT_NEAR(tensor.share, 160 * one / (prefill_compute + 160 * one), 1e-9);

  const TpWire& pc = report.wires[1];
  EXPECT_FALSE(pc.expected.has_value());
  EXPECT_FALSE(pc.expected.reason().empty());
  ASSERT_TRUE(pc.judged.has_value());
  EXPECT_FALSE(pc.judged->placement.strategies.at(0).verdict.expected_model);
  EXPECT_DOUBLE_EQ(pc.judged->placement.strategies.at(0).verdict.comm.value(),
                   21474836480.0 / 64e9);
  EXPECT_EQ(pc.gpu->id, "g"); // no GPU is native to pc: the reference GPU
  EXPECT_FALSE(pc.gpu_native);
}

TEST(TpReport, DecodeIsMemoryBound) {
  const Catalog c = catalog();
  TpRequest r = decode_request(c);
  const std::vector<const Link*> links{&c.link("nv")};
  const TpReport report = tensor_parallel_report(c, r, links);
  // 70e9 params × 2 B read by 8 GPUs at 3 TB/s each, and the token's activations: 2 B per
  // input and output of each GEMM of GPT's layer (no MLP width given) split 8 ways, 21,504
  // inputs and 23,552 outputs scaled by 70e9 / (12 × 8192² × 80) per layer.
  ASSERT_TRUE(report.wires[0].judged.has_value());
  const StepTime& step = report.wires[0].judged->placement.step;
  const double activations = 2 * (21504 + 23552 * 70e9 / (12.0 * 8192 * 8192 * 80)) * 80;
  EXPECT_NEAR(step.work.memory.value(), (140e9 / 8 + activations) / 3e12, 1e-12);
  EXPECT_GT(step.work.memory.value(), step.work.compute.value());
  // Decode all-reduces of 16 KiB sit far below the crossover: latency-bound.
  EXPECT_EQ(report.message.value(), 8192.0 * 2);
  EXPECT_LT(report.message.value(), report.wires[0].crossover->value());
}

TEST(TpReport, NoParametersNoVerdict) {
  const Catalog c = catalog();
  TpRequest r = prefill_request(c);
  r.total_params = 0;
  r.active_params = 0;
  const std::vector<const Link*> links{&c.link("pc")};
  const TpReport report = tensor_parallel_report(c, r, links);
  EXPECT_FALSE(report.wires[0].judged.has_value());
  EXPECT_FALSE(report.judged());
  EXPECT_EQ(report.legend.lines.back(),
            "verdicts need the model's parameter count: pass --params N.");
  const Json json = report;
  EXPECT_TRUE(json.at("wires").at(0).at("verdict").is_null());
}

TEST(TpReport, RejectsGroupsThatCannotExist) {
  const Catalog c = catalog();
  const std::vector<const Link*> links{&c.link("nv")};
  TpRequest r = prefill_request(c);
  r.attention = {64, 8, false, "m"};
  r.gpus = 1; // no all-reduce in a group of one
  EXPECT_THROW((void)tensor_parallel_report(c, r, links), InputError);
  r.gpus = 3; // does not divide 64 heads
  EXPECT_THROW((void)tensor_parallel_report(c, r, links), InputError);
  r.gpus = 8;
  EXPECT_NO_THROW((void)tensor_parallel_report(c, r, links));
}

TEST(TpReport, RejectsAGpuOnAnotherScaleUpLink) {
  const Catalog c = with_foreign_link();
  TpRequest r = prefill_request(c);
  r.gpu = &c.gpu("g");
  r.gpus = 8;
  const std::vector<const Link*> foreign{&c.link("xg")};
  EXPECT_THROW((void)tensor_parallel_report(c, r, foreign), InputError);
  // A host link suits any GPU.
  const std::vector<const Link*> host{&c.link("pc")};
  EXPECT_NO_THROW((void)tensor_parallel_report(c, r, host));
  // Beyond the link's 8-GPU domain, even without a GPU named.
  r.gpu = nullptr;
  r.gpus = 16;
  EXPECT_THROW((void)tensor_parallel_report(c, r, foreign), InputError);
}

TEST(TpReport, WeightsAndTrafficTermsFromTheShape) {
  const Catalog c = catalog();
  const std::vector<const Link*> links{&c.link("nv")};
  const TpReport report = tensor_parallel_report(c, prefill_request(c), links);
  ASSERT_EQ(report.traffic_terms.size(), 3U);
  // 2 × 4096 tokens × 8192 hidden × 2 B; two per layer; 80 layers.
  EXPECT_EQ(report.traffic_terms[0].bytes.value(), 2 * 4096.0 * 8192 * 2);
  EXPECT_EQ(report.traffic_terms[0].from, "2 × 4096 tokens × 8192 hidden × 2 B");
  EXPECT_EQ(report.traffic_terms[1].bytes.value(), 2 * 2 * 4096.0 * 8192 * 2);
  EXPECT_EQ(report.traffic_terms[1].from, "2 all-reduces");
  EXPECT_EQ(report.traffic_terms[2].quantity, "per prefill pass");
  EXPECT_EQ(report.traffic_terms[2].bytes.value(), 80 * 2 * 2 * 4096.0 * 8192 * 2);
  EXPECT_EQ(report.traffic_terms[2].from, "80 layers");
  ASSERT_FALSE(report.derivations.empty());
  EXPECT_EQ(report.derivations[0].formula, report.traffic_terms[0].from);
  EXPECT_EQ(report.derivations[0].value, 134217728.0);
}

TEST(TpReport, LegendNamesEachAssumptionOnce) {
  const Catalog c = catalog();
  const std::vector<const Link*> links{&c.link("nv"), &c.link("pc")};
  const TpReport report = tensor_parallel_report(c, prefill_request(c), links);
  // g is native to nv; on pc it is assumed. Both wires compute at the same rate (g has no
  // kernel curves): one entry.
  EXPECT_EQ(report.legend.assumed_gpus, std::vector<std::string>{"g"});
  EXPECT_EQ(report.legend.assumed_rates,
            std::vector<std::string>{"g × 8 at 1 PFLOP/s (bf16) × 0.5 utilisation"});
  EXPECT_EQ(report.legend.no_expected_model, std::vector<std::string>{"pc"});
  ASSERT_EQ(report.legend.lines.size(), 5U);
  EXPECT_EQ(report.legend.lines[0].rfind("headline = traffic per prefill pass / ", 0), 0U);
  // 2 all-reduces × 80 layers of 4096 × 8192 × 2 B = 67.1 MB each, by vLLM's dispatch (the
  // default), which runs NCCL's ring/Simple on nv.
  EXPECT_EQ(report.legend.lines[1].rfind("expected = 160 all-reduces of 67.1 MB each", 0), 0U);
  EXPECT_NE(report.legend.lines[1].find(implementation_text(Implementation::vllm)),
            std::string::npos);
  EXPECT_EQ(report.legend.ran, std::vector<std::string>{"nv ring/Simple"});
  EXPECT_NE(report.legend.lines[1].find("ran: nv ring/Simple; no expected model for pc."),
            std::string::npos);
  EXPECT_NE(report.legend.lines[3].find("the GPU is the one whose scale-up link is the wire, "
                                        "else g (change with --gpu)"),
            std::string::npos);
  EXPECT_EQ(report.legend.lines[4].rfind("verdict: the wire's tensor group against every layout "
                                         "of the same GPUs on the same wire, for latency",
                                         0),
            0U);
}

TEST(TpReport, TensorParallelOnAHostLinkIsPricedNotForbidden) {
  const Catalog c = catalog();
  const std::vector<const Link*> links{&c.link("pc")};
  const TpReport report = tensor_parallel_report(c, prefill_request(c), links);
  // 21.5 GB over 64 GB/s = 336 ms on top of 143 ms of compute: 479 ms, 70 % of it on the
  // wire. Still the fastest of the 8 GPUs' layouts: PP 8 passes 8 stages of 17.9 ms compute
  // one after another (1.15 s); TP 4 × PP 2 takes 2 × (143 + 168) ms. Of the 10 layouts, 7
  // fit: one GPU's 140 GB, or 70 GB on two, exceed 64 GB.
  ASSERT_TRUE(report.wires[0].judged.has_value());
  const RankedLayout& judged = *report.wires[0].judged;
  EXPECT_FALSE(judged.placement.strategies.at(0).verdict.breaks_rule);
  EXPECT_EQ(judged.placement.strategies.at(0).verdict.level, Level::marginal);
  EXPECT_EQ(report.wires[0].rank, 1U);
  EXPECT_EQ(report.wires[0].layouts, 10U);
  EXPECT_EQ(judged.verdict.level, Level::marginal);
  EXPECT_EQ(judged.verdict.reason, "best of 7 fitting layouts for latency (TTFT 479 ms); "
                                   "all-reduce takes 70 % of the step");
}

TEST(TpReport, DecodeLegendCountsWeightBytes) {
  const Catalog c = catalog();
  TpRequest r = decode_request(c);
  r.serving.context = 2048;
  r.gpu = &c.gpu("g");
  const std::vector<const Link*> links{&c.link("nv")};
  const TpReport report = tensor_parallel_report(c, r, links);
  EXPECT_EQ(report.traffic_terms[2].quantity, "per decode step");
  // A decode step's GEMMs compute too: the rate is named in decode as in prefill.
  EXPECT_EQ(report.legend.assumed_rates,
            std::vector<std::string>{"g × 8 at 1 PFLOP/s (bf16) × 0.5 utilisation"});
  EXPECT_EQ(report.legend.lines[0].rfind("headline = traffic per decode step / ", 0), 0U);
  EXPECT_EQ(report.legend.lines[3].rfind("step = the GEMMs of the weights and attention over 1 "
                                         "sequences' KV cache at 2048 tokens of context",
                                         0),
            0U)
      << report.legend.lines[3];
  EXPECT_NE(report.legend.lines[3].find("the GPU is g, as --gpu says"), std::string::npos);
}

TEST(TpReport, WiresTheGroupCannotUseAreSkipped) {
  const Catalog c = with_foreign_link();
  const std::vector<const Link*> links{&c.link("nv"), &c.link("xg")};
  // Eight GPUs of g: g lacks xg.
  const WireChoice choice = wires_for_group(&c.gpu("g"), 8, links);
  EXPECT_EQ(choice.usable, std::vector<const Link*>{&c.link("nv")});
  ASSERT_EQ(choice.skipped.size(), 1U);
  EXPECT_EQ(choice.skipped[0].link, &c.link("xg"));
  TpRequest r = prefill_request(c);
  r.gpus = 8;
  const Json json = tensor_parallel_report(c, r, choice);
  EXPECT_EQ(json.at("skipped_wires").size(), 1U);
  EXPECT_EQ(json.at("skipped_wires").at(0).at("id"), "xg");
}

TEST(TpReport, JsonCarriesTheReport) {
  const Catalog c = catalog();
  TpRequest r = prefill_request(c);
  r.model_id = "m";
  r.overridden = {"--hidden"};
  const std::vector<const Link*> links{&c.link("nv")};
  const Json json = tensor_parallel_report(c, r, links);
  EXPECT_EQ(json.begin().key(), "schema");
  EXPECT_EQ(json.at("schema"), "icx.tp/2");
  EXPECT_EQ(json.at("phase"), "prefill");
  EXPECT_EQ(json.at("model").at("id"), "m");
  EXPECT_EQ(json.at("model").at("overridden").at(0), "--hidden");
  EXPECT_EQ(json.at("traffic").at("total_bytes"), 21474836480);
  EXPECT_EQ(json.at("wires").at(0).at("compute").at("gpus"), 8);
  EXPECT_EQ(json.at("wires").at(0).at("rank"), 1);
  // 160 × 454.2 µs = 72.7 ms of all-reduce in a 143.4 + 72.7 = 216 ms step: 34 %, above the
  // 25 % of an ok split.
  EXPECT_EQ(json.at("wires").at(0).at("verdict").at("level"), "marginal");
  EXPECT_FALSE(json.contains("skipped_wires"));
  EXPECT_EQ(json.at("impl"), "vllm");
  EXPECT_EQ(json.at("wires").at(0).at("algo"), "ring");
  EXPECT_EQ(json.at("wires").at(0).at("protocol"), "Simple");
  EXPECT_FALSE(json.at("wires").at(0).contains("topology"));
}

TEST(TpReport, ShippedWiresNameWhatRan) {
  // The shipped catalog: pcie5 has topologies and nvlink4 the engines' kernels.
  const Catalog c = Catalog::shipped();
  TpRequest r = decode_request(c);
  // A decode all-reduce is 1 token × 8192 hidden × 2 B = 16 KiB, below vLLM's 256 KiB one-shot
  // limit: on nvlink4 the engine's one-shot kernel runs it.
  const Link& nvlink4 = c.link("nvlink4");
  const Link& pcie5 = c.link("pcie5");
  const std::vector<const Link*> links{&nvlink4, &pcie5};
  const TpReport report = tensor_parallel_report(c, r, links);
  EXPECT_EQ(report.message.value(), 16384.0);
  const TpWire& nv = report.wires[0];
  EXPECT_EQ(nv.kernel, Kernel::one_shot);
  EXPECT_EQ(nv.topology, nullptr);
  // On PCIe 5 at 8 GPUs the default topology is the smallest default that holds 8: the
  // dual-socket one; the engines' kernels have no PCIe figures, so NCCL's ring runs.
  const TpWire& pc = report.wires[1];
  ASSERT_NE(pc.topology, nullptr);
  EXPECT_EQ(pc.topology, link_topology(pcie5, "", 8));
  EXPECT_EQ(pc.topology->id, "dual-socket");
  ASSERT_TRUE(pc.kernel);
  EXPECT_EQ(kernel_algorithm(*pc.kernel), "ring");
  const Json json = report;
  EXPECT_EQ(json.at("wires").at(0).at("algo"), "one-shot");
  EXPECT_TRUE(json.at("wires").at(0).at("protocol").is_null());
  EXPECT_EQ(json.at("wires").at(1).at("topology"), "dual-socket");
  EXPECT_EQ(report.legend.ran.at(0), "nvlink4 one-shot");
  EXPECT_EQ(report.legend.ran.at(1).rfind("pcie5 ring/", 0), 0U);
  EXPECT_NE(report.legend.ran.at(1).find(" over dual-socket ("), std::string::npos);
}

} // namespace
} // namespace icx::unit_tp_report
