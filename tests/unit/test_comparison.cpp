#include <gtest/gtest.h>

#include <stdexcept>

#include "icx/measured/comparison.hpp"

namespace icx::unit_comparison {
namespace {

constexpr Bound twice{Bound::Kind::factor, 2};
constexpr Bound ten_percent{Bound::Kind::tolerance, 0.10};

TEST(Comparison, AFactorBoundHoldsBothWays) {
  // 3 s predicted for 2 s measured: 1.5× over, inside 2×; 0.9 s: 2.22× under, outside it.
  const Comparison over = compare(2.0, 3.0, twice, true);
  EXPECT_DOUBLE_EQ(over.error, 0.5);
  EXPECT_TRUE(over.within());
  EXPECT_EQ(verdict(over), RowVerdict::within);
  const Comparison under = compare(2.0, 0.9, twice, true);
  EXPECT_DOUBLE_EQ(under.error, 0.9 / 2.0 - 1.0);
  EXPECT_FALSE(under.within());
  EXPECT_TRUE(under.misses());
  EXPECT_EQ(verdict(under), RowVerdict::out);
}

TEST(Comparison, AToleranceBoundIsAFractionEitherWay) {
  EXPECT_TRUE(compare(100.0, 109.0, ten_percent, true).within());
  EXPECT_TRUE(compare(100.0, 91.0, ten_percent, true).within());
  EXPECT_FALSE(compare(100.0, 112.0, ten_percent, true).within());
}

TEST(Comparison, AnOutsideRowIsShownAndNeverFails) {
  const Comparison shown = compare(2.0, 9.0, twice, false);
  EXPECT_FALSE(shown.within());
  EXPECT_FALSE(shown.misses());
  EXPECT_EQ(verdict(shown), RowVerdict::shown);
  const Comparison unbounded = compare(2.0, 2.0, std::nullopt, false);
  EXPECT_FALSE(unbounded.within()) << "no bound: not within one";
  EXPECT_FALSE(unbounded.misses());
}

TEST(Comparison, AnUnpricedRowHasNoErrorAndDoesNotFail) {
  const Comparison c = compare(std::nullopt, std::nullopt, twice, true);
  EXPECT_EQ(c.error, 0);
  EXPECT_FALSE(c.misses());
  EXPECT_EQ(verdict(c), RowVerdict::unpriced);
  EXPECT_THROW((void)compare(std::nullopt, 1.0, twice, true), std::logic_error);
}

TEST(ComparisonTally, CountsRowsAndSummarisesTheErrorsOfPredictedOnes) {
  ComparisonTally tally;
  tally.add(compare(1.0, 1.05, ten_percent, true)); // +5 %
  tally.add(compare(1.0, 0.8, ten_percent, true));  // -20 %
  tally.add(compare(1.0, 1.08, ten_percent, true)); // +8 %
  tally.add(compare(1.0, std::nullopt, ten_percent, true));
  const ComparisonSummary s = tally.summary();
  EXPECT_EQ(s.rows, 4);
  EXPECT_EQ(s.predicted, 3);
  EXPECT_EQ(s.within, 2);
  EXPECT_NEAR(s.median_abs_error, 0.08, 1e-12);
  EXPECT_NEAR(s.worst_abs_error, 0.20, 1e-12);
}

} // namespace
} // namespace icx::unit_comparison
