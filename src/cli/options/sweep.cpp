#include "options/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "icx/base/limits.hpp"
#include "icx/util/number_text.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/size.hpp"

namespace icx::cli {

namespace {

/// xFACTOR bounds: below 1 % a step is invisible on a log axis (and a sweep of many decades
/// would loop for long); above a million it leaves one point.
constexpr double min_factor = 1.01;
constexpr double max_factor = 1e6;

std::vector<std::string> names_of(std::span<const SweepParam> allowed) {
  std::vector<std::string> names;
  for (const SweepParam param : allowed) {
    names.emplace_back(to_string(param));
  }
  return names;
}

/// "tokens=", "batch=": how --sweep starts, as --help shows it for the completions.
std::vector<std::string> parameters_of(std::span<const SweepParam> allowed) {
  std::vector<std::string> out;
  for (const std::string& name : names_of(allowed)) {
    out.push_back(name + "=");
  }
  return out;
}

/// The bounds of one value of `param`: the same as the flag it stands for.
std::int64_t max_of(SweepParam param) {
  switch (param) {
  case SweepParam::gpus:
    return limits::max_domain;
  case SweepParam::size:
    return limits::max_message_bytes;
  case SweepParam::tokens:
  case SweepParam::batch:
  case SweepParam::context:
    break;
  }
  return limits::max_tokens;
}

std::string value_text(SweepParam param) {
  if (param == SweepParam::size) {
    return "a size from 1 B to 1 PiB with an optional unit (8B, 4KiB, 1GB)";
  }
  return fmt::format("a whole number from 1 to {}", max_of(param));
}

class SweepReader {
public:
  SweepReader(const std::string& flag, SweepParam param) : flag_(flag), param_(param) {}

  std::int64_t value(std::string_view part, std::string_view what) const {
    std::optional<std::int64_t> parsed;
    if (param_ == SweepParam::size) {
      if (const std::optional<Bytes> bytes = size_value(std::string(part))) {
        parsed = static_cast<std::int64_t>(bytes->value());
      }
    } else if (const auto whole = parse_whole_count(part); whole && *whole >= 1) {
      parsed = whole;
    }
    if (!parsed && param_ == SweepParam::size) {
      throw UsageError(fmt::format("{}: {} '{}' is not a size; {}", flag_, what, part,
                                   size_hint(std::string(part))));
    }
    if (!parsed || *parsed > max_of(param_)) {
      throw UsageError(fmt::format("{}: {} '{}' is not {}", flag_, what, part, value_text(param_)));
    }
    return *parsed;
  }

  double factor(std::string_view part) const {
    const std::optional<double> parsed = parse_decimal(part);
    if (!parsed || !(*parsed >= min_factor) || *parsed > max_factor) {
      throw UsageError(fmt::format("{}: factor 'x{}' is not a number from {:g} to {:g}; "
                                   "e.g. x2 doubles",
                                   flag_, part, min_factor, max_factor));
    }
    return *parsed;
  }

  void check_count(std::size_t count) const {
    if (count >= max_points(param_)) {
      throw UsageError(fmt::format("{}: more than {} points; use a larger STEP or "
                                   "xFACTOR",
                                   flag_, max_points(param_)));
    }
  }

private:
  const std::string& flag_;
  SweepParam param_;
};

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

} // namespace

Sweep parse_sweep(const std::string& text, std::span<const SweepParam> allowed) {
  const std::string known = joined(names_of(allowed));
  const auto equals = text.find('=');
  if (equals == std::string::npos) {
    throw UsageError(fmt::format("--sweep '{}': expected PARAM=FROM:TO[:STEP|xFACTOR] with PARAM "
                                 "one of {}, e.g. {}=256:65536:x2",
                                 text, known, to_string(allowed.front())));
  }
  const std::string_view name = std::string_view(text).substr(0, equals);
  const std::optional<SweepParam> param = parse_enum<SweepParam>(name);
  if (!param || std::ranges::find(allowed, *param) == allowed.end()) {
    throw UsageError(
        fmt::format("--sweep {}: this command sweeps {}, not '{}'", text, known, name));
  }
  const std::string flag = "--sweep " + text;
  return {*param, sweep_values(*param, std::string_view(text).substr(equals + 1), flag), text};
}

std::vector<std::int64_t> sweep_values(SweepParam param, std::string_view range,
                                       const std::string& flag) {
  const std::vector<std::string_view> parts = split(range, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    throw UsageError(fmt::format("{}: expected FROM:TO, FROM:TO:STEP or FROM:TO:xFACTOR", flag));
  }
  const SweepReader reader(flag, param);
  const std::int64_t from = reader.value(parts[0], "FROM");
  const std::int64_t to = reader.value(parts[1], "TO");
  if (from > to) {
    throw UsageError(fmt::format("{}: runs backwards; give FROM:TO with FROM <= TO", flag));
  }
  std::vector<std::int64_t> values;
  const bool additive = parts.size() == 3 && !parts[2].starts_with('x');
  if (additive) {
    const std::int64_t step = reader.value(parts[2], "STEP");
    reader.check_count(static_cast<std::size_t>((to - from) / step));
    for (std::int64_t value = from; value <= to; value += step) {
      values.push_back(value);
      if (to - value < step) {
        break; // the next step would pass TO (and might overflow)
      }
    }
    return values;
  }
  const double factor = parts.size() == 3 ? reader.factor(parts[2].substr(1)) : 2.0;
  // from·factor^k computed afresh each time, so rounding does not drift along the sweep.
  for (int k = 0;; ++k) {
    const double exact = static_cast<double>(from) * std::pow(factor, k);
    if (exact > static_cast<double>(to) * (1 + 1e-12)) {
      break;
    }
    const auto value = std::min(to, static_cast<std::int64_t>(std::llround(exact)));
    if (values.empty() || value > values.back()) {
      reader.check_count(values.size());
      values.push_back(value);
    }
  }
  return values;
}

void add_sweep_options(CLI::App& app, SweepOptions& options, std::span<const SweepParam> allowed) {
  const std::size_t first = app.get_options().size();
  app.add_option("--sweep", options.sweep,
                 fmt::format("Step one of {} over FROM:TO (doubling), FROM:TO:STEP or "
                             "FROM:TO:xFACTOR; one row per point",
                             joined(names_of(allowed))))
      ->type_name("PARAM=RANGE")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return text.empty() ? std::string("expected PARAM=FROM:TO[:STEP|xFACTOR], e.g. "
                                              "tokens=256:65536:x2")
                                : std::string();
          },
          ""))
      ->check(shown_choices(parameters_of(allowed)));
  app.add_option("--plot", options.plot,
                 "Chart the sweep into FILE.svg or FILE.png (needs gnuplot: Debian package "
                 "gnuplot-nox)")
      ->type_name("FILE")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return text.empty() ? std::string("give a file name ending in .svg or .png")
                                : std::string();
          },
          ""))
      ->check(output_file("--plot"));
  group_options_from(app, first, "Sweep and chart");
}

std::optional<Sweep> sweep_of(const SweepOptions& options, std::span<const SweepParam> allowed) {
  if (options.sweep.empty()) {
    return std::nullopt;
  }
  return parse_sweep(options.sweep, allowed);
}

} // namespace icx::cli
