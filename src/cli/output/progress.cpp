#include "output/progress.hpp"

#include <cstdio>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

namespace icx::cli {

namespace {

/// Work shorter than this shows no progress at all.
constexpr auto quiet_for = std::chrono::seconds(1);
/// The line is redrawn at most this often.
constexpr auto redraw_every = std::chrono::milliseconds(250);
/// The clock is read once per this many steps (a step can be a microsecond).
constexpr std::size_t steps_per_look = 64;

} // namespace

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::string what, std::size_t total, bool shown)
    : what_(std::move(what)), total_(total), shown_(shown) {}

Progress::~Progress() {
  done();
}

void Progress::step() {
  ++count_;
  if (!shown_ || count_ % steps_per_look != 0) {
    return;
  }
  const Clock::time_point now = Clock::now();
  if (now - start_ < quiet_for || now - drawn_ < redraw_every) {
    return;
  }
  drawn_ = now;
  visible_ = true;
  const std::string line = total_ > 0 ? fmt::format("icx: {} of {} {}...", count_, total_, what_)
                                      : fmt::format("icx: {} {}...", count_, what_);
  // A carriage return and the line, no newline: the next draw overwrites it.
  std::fputs(("\r" + line + "\033[K").c_str(), stderr);
  std::fflush(stderr);
}

void Progress::done() noexcept {
  if (visible_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    visible_ = false;
  }
}

} // namespace icx::cli
