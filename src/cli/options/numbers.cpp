#include "options/numbers.hpp"

#include <cmath>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "icx/base/units.hpp"
#include "icx/base/units_format.hpp"
#include "icx/util/number_text.hpp"

namespace icx::cli {

// Every number on the command line is decimal. CLI11 reads "010" as octal and "0x10" as hex
// when it converts an option, so each validator here is a transform: it parses the text
// itself and hands CLI11 the canonical decimal spelling ("01024" becomes "1024").

CLI::Validator whole_number(std::int64_t min, std::int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        const std::optional<std::int64_t> value = parse_whole_count(text);
        if (!value || *value < min || *value > max) {
          return fmt::format("expected a whole number from {} to {} (digits, decimal notation "
                             "such as 4.096e3, or thousands and millions such as 4k and 1.5M), "
                             "got '{}'",
                             min, max, text);
        }
        text = std::to_string(*value);
        return {};
      },
      "");
}

namespace {

CLI::Validator decimal_in(const limits::Bounds& bounds, bool below_max, const char* what) {
  return CLI::Validator(
      [bounds, below_max, what](std::string& text) -> std::string {
        const std::optional<double> value = parse_decimal(text);
        const bool inside = value && *value >= bounds.min &&
                            (below_max ? *value < bounds.max : *value <= bounds.max);
        if (!inside) {
          return fmt::format("expected a decimal {} from {:g} to {}{:g}, got '{}'", what,
                             bounds.min, below_max ? "below " : "", bounds.max, text);
        }
        text = fmt::format("{}", *value);
        return {};
      },
      "");
}

} // namespace

CLI::Validator decimal_number(const limits::Bounds& bounds) {
  return decimal_in(bounds, false, "number");
}

CLI::Validator unit_fraction() {
  return decimal_in(limits::Bounds{0, 1}, true, "fraction");
}

CLI::Validator duration_seconds(const limits::Bounds& bounds) {
  return CLI::Validator(
      [bounds](std::string& text) -> std::string {
        // Seconds per unit; the longest suffix is tried first so "ms" is not read as "s".
        static constexpr std::array<std::pair<std::string_view, double>, 5> units{
            {{"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}, {"s", 1}}};
        const std::string_view whole = text;
        for (const auto& [unit, scale] : units) {
          if (whole.size() > unit.size() && whole.ends_with(unit)) {
            std::string number(whole.substr(0, whole.size() - unit.size()));
            while (!number.empty() && number.back() == ' ') {
              number.pop_back();
            }
            const std::optional<double> value = parse_decimal(number);
            if (value && *value * scale >= bounds.min && *value * scale <= bounds.max) {
              text = fmt::format("{}", *value * scale);
              return {};
            }
            break;
          }
        }
        return fmt::format("expected a duration with a unit (s, ms, us) from {} to {} s, e.g. "
                           "50ms or 2s, got '{}'",
                           format_seconds(Seconds::of(bounds.min)), bounds.max, text);
      },
      "");
}

CLI::Validator latency_target(const limits::Bounds& bounds) {
  const CLI::Validator duration = duration_seconds(bounds);
  return CLI::Validator(
      [duration](std::string& text) -> std::string {
        const std::size_t colon = text.find(':');
        Statistic statistic = Statistic::mean;
        if (colon != std::string::npos) {
          const std::string name = text.substr(0, colon);
          const std::optional<Statistic> parsed = parse_enum<Statistic>(name);
          if (!parsed) {
            return fmt::format("expected a statistic before ':' (mean, p50, p90 or p99), e.g. "
                               "p99:2s, got '{}'",
                               name);
          }
          statistic = *parsed;
        }
        std::string seconds = colon == std::string::npos ? text : text.substr(colon + 1);
        if (std::string error = duration(seconds); !error.empty()) {
          return error;
        }
        text = fmt::format("{}:{}", to_string(statistic), seconds);
        return {};
      },
      "");
}

LatencyTarget latency_target_of(const std::string& transformed) {
  const std::size_t colon = transformed.find(':');
  return {parse_enum<Statistic>(transformed.substr(0, colon)).value_or(Statistic::mean),
          std::stod(transformed.substr(colon + 1))};
}

} // namespace icx::cli
