// A sweep's points computed on every core and taken in order: what one thread would write,
// sooner. Each point's compute reads only what the sweep shares (the catalog, the request);
// the core keeps no state between calls, so points are independent.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <exception>
#include <future>
#include <thread>
#include <vector>

namespace icx::cli {

/// Points a thread computes at a time: many, so that starting a block costs little beside it;
/// few, so that the results waiting for their turn stay small (at most one block per thread
/// and the one being taken).
inline constexpr std::size_t sweep_block_points = 256;

/// A block's results, and the exception of the point that ended it early.
template <class Result> struct PointBlock {
  std::vector<Result> results;
  std::exception_ptr failed;
};

/// compute(i) for every i below `count`, and take(result) for each, in order of i, on the
/// calling thread. A sweep longer than a block is computed a block at a time on up to every
/// core; a shorter one (or a machine of one core) on the calling thread alone. Either way, an
/// exception from compute reaches the caller after every point before it has been taken, and
/// no point after it is.
template <class Result, class Compute, class Take>
void for_each_in_order(std::size_t count, const Compute& compute, const Take& take) {
  const std::size_t threads = std::thread::hardware_concurrency();
  if (threads <= 1 || count <= sweep_block_points) {
    for (std::size_t i = 0; i < count; ++i) {
      Result result = compute(i);
      take(result);
    }
    return;
  }
  std::deque<std::future<PointBlock<Result>>> running;
  std::size_t next = 0;
  const auto launch = [&] {
    const std::size_t begin = next;
    const std::size_t end = std::min(count, next + sweep_block_points);
    next = end;
    running.push_back(std::async(std::launch::async, [&compute, begin, end] {
      PointBlock<Result> block;
      block.results.reserve(end - begin);
      try {
        for (std::size_t i = begin; i < end; ++i) {
          block.results.push_back(compute(i));
        }
      } catch (...) {
        block.failed = std::current_exception();
      }
      return block;
    }));
  };
  while (next < count && running.size() < threads) {
    launch();
  }
  while (!running.empty()) {
    PointBlock<Result> block = running.front().get();
    running.pop_front();
    if (next < count && !block.failed) {
      launch();
    }
    for (Result& result : block.results) {
      take(result);
    }
    if (block.failed) {
      std::rethrow_exception(block.failed);
    }
  }
}

} // namespace icx::cli
