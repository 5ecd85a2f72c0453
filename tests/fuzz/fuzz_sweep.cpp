// libFuzzer target for the --sweep parser: any text is accepted or rejected with a message
// naming --sweep; an accepted sweep has between one and max_sweep_points values, ascending
// and distinct, each inside the parameter's bounds.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "icx/base/limits.hpp"
#include "options/common.hpp"
#include "options/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using icx::cli::SweepParam;
  static constexpr std::array<SweepParam, 5> every = {SweepParam::tokens, SweepParam::batch,
                                                      SweepParam::context, SweepParam::gpus,
                                                      SweepParam::size};
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) {
    return 0; // argv strings cannot hold a NUL
  }
  icx::cli::Sweep sweep;
  try {
    sweep = icx::cli::parse_sweep(text, every);
  } catch (const icx::cli::UsageError& error) {
    if (std::string(error.what()).rfind("--sweep ", 0) != 0) {
      __builtin_trap();
    }
    return 0;
  }
  if (sweep.values.empty() || sweep.values.size() > icx::cli::max_points(sweep.param)) {
    __builtin_trap();
  }
  const std::int64_t max = sweep.param == SweepParam::size   ? icx::limits::max_message_bytes
                           : sweep.param == SweepParam::gpus ? icx::limits::max_domain
                                                             : icx::limits::max_tokens;
  std::int64_t last = 0;
  for (const std::int64_t value : sweep.values) {
    if (value <= last || value > max) {
      __builtin_trap();
    }
    last = value;
  }
  return 0;
}
