// The --sweep grammar: PARAM=FROM:TO[:STEP|xFACTOR], with the values worked out by hand.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "options/common.hpp"
#include "options/sweep.hpp"

namespace icx::cli::unit_sweep_option {
namespace {

constexpr std::array<SweepParam, 4> serving = {SweepParam::tokens, SweepParam::batch,
                                               SweepParam::context, SweepParam::gpus};
constexpr std::array<SweepParam, 2> collective = {SweepParam::size, SweepParam::gpus};

std::vector<std::int64_t> values(const std::string& text) {
  return parse_sweep(text, serving).values;
}

TEST(SweepOption, FactorSteps) {
  // 256 · 2^k up to 65536: k = 0 … 8, nine points.
  EXPECT_EQ(values("tokens=256:65536:x2"),
            (std::vector<std::int64_t>{256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}));
  // Without a step the sweep doubles.
  EXPECT_EQ(values("batch=1:16"), (std::vector<std::int64_t>{1, 2, 4, 8, 16}));
  // 1, 10, 100, 1000: TO is reached exactly.
  EXPECT_EQ(values("context=1:1000:x10"), (std::vector<std::int64_t>{1, 10, 100, 1000}));
  // 1.5^k from 1: 1, 1.5→2, 2.25→2 (dropped), 3.375→3, 5.06→5, 7.59→8; 11.4 passes 10.
  EXPECT_EQ(values("batch=1:10:x1.5"), (std::vector<std::int64_t>{1, 2, 3, 5, 8}));
}

TEST(SweepOption, LinearSteps) {
  EXPECT_EQ(values("gpus=2:8:2"), (std::vector<std::int64_t>{2, 4, 6, 8}));
  // TO is not on a step: the last point is the last step below it.
  EXPECT_EQ(values("tokens=100:350:100"), (std::vector<std::int64_t>{100, 200, 300}));
  EXPECT_EQ(values("tokens=7:7:1"), (std::vector<std::int64_t>{7}));
  // Numbers are written as every number flag takes them.
  EXPECT_EQ(values("tokens=1e3:2e3:5e2"), (std::vector<std::int64_t>{1000, 1500, 2000}));
}

TEST(SweepOption, SizesTakeUnits) {
  const Sweep sweep = parse_sweep("size=1KiB:4KiB:1KiB", collective);
  EXPECT_EQ(sweep.param, SweepParam::size);
  EXPECT_EQ(sweep.values, (std::vector<std::int64_t>{1024, 2048, 3072, 4096}));
  // 8 B · 2^30 = 8 GiB: 31 points.
  const Sweep full = parse_sweep("size=8B:8GiB:x2", collective);
  ASSERT_EQ(full.values.size(), 31U);
  EXPECT_EQ(full.values.back(), std::int64_t{8} << 30);
}

TEST(SweepOption, Rejections) {
  for (const char* bad : {"tokens", "tokens=", "tokens=1", "tokens=4:2", "tokens=0:8",
                          "tokens=1:8:0", "tokens=1:8:x1", "tokens=1:8:x", "tokens=1:8:x0.5",
                          "tokens=1:8:2:4", "size=1:8", "gpus=1:2e6", "tokens=-1:8", "tokens=1.5:8",
                          "tokens=1:8:1.5", "tokens=1:1e8:1", "=1:8", "TOKENS=1:8"}) {
    EXPECT_THROW(parse_sweep(bad, serving), UsageError) << bad;
  }
}

TEST(SweepOption, MessagesNameTheFlagAndWhatIsValid) {
  try {
    parse_sweep("size=1:8", serving);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "--sweep size=1:8: this command sweeps tokens, batch, context, gpus, not 'size'");
  }
  try {
    parse_sweep("tokens=1:1e8:1", serving);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()), "--sweep tokens=1:1e8:1: more than 100000 points; use a "
                                         "larger STEP or xFACTOR");
  }
  // 100,000 points of tokens, but a gpus sweep stops at 1,000 clusters.
  EXPECT_EQ(parse_sweep("tokens=1:100000:1", serving).values.size(), 100000U);
  EXPECT_THROW(parse_sweep("gpus=8:16000:8", serving), UsageError);
  EXPECT_EQ(parse_sweep("gpus=8:7992:8", serving).values.size(), 999U);
}

} // namespace
} // namespace icx::cli::unit_sweep_option
