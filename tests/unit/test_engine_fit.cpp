// The shipped engine costs against the published serving runs they were fitted to
// (data/measurements/serving.csv, use=fit; tools/fit/fit_engines.py): a concurrency-1 decode
// step and prompt on each run's GPUs, kernels and collectives by icx, plus the engine's costs.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/step_model.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_engine_fit {
namespace {

// Columns of serving.csv (its first ones hold no commas; the quoted source comes last).
enum Column {
  engine,
  version,
  gpu,
  gpus,
  tp,
  ep,
  model,
  dtype,
  input,
  output,
  concurrency,
  batch,
  ttft_ms,
  tpot_ms
};
constexpr int use_column = 18;
constexpr int tuning_column = 21;

double median(std::vector<double> values) {
  std::ranges::sort(values);
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// TTFT or TPOT of one sequence on the row's GPUs, in seconds.
double predicted(const Catalog& catalog, const std::vector<std::string>& row, Phase phase) {
  const Gpu& g = catalog.gpu(row[gpu]);
  const int n = std::stoi(row[gpus]);
  ServingRequest r;
  r.phase = phase;
  r.tokens = std::stoll(row[input]);
  r.context = std::stoll(row[input]) + std::stoll(row[output]) / 2;
  r.engine = &catalog.engine(row[engine]);
  r.batch = 1;
  r.setup.implementation = Implementation::vllm;
  r.tuning = row[tuning_column]; // the GPU setup the run had, where its GPU has tunings
  const Workload w =
      workload_for(catalog, catalog.model(row[model]), catalog.dtype(row[dtype]), g, r);
  const Cluster cluster{&g, n, n, n, &catalog.link(g.scale_up_link), &catalog.link("ib-ndr"), n};
  return evaluate_layout(cluster, w, {std::stoi(row[tp]), 1, 1, 1}).step.latency.value();
}

/// |error| of icx's one-sequence TPOT and TTFT on the one-client rows of serving.csv that
/// `engine_id` (empty: any) ran on `gpu_id` (empty: any) with `use`.
struct Errors {
  std::vector<double> tpot;
  std::vector<double> ttft;
};
Errors one_client_errors(const Catalog& catalog, const std::string& engine_id,
                         const std::string& gpu_id, const std::string& use) {
  Errors errors;
  for (const std::vector<std::string>& row : test::measurement_rows("serving.csv")) {
    if ((!engine_id.empty() && row[engine] != engine_id) ||
        (!gpu_id.empty() && row[gpu] != gpu_id) || row[use_column] != use ||
        row[concurrency] != "1") {
      continue;
    }
    SCOPED_TRACE(row[gpu] + " " + row[model] + " TP " + row[tp] + " " + row[input]);
    errors.tpot.push_back(
        std::abs(predicted(catalog, row, Phase::decode) / (std::stod(row[tpot_ms]) / 1e3) - 1));
    errors.ttft.push_back(
        std::abs(predicted(catalog, row, Phase::prefill) / (std::stod(row[ttft_ms]) / 1e3) - 1));
  }
  return errors;
}

TEST(EngineFit, VllmCostsReproduceTheRunsTheyWereFittedTo) {
  // The fit (tools/fit/fit_engines.py) reaches a median |error| of 2.1 % on TPOT and 6.1 % on
  // TTFT over these 11 runs; the bounds leave room for rounding the costs, not for drift. The
  // same source's runs of 64 clients, which the per-sequence cost was fitted to
  // (tools/fit/fit_sequence_cost.py), are closed loops and not priced here.
  const Errors errors = one_client_errors(Catalog::shipped(), "vllm", "", "fit");
  ASSERT_EQ(errors.tpot.size(), 11U);
  EXPECT_LT(median(errors.tpot), 0.05);
  EXPECT_LT(median(errors.ttft), 0.10);
}

TEST(EngineFit, Mi300xStockTuningReproducesTheRunsItWasFittedTo) {
  // The MI300X's stock tuning (data/catalog/gpus.json) was fitted on Herdora chipbenchmark's
  // MI300X runs (use=fit-tuning): its median |error| there is 6.7 % on TPOT and 11.2 % on TTFT
  // over every such row (tools/fit/fit_engines.py --gpu mi300x); these are its 14 one-client
  // runs, priced one sequence at a time. At the GPU's own catalog figures (the tuned setup) the
  // same runs come out about 45 % fast.
  const Errors errors = one_client_errors(Catalog::shipped(), "vllm", "mi300x", "fit-tuning");
  ASSERT_EQ(errors.tpot.size(), 14U);
  EXPECT_LT(median(errors.tpot), 0.10);
  EXPECT_LT(median(errors.ttft), 0.15);
}

} // namespace
} // namespace icx::unit_engine_fit
