// Speculative decoding in the step model: the drafts before a decode pass that checks them,
// and the tokens it emits, held to NVIDIA's published DeepSeek-R1 MTP ablation.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "icx/reports/place.hpp"

namespace icx::unit_speculation {
namespace {

/// DeepSeek-R1 on one DGX B200 as TensorRT-LLM's tech blog 1 ("Pushing Latency Boundaries:
/// Optimizing DeepSeek-R1 Performance on NVIDIA B200 GPUs", Key Optimizations, the MTP table)
/// runs it at batch 1: NVFP4 experts, FP8 elsewhere, attention TP 8, 1k prompts and 2k outputs
/// (decode at about 2k of context).
class SpeculationTest : public ::testing::Test {
protected:
  Catalog catalog = Catalog::shipped();
  Model r1 = catalog.model("deepseek-r1");

  /// The engine the steps run under.
  const Engine* engine = &catalog.engine("trtllm");

  void SetUp() override { r1.expert_dtype = "nvfp4"; }

  [[nodiscard]] StepTime step(std::optional<Speculation> spec) const {
    PlaceRequest request;
    request.cluster = Cluster{&catalog.gpu("b200"),    8, 8, 8, &catalog.link("nvlink5"),
                              &catalog.link("ib-ndr"), 8};
    request.model = &r1;
    request.dtype = &catalog.dtype("fp8");
    request.serving.phase = Phase::decode;
    request.serving.context = 2048;
    request.serving.batch = 1;
    request.serving.engine = engine;
    request.serving.spec = std::move(spec);
    request.layout.tp = 8;
    return place_report(catalog, request).placement().step;
  }
};

struct Row {
  int drafts;
  double acceptance;
  double tokens_per_second;
};

// The blog's MTP rows at batch 1: draft layers, acceptance (tokens a step emits) and output
// tokens/s per user, against 111 tokens/s without MTP. TensorRT-LLM's own cost per draft is
// fitted on how these steps grow with the drafts (tools/fit/fit_speculation.py), so the speedup
// over the plain step is held to 10 %. The plain step itself is not fitted: icx sums each
// kernel at its measured time (the experts by TensorRT-LLM's NVFP4 min-latency kernels, ~20 µs
// a layer), the dense GEMMs by its per-tensor FP8 curve, and vLLM's per-layer gap, which
// TensorRT-LLM takes; the sum comes out 20-29 % slow, held here to 30 % so that it cannot grow
// unseen.
TEST_F(SpeculationTest, TpotWithMtpMatchesTheTensorRtLlmAblation) {
  constexpr double plain_tokens_per_second = 111;
  const double plain = step(std::nullopt).latency.value();
  std::vector<double> errors;
  std::vector<double> speedup_errors;
  for (const Row& row : {Row{1, 1.92, 198}, Row{2, 2.58, 250}, Row{3, 2.82, 253}, Row{4, 2.99, 245},
                         Row{5, 3.01, 239}}) {
    const double tpot = step(Speculation{"mtp", row.acceptance, row.drafts}).latency.value();
    errors.push_back(std::abs(tpot * row.tokens_per_second - 1.0));
    speedup_errors.push_back(
        std::abs(plain / tpot / (row.tokens_per_second / plain_tokens_per_second) - 1.0));
  }
  std::ranges::sort(errors);
  std::ranges::sort(speedup_errors);
  EXPECT_LE(speedup_errors[speedup_errors.size() / 2], 0.10);
  EXPECT_LE(errors[errors.size() / 2], 0.30);
}

// The step checks drafts + 1 tokens a sequence, pays for the drafts before it, and a token's
// time is the step's over the tokens it emits.
TEST_F(SpeculationTest, AStepIsItsDraftsAndItsPassOverTheTokensEmitted) {
  const StepTime plain = step(std::nullopt);
  const StepTime spec = step(Speculation{"mtp", 1.8, 2});
  EXPECT_EQ(plain.batch.tokens_per_sequence, 1);
  EXPECT_EQ(spec.batch.tokens_per_sequence, 3);
  EXPECT_EQ(plain.draft.value(), 0);
  EXPECT_DOUBLE_EQ(spec.emitted, 1.8);
  EXPECT_DOUBLE_EQ(spec.latency.value() * 1.8,
                   (spec.stage + spec.pipeline + spec.engine + spec.draft).value());
  // Checking two more tokens reads the same weights: the pass costs more, but far less than
  // three steps.
  EXPECT_GT(spec.stage, plain.stage);
  EXPECT_LT(spec.stage, plain.stage * 1.5);
  // A draft is one of R1's 61 layers and the LM head, with TensorRT-LLM's own 294 µs: more
  // than a 61st of the step, less than a tenth of it.
  const double one_draft = spec.draft.value() / 2;
  EXPECT_GT(one_draft, plain.stage.value() / 61);
  EXPECT_LT(one_draft, plain.stage.value() / 10);
}

// The engine's own part of a speculative step is its catalog figures, once a step and once a
// draft, on top of the GPUs' drafts (vLLM: 1,276.8 µs and 472.6 µs).
TEST_F(SpeculationTest, TheEngineAddsItsOwnCostsOnceAStepAndOnceADraft) {
  Engine bare = catalog.engine("vllm");
  bare.speculation.reset();
  engine = &bare;
  const StepTime without = step(Speculation{"mtp", 1.8, 3});
  engine = &catalog.engine("vllm");
  const StepTime vllm = step(Speculation{"mtp", 1.8, 3});
  EXPECT_NEAR((vllm.draft - without.draft).value(), 1276.8e-6 + 3 * 472.6e-6, 1e-12);
}

/// Llama 3.1 8B in BF16 under vLLM on one H100, batch 1, at MT-Bench's short contexts (taken
/// as 512 tokens), EAGLE with `drafts` at `acceptance`.
StepTime eagle_on_h100(const Catalog& catalog, double acceptance, int drafts) {
  PlaceRequest request;
  request.cluster = Cluster{&catalog.gpu("h100-sxm"), 1, 8, 8, &catalog.link("nvlink4"),
                            &catalog.link("ib-ndr"),  8};
  request.model = &catalog.model("8b");
  request.dtype = &catalog.dtype("bf16");
  request.serving.phase = Phase::decode;
  request.serving.context = 512;
  request.serving.batch = 1;
  request.serving.engine = &catalog.engine("vllm");
  request.serving.spec = Speculation{"eagle", acceptance, drafts};
  return place_report(catalog, request).placement().step;
}

// Held out: vLLM PR 16937's EAGLE-1 runs on one H100 at batch 1 (output tokens/s, offline),
// with issue 20780's acceptance lengths at the same drafts; vLLM's speculation costs were
// fitted on that EAGLE-3 runs, not on these.
TEST(SpeculationHeldOut, VllmEagleOnOneH100) {
  const Catalog catalog = Catalog::shipped();
  std::vector<double> errors;
  for (const Row& row : {Row{2, 2.10, 201.69}, Row{4, 2.39, 198}, Row{7, 2.47, 169.92}}) {
    const StepTime s = eagle_on_h100(catalog, row.acceptance, row.drafts);
    errors.push_back(std::abs(s.latency.value() * row.tokens_per_second - 1.0));
  }
  std::ranges::sort(errors);
  EXPECT_LE(errors[errors.size() / 2], 0.10);
}

} // namespace
} // namespace icx::unit_speculation
