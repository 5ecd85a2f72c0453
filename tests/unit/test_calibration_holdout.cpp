// Calibration against published sweeps: fit every other size of a measured all-reduce sweep
// and predict the sizes left out, held to the bounds `icx validate` uses. Each sweep ran one
// NCCL (or RCCL) version with its own algorithm and protocol switches, so the sizes left out
// sit on both sides of those switches.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/measured/calibration.hpp"
#include "icx/measured/collective_validation.hpp"
#include "icx/wire/collectives.hpp"

namespace icx::unit_calibration_holdout {
namespace {

std::vector<MeasuredCollective> published_rows() {
  const std::string path = std::string(ICX_MEASUREMENTS_DIR) + "/collectives_extra.csv";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_measurements_csv(text.str(), path);
}

/// One sweep: the rows of one hardware's ring all-reduce that the model is held to, by size.
std::vector<MeasuredCollective> sweep(const std::string& hardware) {
  std::vector<MeasuredCollective> rows;
  for (const MeasuredCollective& m : published_rows()) {
    if (m.hardware == hardware && m.use != "outside" && m.op == Collective::all_reduce) {
      rows.push_back(m);
    }
  }
  std::ranges::sort(rows, {}, [](const MeasuredCollective& m) { return m.size.value(); });
  return rows;
}

struct HoldOut {
  double worst_over_bound = 0; // largest |error| / bound over the sizes left out
  int regimes = 0;
  std::size_t predicted = 0;
};

/// Fits the even-indexed sizes of `hardware`'s sweep on `link_id` and predicts the odd ones.
HoldOut fit_even_predict_odd(const std::string& hardware, const std::string& link_id) {
  const Catalog catalog = Catalog::shipped();
  const Link& link = catalog.link(link_id);
  const std::vector<MeasuredCollective> rows = sweep(hardware);
  std::vector<TimedSample> fitted;
  for (std::size_t i = 0; i < rows.size(); i += 2) {
    fitted.push_back({rows[i].size, rows[i].time});
  }
  const int gpus = rows.front().gpus;
  const CalibrationResult fit =
      calibrate(link, *link.expected, Collective::all_reduce, Algorithm::ring, gpus, fitted);
  HoldOut result;
  result.regimes = fit.regimes;
  for (std::size_t i = 1; i < rows.size(); i += 2) {
    const MeasuredCollective& m = rows[i];
    const CollectiveRequest request{Collective::all_reduce, Algorithm::ring, gpus, m.size, {}};
    const Seconds predicted = expected_time(link, fit.model, request);
    const AccuracyBound bound = accuracy_bound(m.size);
    // busbw is S / time times a constant: its error is measured / predicted time - 1.
    const double error =
        bound.metric == Metric::busbw ? m.time / predicted - 1.0 : predicted / m.time - 1.0;
    result.worst_over_bound = std::max(result.worst_over_bound, std::abs(error) / bound.tolerance);
    ++result.predicted;
  }
  return result;
}

TEST(CalibrationHoldOut, A100SweepPredictsTheSizesItDidNotSee) {
  const HoldOut h = fit_even_predict_odd("8xA100-SXM4-80GB (Azure ND A100 v4)", "nvlink3");
  EXPECT_GE(h.predicted, 10U);
  EXPECT_EQ(h.regimes, 2); // LL below ~1 MiB, Simple above: the sweep shows both
  EXPECT_LT(h.worst_over_bound, 1.0);
}

TEST(CalibrationHoldOut, Gb200SweepPredictsTheSizesItDidNotSee) {
  const HoldOut h = fit_even_predict_odd("4xGB200 (Azure ND GB200 v6)", "nvlink5");
  EXPECT_GE(h.predicted, 10U);
  EXPECT_LT(h.worst_over_bound, 1.0);
}

TEST(CalibrationHoldOut, Mi300xSweepPredictsTheSizesItDidNotSee) {
  const HoldOut h = fit_even_predict_odd("8xMI300X (Azure ND MI300X v5)", "infinity-fabric");
  EXPECT_GE(h.predicted, 10U);
  EXPECT_LT(h.worst_over_bound, 1.0);
}

} // namespace
} // namespace icx::unit_calibration_holdout
