// The sweep engine's points on every core: results taken in order, whatever thread made them,
// and a point's exception at its turn.
#include "sweeps/in_order.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace icx::cli::unit_in_order {
namespace {

std::vector<std::size_t> squares_taken(std::size_t count) {
  std::vector<std::size_t> taken;
  for_each_in_order<std::size_t>(
      count, [](std::size_t i) { return i * i; },
      [&](std::size_t& square) { taken.push_back(square); });
  return taken;
}

TEST(InOrder, TakesEveryPointInOrder) {
  // Shorter than a block (the calling thread), a block exactly, and many blocks with a part.
  for (const std::size_t count :
       {std::size_t{0}, std::size_t{3}, sweep_block_points, 7 * sweep_block_points + 5}) {
    const std::vector<std::size_t> taken = squares_taken(count);
    ASSERT_EQ(taken.size(), count);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(taken[i], i * i) << "point " << i << " of " << count;
    }
  }
}

TEST(InOrder, APointsExceptionReachesTheCallerAtItsTurn) {
  const std::size_t count = 5 * sweep_block_points;
  const std::size_t bad = 3 * sweep_block_points + 1;
  std::size_t taken = 0;
  EXPECT_THROW(for_each_in_order<std::size_t>(
                   count,
                   [&](std::size_t i) {
                     if (i == bad) {
                       throw std::runtime_error("point cannot be computed");
                     }
                     return i;
                   },
                   [&](std::size_t& /*point*/) { ++taken; }),
               std::runtime_error);
  // Every point before the bad one was taken; none after it.
  EXPECT_EQ(taken, bad);
}

} // namespace
} // namespace icx::cli::unit_in_order
