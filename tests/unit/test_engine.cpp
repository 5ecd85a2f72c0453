// The catalog's serving engines: read and checked, written back, their scheduler tier on a
// GPU, and the defaults a workload takes from them.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/request_load.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/util/input_error.hpp"
#include "icx/words/engine.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_engine {
namespace {

/// An engine entry with `scheduler` as its tiers and `costs` as its costs (by default 500 µs
/// per step, 10 µs per layer, 20 ms per request).
std::string
engine_with(const std::string& scheduler, const std::string& impl = "vllm",
            const std::string& costs = R"({"step_us": 500, "layer_us": 10, "request_us": 20000})") {
  return R"({"engines": [{"id": "e", "name": "E", "version": "2", "impl": ")" + impl +
         R"(", "scheduler": )" + scheduler + R"(, "policy": "decode-first", "costs": )" + costs +
         R"(, "source": "s"}]})";
}

const std::string two_tiers = R"({"small": {"max_batch": 8, "prefill_chunk": 512},
  "big": {"min_hbm_GiB": 70, "except": ["a100"], "max_batch": 64, "prefill_chunk": 4096}})";

TEST(ShippedEngines, VllmTiersFollowItsGpuRule) {
  // vLLM's get_batch_defaults (OpenAI server): 1024 sequences and 8192-token chunks from 70 GiB
  // unless the GPU is an A100, 256 and 2048 below.
  const Catalog catalog = Catalog::shipped();
  const Engine& vllm = catalog.engine("vllm");
  for (const char* big : {"h100-sxm", "h200", "b200", "mi300x"}) {
    SCOPED_TRACE(big);
    const SchedulerTier& tier = scheduler_tier(vllm, catalog.gpu(big));
    EXPECT_EQ(tier.max_batch, 1024);
    EXPECT_EQ(tier.prefill_chunk, 8192);
  }
  for (const char* small : {"a100-sxm", "l40s", "a30"}) {
    SCOPED_TRACE(small);
    const SchedulerTier& tier = scheduler_tier(vllm, catalog.gpu(small));
    EXPECT_EQ(tier.max_batch, 256);
    EXPECT_EQ(tier.prefill_chunk, 2048);
  }
  EXPECT_EQ(engine_implementation(vllm), Implementation::vllm);
}

TEST(ShippedEngines, SglangChunkGrowsWithMemory) {
  // SGLang's --chunked-prefill-size: 2048 below 35 GiB, 4096 below 60, 8192 below 160, 16384.
  const Catalog catalog = Catalog::shipped();
  const Engine& sglang = catalog.engine("sglang");
  EXPECT_EQ(scheduler_tier(sglang, catalog.gpu("a30")).prefill_chunk, 2048);      // 24 GB
  EXPECT_EQ(scheduler_tier(sglang, catalog.gpu("l40s")).prefill_chunk, 4096);     // 48 GB
  EXPECT_EQ(scheduler_tier(sglang, catalog.gpu("h100-sxm")).prefill_chunk, 8192); // 80 GB
  EXPECT_EQ(scheduler_tier(sglang, catalog.gpu("h200")).prefill_chunk, 8192);     // 141 GB
  EXPECT_EQ(scheduler_tier(sglang, catalog.gpu("b200")).prefill_chunk, 16384);    // 180 GB
  EXPECT_EQ(engine_implementation(sglang), Implementation::sglang);
  EXPECT_EQ(&catalog.engine("tensorrt-llm"), &catalog.engine("trtllm"));
}

TEST(Engines, TheTierWithTheHighestFloorThatAppliesWins) {
  Catalog catalog;
  catalog.overlay_text(engine_with(two_tiers), "e.json");
  const Engine& e = catalog.engine("e");
  Gpu gpu = test::make_gpu("nvlink4", 8);
  gpu.id = "h100";
  gpu.hbm_capacity = Bytes::of(80e9); // 74.5 GiB
  EXPECT_EQ(scheduler_tier(e, gpu).name, "big");
  gpu.hbm_capacity = Bytes::of(70.0 * gibi - 1);
  EXPECT_EQ(scheduler_tier(e, gpu).name, "small");
  gpu.hbm_capacity = Bytes::of(80e9);
  gpu.id = "a100-sxm";
  EXPECT_EQ(scheduler_tier(e, gpu).name, "small");
  EXPECT_EQ(scheduler_default_text(e, &SchedulerTier::max_batch),
            "64 on GPUs of at least 70 GiB except a100, 8 on the others");
}

TEST(Engines, WorkloadTakesTheEnginesLimitUnlessGiven) {
  Catalog catalog = Catalog::shipped();
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Model& model = catalog.model("70b");
  const Dtype& bf16 = catalog.dtype("bf16");
  ServingRequest request;
  request.objective = Objective::throughput;
  EXPECT_EQ(workload_for(catalog, model, bf16, h100, request).max_batch, 1024);
  EXPECT_EQ(workload_for(catalog, model, bf16, catalog.gpu("l40s"), request).max_batch, 256);
  request.engine = &catalog.engine("sglang");
  EXPECT_EQ(workload_for(catalog, model, bf16, h100, request).max_batch, 2048);
  request.max_batch = 48;
  EXPECT_EQ(workload_for(catalog, model, bf16, h100, request).max_batch, 48);
}

/// Engine "e" with the cost `key` at `value` over the shipped catalog: its prefill and decode
/// steps of 70B on one DGX H100 at TP 8, by the H100's kernel curves or at `utilization` of
/// peak.
std::pair<StepTime, StepTime> steps_with(const std::string& key, const std::string& value,
                                         std::optional<double> utilization = {}) {
  Catalog catalog = Catalog::shipped();
  std::string text = engine_with(two_tiers);
  text.replace(text.find("\"request_us\": 20000}"), 20,
               "\"request_us\": 20000, \"" + key + "\": " + value + "}");
  catalog.overlay_text(text, "e.json");
  const Cluster cluster{&catalog.gpu("h100-sxm"), 8, 8, 8, &catalog.link("nvlink4"), nullptr, 8};
  const Dtype& bf16 = catalog.dtype("bf16");
  ServingRequest request = with_default_dtypes(catalog, bf16, ServingRequest{});
  request.engine = &catalog.engine("e");
  request.tokens = 4096;
  request.context = 4096;
  request.batch = 1;
  request.utilization = utilization;
  const auto step = [&](Phase phase) {
    request.phase = phase;
    const Workload w = workload_for(catalog, catalog.model("70b"), bf16, *cluster.gpu, request);
    return evaluate_layout(cluster, w, {8, 1, 1, 1}).step;
  };
  return {step(Phase::prefill), step(Phase::decode)};
}

std::pair<StepTime, StepTime> steps_with_prompt_scale(const std::string& prompt_scale) {
  return steps_with("prompt_scale", prompt_scale);
}

TEST(Engines, PromptScaleTimesAPrefillsWorkAndCollectivesNotADecodes) {
  const auto [half_prefill, half_decode] = steps_with_prompt_scale("0.5");
  const auto [one_prefill, one_decode] = steps_with_prompt_scale("1");
  // The layer gaps are the engine's own, outside the scale.
  EXPECT_NEAR((half_prefill.stage - half_prefill.layer_gaps).value(),
              0.5 * (one_prefill.stage - one_prefill.layer_gaps).value(), 1e-12);
  EXPECT_EQ(half_prefill.layer_gaps, one_prefill.layer_gaps);
  EXPECT_EQ(half_decode.stage, one_decode.stage);
  EXPECT_THROW(steps_with_prompt_scale("0"), CatalogError);
}

TEST(Engines, PrefillPassScalesAPrefillsMeasuredKernelsAlone) {
  const auto [pass, pass_decode] = steps_with("prefill_pass_scale", "1.5");
  const auto [one, one_decode] = steps_with("prefill_pass_scale", "1");
  // Every operation of 70B in bf16 on the H100 has a measured curve; the collectives and the
  // layer gaps are outside the scale.
  EXPECT_NEAR(one.work.measured.value(), one.work.seconds.value(), 1e-12);
  EXPECT_GT(one.exposed_comm.value(), 0);
  EXPECT_NEAR((pass.stage - one.stage).value(), 0.5 * one.work.seconds.value(), 1e-12);
  EXPECT_EQ(pass_decode.stage, one_decode.stage);
  // At a given utilisation of peak no operation is priced by a measured curve: that figure
  // stands for the whole pass already.
  const StepTime assumed_pass = steps_with("prefill_pass_scale", "1.5", 0.5).first;
  const StepTime assumed_one = steps_with("prefill_pass_scale", "1", 0.5).first;
  EXPECT_EQ(assumed_one.work.measured.value(), 0);
  EXPECT_EQ(assumed_pass.stage, assumed_one.stage);
  // A pass cannot run faster than its kernels.
  EXPECT_THROW(steps_with("prefill_pass_scale", "0.9"), CatalogError);
}

TEST(Engines, WritesWhatItReads) {
  Catalog catalog;
  catalog.overlay_text(engine_with(two_tiers), "e.json");
  nlohmann::ordered_json written;
  written["engines"] = catalog.engines();
  Catalog again;
  again.overlay_text(written.dump(), "again.json");
  const Engine& a = catalog.engine("e");
  const Engine& b = again.engine("e");
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.implementation, b.implementation);
  EXPECT_EQ(a.scheduler, b.scheduler);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.costs, b.costs);
}

TEST(Engines, ReadsTheSchedulePolicy) {
  std::string text = engine_with(two_tiers);
  text.replace(text.find("decode-first"), 12, "prefill-first");
  Catalog catalog;
  catalog.overlay_text(text, "e.json");
  EXPECT_EQ(catalog.engine("e").policy, SchedulePolicy::prefill_first);
  EXPECT_EQ(Catalog::shipped().engine("sglang").policy, SchedulePolicy::prefill_first);
  EXPECT_EQ(Catalog::shipped().engine("vllm").policy, SchedulePolicy::decode_first);
  text.replace(text.find("prefill-first"), 13, "fifo");
  const std::string error = test::catalog_error(Catalog{}, text);
  EXPECT_NE(error.find("/engines/0/policy"), std::string::npos) << error;
  EXPECT_NE(error.find("decode-first, prefill-first"), std::string::npos) << error;
}

TEST(Engines, ErrorsNameThePointer) {
  const Catalog empty;
  EXPECT_EQ(test::catalog_error(empty, engine_with(R"({"a": {"max_batch": 1, "prefill_chunk": 1},
    "b": {"max_batch": 2, "prefill_chunk": 2}})")),
            "user.json: /engines/0/scheduler: 2 tiers apply to every GPU (no min_hbm_GiB, no "
            "except); exactly one must");
  EXPECT_EQ(test::catalog_error(empty, engine_with(R"({"a": {"min_hbm_GiB": 10, "max_batch": 1,
    "prefill_chunk": 1}})")),
            "user.json: /engines/0/scheduler: 0 tiers apply to every GPU (no min_hbm_GiB, no "
            "except); exactly one must");
  EXPECT_EQ(test::catalog_error(empty, engine_with(R"({"a": {"max_batch": 1, "prefill_chunk": 1},
    "b": {"except": ["x"], "max_batch": 2, "prefill_chunk": 2}})")),
            "user.json: /engines/0/scheduler: tiers 'a' and 'b' start at the same memory; give "
            "each its own min_hbm_GiB");
  EXPECT_EQ(test::catalog_error(empty, engine_with(R"({"a": 3})")),
            "user.json: /engines/0/scheduler/a: expected an object with max_batch and "
            "prefill_chunk");
  const std::string zero =
      test::catalog_error(empty, engine_with(R"({"a": {"max_batch": 0, "prefill_chunk": 1}})"));
  EXPECT_NE(zero.find("/engines/0/scheduler/a/max_batch"), std::string::npos) << zero;
  const std::string extra = test::catalog_error(
      empty, engine_with(R"({"a": {"max_batch": 1, "prefill_chunk": 1, "chunk": 2}})"));
  EXPECT_NE(extra.find("/engines/0/scheduler/a/chunk"), std::string::npos) << extra;
}

TEST(ShippedEngines, PrefixCacheBlocks) {
  // vLLM finds whole 16-token KV blocks; SGLang's radix cache (page size 1) and TensorRT-LLM's
  // partial block reuse find tokens one by one.
  const Catalog catalog = Catalog::shipped();
  EXPECT_EQ(prefix_block(catalog.engine("vllm")), 16);
  EXPECT_EQ(prefix_block(catalog.engine("sglang")), 1);
  EXPECT_EQ(prefix_block(catalog.engine("trtllm")), 1);
}

TEST(Engines, ReadsAndWritesThePrefixCache) {
  std::string text = engine_with(two_tiers);
  Catalog plain;
  plain.overlay_text(text, "e.json");
  EXPECT_EQ(prefix_block(plain.engine("e")), 1);
  const std::string cache = R"("prefix_cache": {"block_tokens": 32, "source": "s"}, )";
  text.insert(text.find(R"("source": "s"}]})"), cache);
  Catalog catalog;
  catalog.overlay_text(text, "e.json");
  EXPECT_EQ(prefix_block(catalog.engine("e")), 32);
  nlohmann::ordered_json written;
  written["engines"] = catalog.engines();
  Catalog again;
  again.overlay_text(written.dump(), "again.json");
  EXPECT_EQ(again.engine("e").prefix_cache, catalog.engine("e").prefix_cache);
  text.replace(text.find("32"), 2, "0");
  const std::string error = test::catalog_error(Catalog{}, text);
  EXPECT_NE(error.find("/engines/0/prefix_cache/block_tokens"), std::string::npos) << error;
}

TEST(Engines, AnUnknownImplementationIsRefusedWhereItIsUsed) {
  Catalog catalog;
  catalog.overlay_text(engine_with(two_tiers, "mpi"), "e.json");
  try {
    (void)engine_implementation(catalog.engine("e"));
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              "e.json: engine 'e': impl 'mpi' is not one of: nccl, custom, one-shot, two-shot, "
              "multimem, vllm, sglang");
  }
}

/// The shipped catalog with engine "e" of easy costs: 500 µs per step, 10 µs per layer, 20 ms
/// per request.
Catalog with_engine_e() {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(engine_with(two_tiers), "e.json");
  return catalog;
}

/// The same with 40 ms more in each step that prefills (prefill_step_us).
Catalog with_prompt_pass() {
  Catalog catalog = with_engine_e();
  catalog.overlay_text(engine_with(two_tiers, "vllm",
                                   R"({"step_us": 500, "layer_us": 10, "request_us": 20000,
                                       "prefill_step_us": 40000})"),
                       "e40.json");
  return catalog;
}

class EngineCostsTest : public ::testing::Test {
protected:
  // Built whole before the references below are taken: an overlay moves the entries.
  Catalog catalog = with_engine_e();
  const Gpu& h100 = catalog.gpu("h100-sxm");
  const Model& model = catalog.model("70b"); // 80 layers
  const Dtype& bf16 = catalog.dtype("bf16");
  Cluster cluster{&h100, 4, 8, 8, &catalog.link("nvlink4"), &catalog.link("ib-ndr"), 8};

  Workload workload(Phase phase, const Engine* engine) const {
    ServingRequest r;
    r.phase = phase;
    r.tokens = 1000;
    r.context = 1000;
    r.engine = engine;
    Workload w = workload_for(catalog, model, bf16, h100, r);
    w.engine = engine;
    return w;
  }
};

TEST_F(EngineCostsTest, AStepPaysTheEnginesTimeOnTopOfTheKernels) {
  const Engine& e = catalog.engine("e");
  for (const Phase phase : {Phase::decode, Phase::prefill}) {
    SCOPED_TRACE(to_string(phase));
    const StepTime bare = evaluate_layout(cluster, workload(phase, nullptr), {4, 1, 1, 1}).step;
    const StepTime with = evaluate_layout(cluster, workload(phase, &e), {4, 1, 1, 1}).step;
    // 80 layers × 10 µs = 800 µs of gaps in the stage; the step's 500 µs once; a prompt's
    // 20 ms outside the GPUs.
    EXPECT_NEAR((with.stage - bare.stage).value(), 800e-6, 1e-12);
    const double request = phase == Phase::prefill ? 20e-3 : 0;
    EXPECT_NEAR((with.latency - bare.latency).value(), 800e-6 + 500e-6 + request, 1e-12);
    EXPECT_NEAR(with.busy().value(), (with.latency - with.request).value(), 1e-15);
    // Throughput pays the gaps and the step, not the request.
    const double tokens = phase == Phase::prefill ? 1000 : 1;
    EXPECT_NEAR(with.tokens_per_second_per_gpu, tokens / (bare.stage.value() + 800e-6 + 500e-6) / 4,
                1e-6);
  }
}

TEST_F(EngineCostsTest, EachSchedulerPaysItsOwnSequences) {
  // Engine "e" again with 5 µs per sequence in a step.
  Catalog costly = with_engine_e();
  costly.overlay_text(
      engine_with(two_tiers, "vllm",
                  R"({"step_us": 500, "layer_us": 10, "request_us": 20000, "sequence_us": 5})"),
      "e5.json");
  const Engine& plain = catalog.engine("e");
  const Engine& per_sequence = costly.engine("e");
  EXPECT_DOUBLE_EQ(per_sequence.costs.sequence.value(), 5e-6);
  EXPECT_EQ(plain.costs.sequence.value(), 0);
  const Model& moe = catalog.model("mixtral-8x7b");
  // 64 sequences: one scheduler runs all 64 at TP 4 (320 µs), each of two replicas 32 at
  // TP 2 × DP 2 (160 µs), each expert rank its own 16 at EP 4 (80 µs, data-parallel attention).
  const std::vector<std::pair<Layout, double>> cases = {
      {{4, 1, 1, 1}, 64 * 5e-6}, {{2, 1, 1, 2}, 32 * 5e-6}, {{1, 1, 4, 1}, 16 * 5e-6}};
  for (const auto& [layout, extra] : cases) {
    SCOPED_TRACE(layout.product());
    ServingRequest r;
    r.phase = Phase::decode;
    r.context = 1000;
    r.batch = 64;
    r.engine = &plain;
    Workload without = workload_for(catalog, moe, bf16, h100, r);
    without.engine = &plain;
    Workload with = without;
    with.engine = &per_sequence;
    const StepTime a = evaluate_layout(cluster, without, layout).step;
    const StepTime b = evaluate_layout(cluster, with, layout).step;
    EXPECT_NEAR((b.engine - a.engine).value(), extra, 1e-12);
    EXPECT_NEAR((b.latency - a.latency).value(), extra, 1e-12);
  }
}

TEST_F(EngineCostsTest, APrefillStepHoldsTheGpusForTheEnginesPromptPass) {
  // Engine "e" with 40 ms more in each step that prefills: a prefill's step is 40 ms longer and
  // holds the GPUs for it (its busy time and throughput), a decode step is unchanged.
  const Catalog costly = with_prompt_pass();
  const Engine& pass = costly.engine("e");
  EXPECT_DOUBLE_EQ(pass.costs.prefill_step.value(), 40e-3);
  EXPECT_EQ(catalog.engine("e").costs.prefill_step.value(), 0);
  for (const Phase phase : {Phase::decode, Phase::prefill}) {
    SCOPED_TRACE(to_string(phase));
    const StepTime plain =
        evaluate_layout(cluster, workload(phase, &catalog.engine("e")), {4, 1, 1, 1}).step;
    const StepTime with = evaluate_layout(cluster, workload(phase, &pass), {4, 1, 1, 1}).step;
    const double extra = phase == Phase::prefill ? 40e-3 : 0;
    EXPECT_NEAR((with.busy() - plain.busy()).value(), extra, 1e-12);
    EXPECT_NEAR((with.request - plain.request).value(), 0, 1e-15);
    // 1000 prompt tokens (or one decode token) over the longer step, on 4 GPUs.
    const double tokens = phase == Phase::prefill ? 1000 : 1;
    EXPECT_NEAR(1 / with.tokens_per_second_per_gpu,
                1 / plain.tokens_per_second_per_gpu + extra * 4 / tokens, 1e-9);
  }
  // Written back as read, and refused below zero with its pointer.
  nlohmann::ordered_json written;
  written["engines"] = costly.engines();
  EXPECT_EQ(written["engines"].back()["costs"]["prefill_step_us"], 40000);
  const std::string error =
      test::catalog_error(Catalog{}, engine_with(two_tiers, "vllm",
                                                 R"({"step_us": 0, "layer_us": 0, "request_us": 0,
                                 "prefill_step_us": -1})"));
  EXPECT_NE(error.find("/engines/0/costs/prefill_step_us"), std::string::npos) << error;
}

TEST_F(EngineCostsTest, AChunkedPromptPaysThePromptPassInEachOfItsSteps) {
  // Engine "e" with 40 ms in each step that prefills; a 3000-token prompt in chunks of 1024
  // takes three steps, so the closed form adds two more passes to the one its prefill holds,
  // as the simulation pays one a step.
  const Catalog costly = with_prompt_pass();
  ServingRequest r;
  r.engine = &costly.engine("e");
  const Load load{2, 3000, 200, 1024};
  const LoadWorkloads w = load_workloads(costly, costly.model("70b"), costly.dtype("bf16"),
                                         costly.gpu("h100-sxm"), r, load);
  const Cluster on{&costly.gpu("h100-sxm"), 4, 8, 8, &costly.link("nvlink4"),
                   &costly.link("ib-ndr"),  8};
  const LoadedStep s = serve_at_load(on, w, {4, 1, 1, 1}, load);
  ASSERT_EQ(s.limit, ServeLimit::none);
  EXPECT_NEAR(s.further_passes.value(), 2 * 40e-3, 1e-15);
  const double busy = s.prefill.step.busy().value();
  const double decode = s.decode.step.latency.value();
  const double riding = 1 - std::exp(-2 * (busy + 200 * decode));
  EXPECT_NEAR(s.prefill_service.value(), busy + 80e-3 + 3 * decode * riding, 1e-12);
  EXPECT_NEAR(s.prefill_share,
              2 * (s.prefill.step.stage + s.prefill.step.engine).value() + 2 * 80e-3, 1e-12);
}

TEST_F(EngineCostsTest, TheRequestCostAddsToTtftOutsideTheQueue) {
  ServingRequest r;
  r.engine = &catalog.engine("e");
  const Load load{2, 1000, 200, 8192};
  const LoadWorkloads w = load_workloads(catalog, model, bf16, h100, r, load);
  const LoadedStep s = serve_at_load(cluster, w, {4, 1, 1, 1}, load);
  ASSERT_EQ(s.limit, ServeLimit::none);
  const double service = s.prefill_service.value();
  const double rho = s.prefill_share;
  EXPECT_NEAR(s.prefill.step.request.value(), 20e-3, 1e-15);
  // One chunk: the prefill's GPU time plus the decode step it rides with while another
  // request is in flight, 1 − e^(−n) of the time, n = 2 requests/s × (prefill + 200 decode
  // steps) in flight: the request's time is outside it.
  const double busy = s.prefill.step.busy().value();
  const double decode = s.decode.step.latency.value();
  const double riding = 1 - std::exp(-2 * (busy + 200 * decode));
  EXPECT_NEAR(service, busy + decode * riding, 1e-12);
  EXPECT_NEAR(s.ttft.value(), 20e-3 + service + service * rho / (2 * (1 - rho)), 1e-12);
}

} // namespace
} // namespace icx::unit_engine
