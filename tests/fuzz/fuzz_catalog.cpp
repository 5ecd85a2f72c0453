// libFuzzer target for the catalog reader: any input must either load or be rejected with a
// CatalogError (an engine's all-reduce name, checked where it is used, with an InputError);
// any other exception, crash or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/engine.hpp"
#include "icx/util/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog shipped = icx::Catalog::shipped();
  icx::Catalog catalog = shipped;
  try {
    catalog.overlay_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    for (const icx::Link& link : catalog.links()) {
      (void)catalog.link(link.id);
    }
  } catch (const icx::CatalogError&) {
    return 0;
  }
  for (const icx::Engine& engine : catalog.engines()) {
    for (const icx::Gpu& gpu : catalog.gpus()) {
      (void)icx::scheduler_tier(engine, gpu);
    }
    try {
      (void)icx::engine_implementation(engine);
    } catch (const icx::InputError&) {
    }
  }
  return 0;
}
