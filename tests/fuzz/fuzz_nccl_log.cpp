// libFuzzer target for the nccl-tests log reader: any input must either parse or be rejected
// with an InputError; any other exception, crash or sanitizer report is a bug. A parsed log is
// also fitted, as `icx calibrate` would.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/calibration.hpp"
#include "icx/measured/nccl_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  try {
    const icx::NcclTestLog log = icx::parse_nccl_test_log(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.log");
    // A fit of the first rows only: the reader is the target, the fit must just not crash.
    constexpr std::size_t max_fitted_rows = 8;
    std::vector<icx::TimedSample> samples;
    for (const icx::NcclTestRow& row : log.rows) {
      if (samples.size() < max_fitted_rows) {
        samples.push_back({row.size, row.mean_time()});
      }
    }
    const icx::Link& link = catalog.link("nvlink4");
    const int gpus = log.ranks && *log.ranks >= 2 ? *log.ranks : 8;
    (void)icx::calibrate(link, *link.expected, icx::Collective::all_reduce, icx::Algorithm::ring,
                         gpus, samples);
  } catch (const icx::InputError&) {
  }
  return 0;
}
