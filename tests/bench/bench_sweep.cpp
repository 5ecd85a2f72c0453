// Google Benchmark: sweeps of 1,000 points, the most a sweep may have, built and rendered as
// the CLI answers them (the target: under 100 ms for one wire, under a second for every wire).
// The catalog is loaded and resolved once, outside the timed loop, as icx does once per run;
// only the swept field changes per point.
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/collective.hpp"
#include "icx/reports/tp.hpp"
#include "options/common.hpp"
#include "options/serving.hpp"
#include "options/sweep.hpp"
#include "sweeps/tp.hpp"

namespace {

using namespace icx;      // NOLINT(google-build-using-namespace): a benchmark file
using namespace icx::cli; // NOLINT(google-build-using-namespace)

/// Each row written as JSON and dropped, as a streamed --json sweep does.
class JsonRowsSink final : public SweepSink {
public:
  void start(Json /*head*/, std::vector<Column> /*columns*/, RowKeys /*keys*/) override {}
  void add(const Json& row, std::vector<std::string> /*cells*/) override {
    benchmark::DoNotOptimize(row.dump());
  }
  [[nodiscard]] bool tabulating() const override { return false; }
  [[nodiscard]] bool charting() const override { return false; }
};

/// icx tp --model 70b --wire WIRES --sweep tokens=1:1000:1 --json, without the printing.
void BM_TpSweep1000Points(benchmark::State& state, const std::vector<std::string>& ids) {
  const Catalog catalog = Catalog::shipped();
  ModelOptions model_options;
  model_options.model = "70b";
  const ResolvedModel model = resolve_model(catalog, model_options);
  ServingOptions flags; // icx tp's defaults: a prefill, vLLM's all-reduce dispatch
  flags.setup.impl = to_string(Implementation::vllm);
  const ServingRequest serving =
      with_default_dtypes(catalog, model.dtype, serving_request(catalog, flags, std::nullopt));
  TpRequest request = tp_request_for(model.model, model.dtype, *serving.act_dtype);
  request.serving = serving;
  std::vector<const Link*> links;
  for (const std::string& id : ids) {
    links.push_back(&catalog.link(id));
  }
  if (ids.empty()) { // icx tp without --wire: every wire between GPUs
    for (const Link& link : catalog.links()) {
      links.push_back(&link);
    }
  }
  const WireChoice wires = wires_for_group(nullptr, std::nullopt, links);
  const Sweep sweep = parse_sweep("tokens=1:1000:1", tp_sweep_params);
  for (auto _ : state) {
    JsonRowsSink out;
    benchmark::DoNotOptimize(tp_sweep(catalog, request, wires, sweep, out));
  }
  state.counters["points"] = static_cast<double>(sweep.values.size());
}
BENCHMARK_CAPTURE(BM_TpSweep1000Points, one_wire, std::vector<std::string>{"nvlink4"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TpSweep1000Points, three_wires,
                  std::vector<std::string>{"nvlink4", "pcie5", "ib-ndr"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TpSweep1000Points, every_wire, std::vector<std::string>{})
    ->Unit(benchmark::kMillisecond);

/// icx collective all-reduce --size 1KiB:1000KiB:1KiB --gpus 8 --wire nvlink4 --json.
void BM_CollectiveSweep1000Sizes(benchmark::State& state) {
  const Catalog catalog = Catalog::shipped();
  const Link& link = catalog.link("nvlink4");
  CollectiveReportRequest request{Collective::all_reduce, Algorithm::automatic, 8, {}, {}};
  for (const std::int64_t size : sweep_values(SweepParam::size, "1KiB:1000KiB:1KiB", "--size")) {
    request.sizes.push_back(Bytes::of(static_cast<double>(size)));
  }
  for (auto _ : state) {
    const Json document = collective_report(link, request);
    benchmark::DoNotOptimize(document.dump());
  }
  state.counters["points"] = static_cast<double>(request.sizes.size());
}
BENCHMARK(BM_CollectiveSweep1000Sizes)->Unit(benchmark::kMillisecond);

} // namespace
