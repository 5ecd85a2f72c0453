// libFuzzer target for the published-offload CSV reader behind `icx validate --offload`: any
// input must either parse or be rejected with an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/reports/offload_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  try {
    const auto rows = icx::parse_offloads_csv(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    (void)icx::check_offloads(catalog, rows);
  } catch (const icx::InputError&) {
  }
  return 0;
}
