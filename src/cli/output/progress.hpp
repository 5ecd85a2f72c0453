// A line on stderr that says how far long work has got, for a person watching a terminal:
// shown only once the work has taken a second, only when stderr is a terminal (never in a
// pipe, a file or CI), redrawn a few times a second and erased when the work ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace icx::cli {

class Progress {
public:
  /// `what` names the unit counted ("rows"); `total` is what the work will count, 0 when not
  /// known. `shown` false: never prints (stderr is not a terminal, or the caller says so).
  Progress(std::string what, std::size_t total, bool shown);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  Progress(Progress&&) = delete;
  Progress& operator=(Progress&&) = delete;
  ~Progress();
  /// One more unit done.
  void step();
  /// Erases the line, if one was shown.
  void done() noexcept;

private:
  using Clock = std::chrono::steady_clock;
  std::string what_;
  std::size_t total_;
  bool shown_;
  std::size_t count_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point drawn_{};
  bool visible_ = false;
};

/// Whether stderr is a terminal a progress line may be drawn on.
bool stderr_is_terminal();

} // namespace icx::cli
