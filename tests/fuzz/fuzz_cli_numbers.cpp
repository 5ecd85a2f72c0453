// libFuzzer target for the command-line number validators (--gpus, --budget, --params,
// --reserve, ...): any text must be accepted or rejected with a message, and a text that
// is accepted must name a value inside the validator's bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common.hpp"

namespace {

constexpr std::int64_t whole_max = 100'000'000;
constexpr double positive_max = 1e15;

/// `text` read as a number by the C library (which CLI11 also relies on), whole text only.
bool read_double(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const CLI::Validator whole = icx::cli::whole_number(1, whole_max);
  static const CLI::Validator positive = icx::cli::positive_number(positive_max);
  static const CLI::Validator fraction = icx::cli::unit_fraction();
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) {
    return 0; // argv strings cannot hold a NUL
  }
  double value = 0;
  std::string input = text;
  if (whole(input).empty()) {
    if (!read_double(text, value) || value < 1 || value > static_cast<double>(whole_max)) {
      __builtin_trap();
    }
  }
  input = text;
  if (positive(input).empty()) {
    if (!read_double(text, value) || !(value > 0) || value > positive_max) {
      __builtin_trap();
    }
  }
  input = text;
  if (fraction(input).empty()) {
    if (!read_double(text, value) || !(value >= 0) || !(value < 1)) {
      __builtin_trap();
    }
  }
  return 0;
}
