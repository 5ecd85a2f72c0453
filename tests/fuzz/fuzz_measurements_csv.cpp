// libFuzzer target for the published-measurements CSV reader behind `icx validate`: any input
// must either parse or be rejected with an InputError (LookupError for an unknown wire is one).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/collective_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  try {
    const auto rows = icx::parse_measurements_csv(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    (void)icx::check_accuracy(catalog, rows);
  } catch (const icx::InputError&) {
  }
  return 0;
}
