#include "size_option.hpp"

#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "common.hpp"
#include "icx/limits.hpp"
#include "icx/util/number_text.hpp"
#include "sweep_option.hpp"

namespace icx::cli {

std::optional<Bytes> size_value(const std::string& text) {
  std::string value = text;
  std::string problem;
  if (text.find_first_of(" \t") != std::string::npos) {
    problem = "blank"; // AsSizeValue would trim it; every other number flag rejects it
  }
  try {
    if (problem.empty()) {
      problem = CLI::AsSizeValue(true)(value);
    }
  } catch (const CLI::ValidationError& error) {
    problem = error.what();
  }
  if (problem.empty()) {
    const std::optional<std::int64_t> parsed = parse_whole(value);
    if (parsed && *parsed >= 1 && *parsed <= limits::max_message_bytes) {
      return Bytes::of(static_cast<double>(*parsed));
    }
  }
  return std::nullopt;
}

namespace {

/// One message size in bytes (size_value), or a UsageError naming --size.
std::int64_t parse_size(const std::string& text) {
  const std::optional<Bytes> bytes = size_value(text);
  if (!bytes) {
    throw UsageError(fmt::format("--size: '{}' is not a message size; expected a whole number of "
                                 "bytes from 1 B to 1 PiB with an optional unit: B, KB, MB, GB "
                                 "(powers of 1000) or KiB, MiB, GiB (powers of 1024), or a sweep "
                                 "FROM:TO such as 8B:16GiB",
                                 text));
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
