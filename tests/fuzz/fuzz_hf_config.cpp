// libFuzzer target for the Hugging Face config reader: any input must either give a model
// whose parameter counts are finite, positive and ordered, or be rejected with a
// CatalogError; any other exception, crash or sanitizer report is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "icx/base/error.hpp"
#include "icx/catalog/hf_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const icx::Model model = icx::read_hf_config(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!std::isfinite(model.total_params) || model.active_params <= 0 ||
        model.active_params > model.total_params) {
      std::abort();
    }
  } catch (const icx::CatalogError&) {
  }
  return 0;
}
