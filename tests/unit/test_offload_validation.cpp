// Published offloaded decode rates (data/measurements/offload.csv) against icx offload's expected
// step: each held-out row within its stated bound; and the reader of such files.
#include "icx/reports/offload_validation.hpp"

#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"

namespace icx::unit_offload_validation {
namespace {

TEST(OffloadValidation, HeldOutRunsWithinTheirBound) {
  const Catalog catalog = Catalog::shipped();
  const MeasurementFile file = shipped_offloads().front();
  int held_out = 0;
  for (const OffloadCheck& c : check_offloads(catalog, parse_offloads_csv(file.text, "f"))) {
    if (c.row.use != "held-out") {
      EXPECT_FALSE(c.row.note.empty()) << "an outside row says why: " << c.row.hardware;
      EXPECT_FALSE(c.comparison.predicted) << c.row.hardware;
      continue;
    }
    ++held_out;
    std::cout << c.row.hardware << ": measured " << *c.row.measured_tokens_per_s
              << " tok/s, predicted " << *c.comparison.predicted << " tok/s\n";
    EXPECT_GE(*c.comparison.predicted, *c.row.measured_tokens_per_s / *c.row.bound) << c.row.source;
    EXPECT_LE(*c.comparison.predicted, *c.row.measured_tokens_per_s * *c.row.bound) << c.row.source;
  }
  EXPECT_GE(held_out, 1);
}

TEST(OffloadValidation, GraceHopperLlama70BWorkedByHand) {
  // vLLM PR 6317: Llama-3-70B BF16 on one GH200 holding 86 GB in HBM, batch 1, 4.6 tok/s.
  // By hand: 141.107 GB of weights, 86 GB resident read at 0.89 of 3.35 TB/s (H100's Triad
  // figure, as every decode step reads HBM) = 28.84 ms; the 55.107 GB spill over NVLink-C2C at
  // the measured 346 GB/s = 159.27 ms, not overlapped (vllm engine): 188.11 ms a step,
  // 5.316 tok/s.
  const std::string csv =
      "hardware,gpu,hbm_held_GB,gpus,host_link,model,dtype,batch,engine,"
      "measured_tokens_per_s,bound,use,note,source\n"
      "GH200,h100-sxm,86,1,nvlink-c2c,llama-3.1-70b,bf16,1,vllm,4.6,1.5,held-out,n,s\n";
  const auto checks = check_offloads(Catalog::shipped(), parse_offloads_csv(csv, "f.csv"));
  ASSERT_EQ(checks.size(), 1U);
  const double step = 86e9 / (3350e9 * 0.89) + (141107412992.0 - 86e9) / 346e9;
  EXPECT_NEAR(*checks[0].comparison.predicted, 1.0 / step, 1e-9);
  EXPECT_NEAR(*checks[0].comparison.predicted, 5.316, 1e-3);
}

std::string error_of(const std::string& row) {
  const std::string header = "hardware,gpu,hbm_held_GB,gpus,host_link,model,dtype,batch,engine,"
                             "measured_tokens_per_s,bound,use,note,source\n";
  try {
    (void)check_offloads(Catalog::shipped(), parse_offloads_csv(header + row + "\n", "f.csv"));
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(OffloadValidation, ErrorsNameLineAndColumn) {
  EXPECT_EQ(error_of("h,h100,80,1,pcie5,70b,bf16,1,deepspeed,4,2,held-out,,s"),
            "f.csv:2: column 'engine': unknown engine 'deepspeed'; known: vllm, prefetch");
  EXPECT_EQ(error_of("h,,,,,,,,,,,outside,,s"),
            "f.csv:2: column 'note': expected why icx cannot price an outside row");
  EXPECT_EQ(error_of("h,h100,80,1,nvlink4,70b,bf16,1,vllm,4,2,held-out,,s"),
            "f.csv:2: column 'host_link': 'nvlink4' is not a host link with a measured "
            "host-to-device rate (e.g. pcie5, nvlink-c2c)");
  EXPECT_EQ(error_of("h,h999,80,1,pcie5,70b,bf16,1,vllm,4,2,held-out,,s")
                .rfind("f.csv:2: column 'gpu': unknown gpu 'h999'", 0),
            0U);
}

} // namespace
} // namespace icx::unit_offload_validation
