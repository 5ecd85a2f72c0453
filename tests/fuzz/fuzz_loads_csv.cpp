// libFuzzer target for the published-loads CSV reader behind `icx validate --loads`: any input
// must either parse or be rejected with an InputError (LookupError for an unknown host link,
// storage tier or loader is one).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/loading_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  try {
    const auto rows = icx::parse_loads_csv(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    (void)icx::check_loads(catalog, rows);
  } catch (const icx::InputError&) {
  }
  return 0;
}
