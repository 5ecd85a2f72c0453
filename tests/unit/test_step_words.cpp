// What --explain shows of one step (icx/words/step.hpp): each operation, then the stage and the
// latency they add up to.
#include <gtest/gtest.h>

#include "icx/words/step.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_step_words {
namespace {

/// A stage of two operations (1 ms of QKV, 3 ms of MLP-up), 0.5 ms exposed, 0.2 ms of gaps.
StepTime two_operation_step() {
  StepTime step;
  StepTerm qkv;
  qkv.op = StepOp::qkv;
  qkv.seconds = microseconds(1000);
  qkv.bound = GemmBound::memory;
  StepTerm up = qkv;
  up.op = StepOp::mlp_up;
  up.seconds = microseconds(3000);
  up.bound = GemmBound::compute;
  step.work.terms = {qkv, up};
  step.work.seconds = microseconds(4000);
  step.exposed_comm = microseconds(500);
  step.layer_gaps = microseconds(200);
  step.stage = microseconds(4700);
  step.engine = microseconds(700);
  return step;
}

TEST(StepWords, EachOperationThenComputeMemoryAndTheStage) {
  const Gpu gpu = test::make_gpu("nvlink4", 8);
  Derivations d;
  add_step_terms(d, two_operation_step(), gpu, "decode: ");
  ASSERT_EQ(d.size(), 5U);
  EXPECT_EQ(d[0].quantity, "decode: qkv per stage");
  EXPECT_NE(d[0].formula.find("memory-bound"), std::string::npos);
  EXPECT_DOUBLE_EQ(d[0].value, 1e-3);
  EXPECT_EQ(d[1].quantity, "decode: mlp-up per stage");
  EXPECT_DOUBLE_EQ(d[1].value, 3e-3);
  EXPECT_EQ(d[2].quantity, "decode: compute per stage");
  EXPECT_EQ(d[3].quantity, "decode: memory per stage");
  EXPECT_EQ(d[4].quantity, "decode: stage");
  // 4 ms of operations + 0.5 ms exposed + 0.2 ms of gaps.
  EXPECT_DOUBLE_EQ(d[4].value, 4.7e-3);
  EXPECT_NE(d[4].formula.find("4 ms of operations + 500 µs exposed"), std::string::npos)
      << d[4].formula;
}

TEST(StepWords, OperationTermsLeaveTheStageOut) {
  const Gpu gpu = test::make_gpu("nvlink4", 8);
  Derivations d;
  add_operation_terms(d, two_operation_step(), gpu, "");
  ASSERT_EQ(d.size(), 4U);
  EXPECT_EQ(d.back().quantity, "memory per stage");
}

TEST(StepWords, TheLatencyFormulaNamesTheStagesAndTheEngine) {
  const std::string formula = latency_formula(two_operation_step(), 2);
  EXPECT_NE(formula.find("pp 2 × 4.7 ms"), std::string::npos) << formula;
  EXPECT_NE(formula.find("700 µs engine step"), std::string::npos) << formula;
}

} // namespace
} // namespace icx::unit_step_words
