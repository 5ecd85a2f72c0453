// Google Benchmark: icx at its documented input limits (docs/output.md), with the inputs
// generated here: a --catalog overlay and a measurements CSV just under their size limits, and
// a plan that meets nothing at the most nodes --max-nodes accepts. tests/bench/limits_bench.sh
// times the same cases through the binary, with their peak memory.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "icx/base/limits.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/reports/plan.hpp"
#include "icx/reports/validation.hpp"
#include "options/load.hpp"

namespace {

/// A dtypes overlay of as many short entries as fit under the catalog file limit.
std::string largest_overlay() {
  std::string text = R"({"dtypes": [)";
  const std::size_t limit = icx::limits::max_catalog_file_bytes - 100;
  for (int i = 0; text.size() < limit; ++i) {
    text += i > 0 ? "," : "";
    text += R"({"id":"d)";
    text += std::to_string(i);
    text += R"(","name":"D","source":"s","bytes_per_element":2})";
  }
  text += "]}";
  return text;
}

void BM_OverlayCatalogAtItsLimit(benchmark::State& state) {
  const icx::Catalog shipped = icx::Catalog::shipped();
  const std::string overlay = largest_overlay();
  for (auto _ : state) {
    icx::Catalog catalog = shipped;
    catalog.overlay_text(overlay, "many.json");
    benchmark::DoNotOptimize(catalog.dtype("d0"));
  }
  state.counters["bytes"] = static_cast<double>(overlay.size());
}
BENCHMARK(BM_OverlayCatalogAtItsLimit)->Unit(benchmark::kMillisecond);

/// A measurements CSV just under its limit: one row on each link kind, repeated.
std::string largest_measurements() {
  const std::vector<std::string> rows{
      "8xA100-SXM,nvlink3,8,1,all-reduce,ring,134217728,1327.6,176.92,s",
      "8xH100-SXM,nvlink4,8,1,all-reduce,ring,1073741824,,360,s",
      "2xH100,ib-ndr,16,2,all-reduce,ring,4194304,180,,s"};
  std::string text = "hardware,link,gpus,nodes,op,algo,size_bytes,time_us,busbw_GBps,source\n";
  for (std::size_t i = 0; text.size() + 100 < icx::limits::max_measurements_file_bytes; ++i) {
    text += rows[i % rows.size()];
    text += "\n";
  }
  return text;
}

void BM_ValidateCsvAtItsLimit(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  const std::string text = largest_measurements();
  const std::vector<icx::MeasurementFile> files{{"rows.csv", text}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::Json(icx::validation_report(catalog, files)).dump());
  }
  state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_ValidateCsvAtItsLimit)->Unit(benchmark::kMillisecond);

/// icx plan --model 405b --ttft 10ms --tpot 1ms --rate 1000 --max-nodes MAX: a target nothing
/// meets, so every shipped system tries every node count up to the limit.
void BM_PlanUnmetAtMaxNodes(benchmark::State& state) {
  const icx::Catalog catalog = icx::Catalog::shipped();
  icx::PlanRequest r;
  r.model = &catalog.model("405b");
  r.dtype = &catalog.dtype(r.model->default_dtype);
  r.serving = icx::with_default_dtypes(catalog, *r.dtype, r.serving);
  r.load = {1000, icx::cli::default_load_input, icx::cli::default_load_output};
  r.targets = {icx::Seconds::of(10e-3), icx::Seconds::of(1e-3)};
  r.max_nodes = icx::limits::max_plan_nodes;
  for (const icx::System& system : catalog.systems()) {
    r.systems.push_back(&system);
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(icx::plan(catalog, r));
  }
}
BENCHMARK(BM_PlanUnmetAtMaxNodes)->Unit(benchmark::kMillisecond);

} // namespace
