// libFuzzer target for the serving benchmark result reader behind `icx validate --serving`
// (vllm bench serve JSON, SGLang bench_serving JSONL, genai-perf's export): any input must
// either parse or be rejected with an InputError. A small parsed run is also simulated on one
// H100, as the command would.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/serving_run.hpp"
#include "icx/reports/serving_validation.hpp"

namespace {

/// Runs small enough to simulate within the fuzzer's time per input.
constexpr std::int64_t most_requests = 16;
constexpr double most_tokens = 4096;

icx::ServingValidationRequest one_h100(const icx::Catalog& catalog) {
  icx::ServingValidationRequest r;
  r.place.model = &catalog.model("8b");
  r.place.dtype = &catalog.dtype("bf16");
  r.place.serving = icx::with_default_dtypes(catalog, *r.place.dtype, r.place.serving);
  r.place.cluster = {&catalog.gpu("h100-sxm"), 1, 8, 8, &catalog.link("nvlink4"), nullptr, 8};
  return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const icx::Catalog catalog = icx::Catalog::shipped();
  static const icx::ServingValidationRequest request = one_h100(catalog);
  try {
    const std::vector<icx::ServingRun> runs = icx::parse_serving_runs(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    std::vector<icx::ServingRun> small;
    for (const icx::ServingRun& run : runs) {
      if (run.completed.value_or(most_requests + 1) <= most_requests &&
          run.input_tokens + run.output_tokens <= most_tokens) {
        small.push_back(run);
      }
    }
    (void)icx::validate_serving(catalog, request, small);
  } catch (const icx::InputError&) {
  }
  return 0;
}
