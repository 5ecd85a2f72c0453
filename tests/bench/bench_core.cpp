// Google Benchmark: the costs behind one icx run (catalog load, traffic, placement).
#include <benchmark/benchmark.h>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/ranking.hpp"
#include "icx/serving/step_model.hpp"
#include "icx/wire/tensor_parallel.hpp"

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

/// Every layout of a 405B model on 64 H100s (8 per node, InfiniBand between), stepped and
/// ranked: what icx place computes per run and icx tp per wire.
void BM_RankLayouts405bOn64(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Gpu& gpu = catalog.gpu("h100");
  const icx::Dtype& dtype = catalog.dtype("bf16");
  const icx::Cluster cluster{&gpu, 64, 8, 8, &catalog.link("nvlink4"), &catalog.link("ib-ndr"), 8};
  icx::ServingRequest serving;
  serving.tokens = 4096;
  const icx::Workload workload =
      icx::workload_for(catalog, catalog.model("405b"), dtype, gpu,
                        icx::with_default_dtypes(catalog, dtype, serving));
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::rank_layouts(cluster, workload, icx::Objective::latency));
  }
}
BENCHMARK(BM_RankLayouts405bOn64);

/// One layout's step by the measured kernel curves: DeepSeek-V3's decode of 64 sequences at
/// 4096 tokens of context on TP 2 × EP 4 of eight B200s, every operation's term (the GEMMs,
/// the fused-MoE kernel, attention). The target is 5 µs.
void BM_StageWorkDeepSeekDecode(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Gpu& gpu = catalog.gpu("b200");
  const icx::Dtype& dtype = catalog.dtype("fp8");
  icx::ServingRequest serving;
  serving.phase = icx::Phase::decode;
  serving.context = 4096;
  serving.batch = 64;
  const icx::Workload workload =
      icx::workload_for(catalog, catalog.model("deepseek-v3"), dtype, gpu,
                        icx::with_default_dtypes(catalog, dtype, serving));
  const icx::Layout layout{2, 1, 4, 1};
  const icx::StepBatch batch = icx::step_batch(workload, layout, 64);
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::stage_work(gpu, workload, layout, batch));
  }
}
BENCHMARK(BM_StageWorkDeepSeekDecode);

/// Every layout of 70B on 16 H100s (two nodes, InfiniBand between), stepped and ranked: what
/// icx place computes for a 16-GPU cluster. The target is 20 ms.
void BM_RankLayouts70bOn16(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Gpu& gpu = catalog.gpu("h100");
  const icx::Dtype& dtype = catalog.dtype("bf16");
  const icx::Cluster cluster{&gpu, 16, 8, 8, &catalog.link("nvlink4"), &catalog.link("ib-ndr"), 8};
  icx::ServingRequest serving;
  serving.tokens = 4096;
  const icx::Workload workload = icx::workload_for(
      catalog, catalog.model("70b"), dtype, gpu, icx::with_default_dtypes(catalog, dtype, serving));
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::rank_layouts(cluster, workload, icx::Objective::latency));
  }
}
BENCHMARK(BM_RankLayouts70bOn16)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
