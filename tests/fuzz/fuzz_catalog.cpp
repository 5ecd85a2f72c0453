// libFuzzer target for the catalog reader: any input must either load or be rejected with a
// CatalogError; any other exception, crash or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog shipped = icx::Catalog::shipped();
  icx::Catalog catalog = shipped;
  try {
    catalog.overlay_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    for (const icx::Link& link : catalog.links()) {
      (void)catalog.link(link.id);
    }
  } catch (const icx::CatalogError&) {
  }
  return 0;
}
