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

/// The default plan: every layout near the best simulated, 1,000 requests each, targets at
/// the p99 TTFT and mean TPOT, at 5 requests/s (open loop) and at 64 clients (closed).
icx::Traffic simulated(icx::Arrivals arrivals) {
  icx::Traffic t;
  t.arrivals = arrivals;
  t.rate = 5;
  t.concurrency = 64;
  t.input = {icx::LengthShape::fixed, 2048, 0};
  t.output = {icx::LengthShape::fixed, 256, 0};
  t.requests = 1000;
  t.warmup = 100;
  t.seed = 1;
  return t;
}

void BM_PlanWholeCatalog70bSimulated(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  icx::PlanRequest request = whole_catalog(catalog, "70b", "bf16", 0.05);
  request.traffic = simulated(static_cast<icx::Arrivals>(state.range(0)));
  if (request.traffic->arrivals == icx::Arrivals::closed) {
    request.load.rate = 0;
  }
  request.targets.ttft_statistic = icx::Statistic::p99;
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::plan(catalog, request));
  }
}
BENCHMARK(BM_PlanWholeCatalog70bSimulated)
    ->Arg(static_cast<int>(icx::Arrivals::poisson))
    ->Arg(static_cast<int>(icx::Arrivals::closed))
    ->Unit(benchmark::kMillisecond);

} // namespace
