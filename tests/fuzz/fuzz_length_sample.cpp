// libFuzzer target for the request-length sample reader behind `--lengths sharegpt`: any input
// must either parse into positive, finite fractions of its means or be rejected with an
// InputError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/serving/length_sample.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto pairs = icx::parse_length_sample(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    for (const icx::LengthPair& pair : pairs) {
      if (!(std::isfinite(pair.input) && pair.input > 0 && std::isfinite(pair.output) &&
            pair.output > 0)) {
        std::abort();
      }
    }
  } catch (const icx::InputError&) {
  }
  return 0;
}
