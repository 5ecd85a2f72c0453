// icx plan over the whole shipped catalog: every system, one to four nodes, every layout
// under the load (the target: well under a second on one core).
#include <benchmark/benchmark.h>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/plan.hpp"

namespace {

/// `model` in `dtype` at 5 requests/s of 2048 + 256 tokens, TTFT ≤ 2 s and TPOT ≤ `tpot`, on
/// every shipped system.
icx::PlanRequest whole_catalog(const icx::Catalog& catalog, const char* model, const char* dtype,
                               double tpot) {
  icx::PlanRequest r;
  r.model = &catalog.model(model);
  r.dtype = &catalog.dtype(dtype);
  r.serving = icx::with_default_dtypes(catalog, *r.dtype, r.serving);
  r.load = {5, 2048, 256};
  r.targets = {icx::Seconds::of(2), icx::Seconds::of(tpot)};
  for (const icx::System& system : catalog.systems()) {
    r.systems.push_back(&system);
  }
  return r;
}

void BM_PlanWholeCatalog70b(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::PlanRequest request = whole_catalog(catalog, "70b", "bf16", 0.05);
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::plan(catalog, request));
  }
}
BENCHMARK(BM_PlanWholeCatalog70b)->Unit(benchmark::kMillisecond);

/// The worst case: a target nothing meets, so every system tries every node count.
void BM_PlanWholeCatalogDeepSeekUnmet(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::PlanRequest request = whole_catalog(catalog, "deepseek-v3", "fp8", 1e-4);
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::plan(catalog, request));
  }
}
BENCHMARK(BM_PlanWholeCatalogDeepSeekUnmet)->Unit(benchmark::kMillisecond);

} // namespace
