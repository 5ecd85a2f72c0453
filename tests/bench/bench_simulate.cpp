// Google Benchmark: the serving simulation (icx/serving/simulate.hpp), whose target is 10,000
// requests in 20 ms so that place and plan can search over it.
#include <benchmark/benchmark.h>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/engine.hpp"
#include "icx/serving/simulation_costs.hpp"

namespace {

/// Llama 3.1 70B in BF16 with TP 8 on eight H100s under vLLM, 1,024-token prompts and 256
/// output tokens: the cluster, the load and its workloads.
struct Setup {
  icx::Catalog catalog = icx::Catalog::shipped();
  const icx::Gpu& gpu = catalog.gpu("h100");
  const icx::Dtype& dtype = catalog.dtype("bf16");
  const icx::Cluster cluster{&gpu, 8, 8, 8, &catalog.link("nvlink4"), &catalog.link("ib-ndr"), 8};
  const icx::Engine& engine = catalog.engine("vllm");
  const icx::Load load{0, 1024, 256, icx::scheduler_tier(engine, gpu).prefill_chunk};
  const icx::LoadWorkloads workloads =
      icx::load_workloads(catalog, catalog.model("70b"), dtype, gpu,
                          icx::with_default_dtypes(catalog, dtype, icx::ServingRequest{}), load);
  const icx::Layout layout{8, 1, 1, 1};
};

/// 10,000 requests of 64 clients, lengths uniform within 20 % of 1,024 prompt and 256 output
/// tokens, on Llama 3.1 70B with TP 8 on eight H100s under vLLM: the replica's costs from the
/// step model once, then the simulation.
void BM_Simulate10kRequests70bTp8(benchmark::State& state) {
  const Setup setup;
  const icx::ReplicaModel replica = icx::replica_model(setup.cluster, setup.workloads, setup.layout,
                                                       setup.load, setup.engine.policy);
  icx::Traffic traffic;
  traffic.arrivals = icx::Arrivals::closed;
  traffic.concurrency = 64;
  traffic.input = {icx::LengthShape::uniform, 1024, 0.2};
  traffic.output = {icx::LengthShape::uniform, 256, 0.2};
  traffic.requests = 10'000;
  traffic.warmup = 1'000;
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::simulate(replica.costs, replica.limits, traffic));
  }
}
BENCHMARK(BM_Simulate10kRequests70bTp8)->Unit(benchmark::kMillisecond);

/// What place --concurrency adds to a run: the replica's costs from the step model (a dozen
/// decode steps and two prefills), without the simulation.
void BM_ReplicaModel70bTp8(benchmark::State& state) {
  const Setup setup;
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::replica_model(setup.cluster, setup.workloads, setup.layout,
                                                setup.load, setup.engine.policy));
  }
}
BENCHMARK(BM_ReplicaModel70bTp8)->Unit(benchmark::kMicrosecond);

} // namespace
