// The expected model's optional parts in a catalog file: the engines' all-reduce kernels
// (expected.engine_all_reduce), the expert-parallel kernels (expected.expert_parallel) and a
// host link's topologies.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_catalog_expected {
namespace {

const std::string ring = R"("efficiency": 0.8, "step_latency_us": 2, "ramp_us": 100,
    "small_message_slowdown": 0.5, "source": "fit")";

/// A host link document with `rest` after its required fields ("expected", "topologies").
std::string host_link(const std::string& rest) {
  return R"({"links": [{"id": "pc", "name": "PC", "connects": "c", "tier": "host",
    "headline_GBps": 64, "headline_convention": "each-way", "per_direction_GBps": 64,
    "latency_us": 1, "source": "s")" +
         rest + "}]}";
}

const std::string topologies = R"("topologies": {
    "host": {"description": "one CPU", "efficiency": 0.8, "step_latency_us": 3,
             "default_up_to_gpus": 4, "source": "t1"},
    "dual-socket": {"description": "two CPUs", "efficiency": 0.45, "step_latency_us": 3.5,
                    "source": "t2"}})";

std::string error_of(const std::string& text) {
  return test::catalog_error(Catalog{}, text);
}

TEST(CatalogExpected, ReadsEngineAllReduceKernels) {
  Catalog catalog;
  catalog.overlay_text(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"one_shot": {"latency_us": 4.5, "efficiency": 0.6},
                            "multimem": {"latency_us": 9, "efficiency": 0.45},
                            "vllm_custom_below_KiB": 1024, "vllm_multimem_below_KiB": 131072,
                            "source": "bench"}})"),
                       "links.json");
  const ExpectedModel& model = *catalog.link("pc").expected;
  ASSERT_TRUE(model.engine_all_reduce);
  const EngineAllReduce& engine = *model.engine_all_reduce;
  ASSERT_TRUE(engine.one_shot);
  EXPECT_DOUBLE_EQ(engine.one_shot->latency.value(), 4.5e-6);
  EXPECT_DOUBLE_EQ(engine.one_shot->efficiency, 0.6);
  EXPECT_FALSE(engine.two_shot); // absent kernels fall back to NCCL
  ASSERT_TRUE(engine.multimem);
  EXPECT_DOUBLE_EQ(engine.multimem->latency.value(), 9e-6);
  EXPECT_DOUBLE_EQ(engine.vllm_custom_below.value(), 1048576.0);     // 1024 × 1024 B
  EXPECT_DOUBLE_EQ(engine.vllm_multimem_below.value(), 134217728.0); // 131072 × 1024 B
  EXPECT_EQ(engine.source, "bench");
  // Written back in the file's shape.
  const nlohmann::ordered_json json = engine;
  EXPECT_EQ(json.dump(),
            R"({"one_shot":{"latency_us":4.5,"efficiency":0.6},)"
            R"("multimem":{"latency_us":9,"efficiency":0.45},"vllm_custom_below_KiB":1024,)"
            R"("vllm_multimem_below_KiB":131072,"source":"bench"})");
}

TEST(CatalogExpected, ReadsExpertParallelKernels) {
  Catalog catalog;
  catalog.overlay_text(host_link(R"(, "expected": {)" + ring + R"(,
      "expert_parallel": {"normal_dispatch": {"efficiency": 0.7, "latency_us": 40},
                          "low_latency_combine": {"efficiency": 0.35, "latency_us": 12.5},
                          "source": "ep bench"}})"),
                       "links.json");
  const ExpectedModel& model = *catalog.link("pc").expected;
  ASSERT_TRUE(model.expert_parallel);
  const ExpertParallelKernels& ep = *model.expert_parallel;
  ASSERT_TRUE(ep.normal_dispatch);
  EXPECT_DOUBLE_EQ(ep.normal_dispatch->efficiency, 0.7);
  EXPECT_DOUBLE_EQ(ep.normal_dispatch->latency.value(), 40e-6);
  EXPECT_FALSE(ep.normal_combine); // absent kernels fall back to NCCL
  EXPECT_FALSE(ep.low_latency_dispatch);
  ASSERT_TRUE(ep.low_latency_combine);
  EXPECT_DOUBLE_EQ(ep.low_latency_combine->efficiency, 0.35);
  EXPECT_DOUBLE_EQ(ep.low_latency_combine->latency.value(), 12.5e-6);
  EXPECT_EQ(ep.source, "ep bench");
  EXPECT_FALSE(model.engine_all_reduce);
  // Written back in the file's shape, and read back unchanged.
  const nlohmann::ordered_json json = catalog.link("pc");
  EXPECT_EQ(json.at("expected").at("expert_parallel").dump(),
            R"({"normal_dispatch":{"efficiency":0.7,"latency_us":40},)"
            R"("low_latency_combine":{"efficiency":0.35,"latency_us":12.5},"source":"ep bench"})");
  Catalog again;
  again.overlay_text(R"({"links": [)" + json.dump() + "]}", "written");
  EXPECT_EQ(again.link("pc").expected, catalog.link("pc").expected);
}

TEST(CatalogExpected, BadExpertParallelKernelNamesThePointer) {
  const auto ep = [](const std::string& body) {
    return error_of(
        host_link(R"(, "expected": {)" + ring + R"(, "expert_parallel": )" + body + "}"));
  };
  EXPECT_EQ(ep(R"({"normal_combine": {"efficiency": 1.5, "latency_us": 30}, "source": "b"})"),
            "user.json: /links/0/expected/expert_parallel/normal_combine/efficiency: expected a "
            "fraction from 0.001 to 1, got the number 1.5");
  EXPECT_EQ(ep(R"({"low_latency_dispatch": {"efficiency": 0.5, "latency_us": -3},
                   "source": "b"})"),
            "user.json: /links/0/expected/expert_parallel/low_latency_dispatch/latency_us: "
            "expected a number from 0.001 to 1e+06, got the number -3");
  EXPECT_EQ(ep(R"({"normal_dispatch": {"efficiency": 0.5, "latency_us": 30}})"),
            "user.json: /links/0/expected/expert_parallel/source: missing required field");
  EXPECT_EQ(ep(R"({"normal_dispatch": {"efficiency": 0.5}, "source": "b"})"),
            "user.json: /links/0/expected/expert_parallel/normal_dispatch/latency_us: missing "
            "required field");
  EXPECT_EQ(ep(R"({"normal_dispatch": {"efficiency": 0.5, "latency_us": 30, "bw": 1},
                   "source": "b"})"),
            "user.json: /links/0/expected/expert_parallel/normal_dispatch/bw: unknown field");
  EXPECT_EQ(ep(R"({"dispatch": {"efficiency": 0.5, "latency_us": 30}, "source": "b"})"),
            "user.json: /links/0/expected/expert_parallel/dispatch: unknown field");
  EXPECT_EQ(ep(R"([])"),
            "user.json: /links/0/expected/expert_parallel: expected an object, got an array");
}

TEST(CatalogExpected, ReadsTopologiesSortedById) {
  Catalog catalog;
  catalog.overlay_text(host_link(R"(, "expected": {)" + ring + "}, " + topologies), "links.json");
  const Link& link = catalog.link("pc");
  ASSERT_EQ(link.topologies.size(), 2U);
  EXPECT_EQ(link.topologies[0].id, "dual-socket");
  EXPECT_FALSE(link.topologies[0].default_up_to_gpus); // only when named
  EXPECT_EQ(link.topologies[0].source, "t2");
  EXPECT_EQ(link.topologies[1].id, "host");
  EXPECT_EQ(link.topologies[1].description, "one CPU");
  EXPECT_DOUBLE_EQ(link.topologies[1].efficiency, 0.8);
  EXPECT_DOUBLE_EQ(link.topologies[1].step_latency.value(), 3e-6);
  EXPECT_EQ(link.topologies[1].default_up_to_gpus, 4);
  const nlohmann::ordered_json json = link;
  EXPECT_EQ(json.at("topologies").at("dual-socket").dump(),
            R"({"description":"two CPUs","efficiency":0.45,"step_latency_us":3.5,)"
            R"("source":"t2"})");
}

TEST(CatalogExpected, BadInputNamesThePointer) {
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"two_shot": {"latency_us": 10, "efficiency": 1.5},
                            "source": "b"}})")),
            "user.json: /links/0/expected/engine_all_reduce/two_shot/efficiency: expected a "
            "fraction from 0.001 to 1, got the number 1.5");
  const std::string limits = R"("vllm_custom_below_KiB": 256, "vllm_multimem_below_KiB": 65536)";
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"one_shot": {"latency_us": 4, "efficiency": 0.5}, )" +
                               limits + "}}")),
            "user.json: /links/0/expected/engine_all_reduce/source: missing required field");
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"one_shot": {"latency_us": 4, "efficiency": 0.5},
                            "vllm_custom_below_KiB": 256, "source": "b"}})")),
            "user.json: /links/0/expected/engine_all_reduce/vllm_multimem_below_KiB: missing "
            "required field");
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"vllm_custom_below_KiB": 1024, "vllm_multimem_below_KiB": 512,
                            "source": "b"}})")),
            "user.json: /links/0/expected/engine_all_reduce/vllm_multimem_below_KiB: 512 KiB "
            "lies below vllm_custom_below_KiB (1024 KiB); vLLM tries its custom kernel first, so "
            "multimem's limit is at least as large");
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(,
      "engine_all_reduce": {"three_shot": {}, )" +
                               limits + R"(, "source": "b"}})")),
            "user.json: /links/0/expected/engine_all_reduce/three_shot: unknown field");
  EXPECT_EQ(error_of(host_link(R"(, "expected": {)" + ring + R"(}, "topologies": {
      "host": {"description": "d", "efficiency": 1.5, "step_latency_us": 3, "source": "t"}})")),
            "user.json: /links/0/topologies/host/efficiency: expected a fraction from 0.001 to "
            "1, got the number 1.5");
  EXPECT_EQ(error_of(host_link(", " + topologies)),
            "user.json: /links/0/topologies: given without \"expected\"; a topology refines the "
            "expected model's efficiency and step latency");
}

} // namespace
} // namespace icx::unit_catalog_expected
