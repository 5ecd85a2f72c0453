// A value, or the reason there is none: how the core answers a question that may have no
// answer for this input (a group that cannot exist, an algorithm a link lacks). The reason
// is one sentence a command can print after the flag that caused it. (std::expected is
// C++23; this is the part of it icx needs.)
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace icx {

/// The failure half of an Expected: why there is no value.
struct Unexpected {
  std::string reason;
};

/// Builds the failure of any Expected: `return unexpected("…");`.
inline Unexpected unexpected(std::string reason) {
  return Unexpected{std::move(reason)};
}

template <class T> class [[nodiscard]] Expected {
public:
  // Implicit, as std::expected: a function returns either a value or unexpected(…).
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {} // NOLINT
  Expected(Unexpected failure)                                            // NOLINT
      : state_(std::in_place_index<1>, std::move(failure.reason)) {}

  [[nodiscard]] bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  /// The value; throws std::logic_error when there is none (a bug: check first).
  [[nodiscard]] const T& value() const& {
    if (!has_value()) {
      throw std::logic_error("no value: " + std::get<1>(state_));
    }
    return std::get<0>(state_);
  }
  [[nodiscard]] T&& value() && {
    (void)std::as_const(*this).value();
    return std::get<0>(std::move(state_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] T value_or(T fallback) const {
    return has_value() ? std::get<0>(state_) : std::move(fallback);
  }

  /// Why there is no value; throws std::logic_error when there is one.
  [[nodiscard]] const std::string& reason() const {
    if (has_value()) {
      throw std::logic_error("an Expected holding a value has no reason");
    }
    return std::get<1>(state_);
  }

private:
  std::variant<T, std::string> state_;
};

/// The answer of a check: fine, or why not. `if (const Check c = …; !c) fail(c.reason());`
template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Unexpected failure) : reason_(std::move(failure.reason)) {} // NOLINT

  [[nodiscard]] bool has_value() const { return !reason_.has_value(); }
  explicit operator bool() const { return has_value(); }

  /// Why the check failed; throws std::logic_error when it passed.
  [[nodiscard]] const std::string& reason() const {
    if (!reason_) {
      throw std::logic_error("a passed check has no reason");
    }
    return *reason_;
  }

private:
  std::optional<std::string> reason_;
};

using Check = Expected<void>;

} // namespace icx
