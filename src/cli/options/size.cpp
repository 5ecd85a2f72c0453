#include "options/size.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "icx/base/limits.hpp"
#include "icx/util/number_text.hpp"
#include "options/common.hpp"
#include "options/sweep.hpp"

namespace icx::cli {

namespace {

struct SizeUnit {
  std::string_view spelling;
  std::int64_t bytes;
};

constexpr std::int64_t kibi = std::int64_t{1} << 10;
constexpr std::int64_t kilo = 1000;

/// The units a size takes. A bare prefix (1G) counts in powers of 1024 as nccl-tests' -b and
/// -e do; B, KB … PB in powers of 1000, KiB … PiB in powers of 1024. The prefix letter takes
/// either case, the B must be a capital: a lowercase b means bits.
constexpr std::array<SizeUnit, 16> size_units{{{"", 1},
                                               {"B", 1},
                                               {"K", kibi},
                                               {"M", kibi* kibi},
                                               {"G", kibi* kibi* kibi},
                                               {"T", kibi* kibi* kibi* kibi},
                                               {"KB", kilo},
                                               {"MB", kilo* kilo},
                                               {"GB", kilo* kilo* kilo},
                                               {"TB", kilo* kilo* kilo* kilo},
                                               {"PB", kilo* kilo* kilo* kilo* kilo},
                                               {"KIB", kibi},
                                               {"MIB", kibi* kibi},
                                               {"GIB", kibi* kibi* kibi},
                                               {"TIB", kibi* kibi* kibi* kibi},
                                               {"PIB", kibi* kibi* kibi* kibi* kibi}}};

/// The unit's bytes, or nothing for an unknown unit or one spelled with a lowercase b.
std::optional<std::int64_t> unit_bytes(std::string_view unit) {
  if (unit.ends_with('b')) {
    return std::nullopt;
  }
  std::string upper(unit);
  for (char& c : upper) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  for (const SizeUnit& known : size_units) {
    if (known.spelling == upper) {
      return known.bytes;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<Bytes> size_value(const std::string& text) {
  const std::size_t digits = text.find_first_not_of("0123456789");
  const std::optional<std::int64_t> number = parse_whole(text.substr(0, digits));
  const std::optional<std::int64_t> unit = unit_bytes(
      digits == std::string::npos ? std::string_view() : std::string_view(text).substr(digits));
  if (!number || !unit || *number < 1 || *number > limits::max_message_bytes / *unit) {
    return std::nullopt;
  }
  return Bytes::of(static_cast<double>(*number * *unit));
}

std::string size_hint(const std::string& text) {
  if (text.ends_with('b') && text.size() > 1) {
    const std::string bytes = text.substr(0, text.size() - 1);
    return fmt::format("a lowercase b means bits: write {}B (powers of 1000) or {}iB (powers of "
                       "1024) for bytes",
                       bytes, bytes.ends_with('i') ? bytes.substr(0, bytes.size() - 1) : bytes);
  }
  return "a whole number of bytes from 1 B to 1 PiB with an optional unit: B, KB, MB, GB, TB "
         "(powers of 1000), KiB, MiB, GiB, TiB (powers of 1024), or K, M, G, T as nccl-tests' "
         "-b and -e read them (powers of 1024)";
}

std::string size_error(std::string_view flag, const std::string& text) {
  return fmt::format("{}: '{}' is not a size; {}", flag, text, size_hint(text));
}

namespace {

/// One message size in bytes (size_value), or a UsageError naming --size.
std::int64_t parse_size(const std::string& text) {
  const std::optional<Bytes> bytes = size_value(text);
  if (!bytes) {
    const bool bits = text.ends_with('b');
    throw UsageError(size_error("--size", text) +
                     (bits ? std::string() : std::string(", or a sweep FROM:TO such as 8B:16GiB")));
  }
  return static_cast<std::int64_t>(bytes->value());
}

} // namespace

std::vector<Bytes> parse_sizes(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    return {Bytes::of(static_cast<double>(parse_size(text)))};
  }
  if (text.find(':', colon + 1) != std::string::npos) {
    std::vector<Bytes> sizes;
    for (const std::int64_t size : sweep_values(SweepParam::size, text, "--size " + text)) {
      sizes.push_back(Bytes::of(static_cast<double>(size)));
    }
    return sizes;
  }
  const std::int64_t from = parse_size(text.substr(0, colon));
  const std::int64_t to = parse_size(text.substr(colon + 1));
  if (from > to) {
    throw UsageError(
        fmt::format("--size: sweep '{}' runs backwards; give FROM:TO with FROM <= TO", text));
  }
  std::vector<Bytes> sizes;
  for (std::int64_t size = from; size <= to; size *= 2) {
    sizes.push_back(Bytes::of(static_cast<double>(size)));
  }
  return sizes;
}

} // namespace icx::cli
