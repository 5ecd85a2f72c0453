// Google Benchmark: the costs behind one icx run (catalog load, traffic, placement).
#include <benchmark/benchmark.h>

#include "icx/catalog.hpp"
#include "icx/placement.hpp"
#include "icx/tensor_parallel.hpp"

namespace {

void BM_LoadShippedCatalog(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::Catalog::shipped());
  }
}
BENCHMARK(BM_LoadShippedCatalog);

void BM_TensorParallelAllWires(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Model& model = catalog.model("70b");
  for (auto _ : state) {
    const auto traffic = icx::tensor_parallel_traffic({model.hidden, model.layers, 2.0}, 4096);
    const auto links = icx::fastest_first(catalog.links());
    benchmark::DoNotOptimize(icx::headline_times(traffic.per_pass, links));
  }
}
BENCHMARK(BM_TensorParallelAllWires);

void BM_RecommendAndEvaluateLayout(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Gpu& gpu = catalog.gpu("h100");
  const icx::Dtype& dtype = catalog.dtype("bf16");
  const icx::Model& model = catalog.model("405b");
  const icx::Cluster cluster{&gpu, 64, 8, 8, &catalog.link("nvlink4"), &catalog.link("ib-ndr")};
  const icx::Workload workload{&model, &dtype, 4096,
                               icx::compute_rate(gpu, dtype, catalog.dtypes(), 0.5), 0.2};
  for (auto _ : state) {
    const icx::Layout layout = icx::recommend_layout(cluster, workload);
    benchmark::DoNotOptimize(icx::evaluate_layout(cluster, workload, layout));
  }
}
BENCHMARK(BM_RecommendAndEvaluateLayout);

} // namespace

BENCHMARK_MAIN();
