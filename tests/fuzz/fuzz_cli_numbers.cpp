// libFuzzer target for the command-line number validators (--gpus, --tokens, --budget,
// --params, --reserve, ...): any text must be accepted or rejected with a message; a text
// that is accepted must be rewritten to a canonical decimal spelling that the C library
// reads, in base 10, as a value inside the validator's bounds.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "options/common.hpp"

namespace {

constexpr std::int64_t whole_max = 100'000'000;
constexpr icx::limits::Bounds decimal_bounds{1e-3, 1e15};

/// `text` read as a base-10 integer by the C library, whole text only.
bool read_whole(const std::string& text, long long& value) {
  char* end = nullptr;
  errno = 0;
  value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && errno == 0 && end == text.c_str() + text.size();
}

/// `text` read as a number by the C library, whole text only.
bool read_double(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

/// `text` with a trailing count multiple written as an exponent: "4k" → "4e3", "1.5M" →
/// "1.5e6"; any other text as it is.
std::string exponent_spelling(const std::string& text) {
  if (text.size() > 1 && text.back() == 'k') {
    return text.substr(0, text.size() - 1) + "e3";
  }
  if (text.size() > 1 && text.back() == 'M') {
    return text.substr(0, text.size() - 1) + "e6";
  }
  return text;
}

/// Runs `validator` on a copy of `text`; on acceptance returns true and the rewritten text.
bool accepts(const CLI::Validator& validator, const std::string& text, std::string& rewritten) {
  rewritten = text;
  return validator(rewritten).empty();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const CLI::Validator whole = icx::cli::whole_number(1, whole_max);
  static const CLI::Validator decimal = icx::cli::decimal_number(decimal_bounds);
  static const CLI::Validator fraction = icx::cli::unit_fraction();
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) {
    return 0; // argv strings cannot hold a NUL
  }
  std::string out;
  long long whole_value = 0;
  double value = 0;
  if (accepts(whole, text, out)) {
    // Digits only, no leading zero left for CLI11 to read as octal.
    if (out.find_first_not_of("0123456789") != std::string::npos || out.front() == '0' ||
        !read_whole(out, whole_value) || whole_value < 1 || whole_value > whole_max) {
      __builtin_trap();
    }
    // The text is a decimal spelling ("04096", "4.096e3", or with a multiple: "4k" is
    // "4e3") of exactly that value, which a double holds exactly, and a decimal flag accepts
    // that spelling too: one notation for every flag.
    const std::string spelled = exponent_spelling(text);
    std::string as_decimal;
    if (!read_double(spelled, value) || value != static_cast<double>(whole_value) ||
        !accepts(decimal, spelled, as_decimal)) {
      __builtin_trap();
    }
  }
  if (accepts(decimal, text, out)) {
    if (out.front() == '0' && out.size() > 1 && out[1] != '.') {
      __builtin_trap();
    }
    if (!read_double(out, value) || !(value >= decimal_bounds.min) ||
        !(value <= decimal_bounds.max)) {
      __builtin_trap();
    }
  }
  if (accepts(fraction, text, out)) {
    if (!read_double(out, value) || !(value >= 0) || !(value < 1)) {
      __builtin_trap();
    }
  }
  return 0;
}
