// Strong unit types: a figure's unit is part of its type, so a bandwidth can never be
// mistaken for a byte count and only physically meaningful arithmetic compiles.
#pragma once

#include <compare>

namespace icx {

template <class Tag> class Quantity {
public:
  constexpr Quantity() = default;
  static constexpr Quantity of(double value) { return Quantity(value); }
  [[nodiscard]] constexpr double value() const { return value_; }

  constexpr Quantity operator+(Quantity other) const { return Quantity(value_ + other.value_); }
  constexpr Quantity operator-(Quantity other) const { return Quantity(value_ - other.value_); }
  constexpr Quantity operator*(double factor) const { return Quantity(value_ * factor); }
  constexpr Quantity operator/(double divisor) const { return Quantity(value_ / divisor); }
  constexpr double operator/(Quantity other) const { return value_ / other.value_; }
  constexpr Quantity& operator+=(Quantity other) {
    value_ += other.value_;
    return *this;
  }
  constexpr auto operator<=>(const Quantity&) const = default;

private:
  constexpr explicit Quantity(double value) : value_(value) {}
  double value_ = 0.0;
};

template <class Tag> constexpr Quantity<Tag> operator*(double factor, Quantity<Tag> q) {
  return q * factor;
}

struct BytesTag {};
struct SecondsTag {};
struct BytesPerSecondTag {};
struct FlopsTag {};
struct FlopsPerSecondTag {};

/// A count of bytes (exact for whole numbers up to 2^53).
using Bytes = Quantity<BytesTag>;
/// A duration in seconds.
using Seconds = Quantity<SecondsTag>;
/// A data rate in bytes per second; its direction convention is carried by whoever holds it.
using BytesPerSecond = Quantity<BytesPerSecondTag>;
/// A count of floating-point operations.
using Flops = Quantity<FlopsTag>;
/// A compute rate in floating-point operations per second.
using FlopsPerSecond = Quantity<FlopsPerSecondTag>;

constexpr Seconds operator/(Bytes bytes, BytesPerSecond rate) {
  return Seconds::of(bytes.value() / rate.value());
}
constexpr BytesPerSecond operator/(Bytes bytes, Seconds time) {
  return BytesPerSecond::of(bytes.value() / time.value());
}
constexpr Bytes operator*(BytesPerSecond rate, Seconds time) {
  return Bytes::of(rate.value() * time.value());
}
constexpr Seconds operator/(Flops work, FlopsPerSecond rate) {
  return Seconds::of(work.value() / rate.value());
}

// SI decimal prefixes, as interconnect and storage vendors quote them (1 GB = 10^9 B).
constexpr double kilo = 1e3;
constexpr double mega = 1e6;
constexpr double giga = 1e9;
constexpr double tera = 1e12;
constexpr double peta = 1e15;
constexpr double micro = 1e-6;
constexpr double nano = 1e-9;
constexpr double milli = 1e-3;
// Binary prefixes, as buffer sizes are written (1 MiB = 2^20 B).
constexpr double kibi = 1024.0;
constexpr double mebi = kibi * kibi;
constexpr double gibi = mebi * kibi;

constexpr BytesPerSecond gigabytes_per_second(double gbps) {
  return BytesPerSecond::of(gbps * giga);
}
constexpr Seconds microseconds(double us) {
  return Seconds::of(us * micro);
}

/// A figure that a source gives either as one value or as a range [low, high].
template <class Q> struct Range {
  Q low;
  Q high;
  static constexpr Range exactly(Q value) { return Range{value, value}; }
  [[nodiscard]] constexpr bool is_range() const { return low != high; }
  constexpr auto operator<=>(const Range&) const = default;
};

} // namespace icx
