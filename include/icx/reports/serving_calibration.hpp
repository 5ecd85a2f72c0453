// Fitting a serving engine's own costs (its time per step and per request, catalog engines'
// "costs") to a user's benchmark runs (icx/measured/serving_run.hpp), so that the simulation
// of those runs on the user's setup meets them; the result is a catalog overlay of the engine.
#pragma once

#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/measured/serving_run.hpp"
#include "icx/reports/serving_validation.hpp"

namespace icx {

struct ServingCalibration {
  /// The engine fitted (the request's, else the default) with its catalog costs, and with the
  /// fitted ones: its time per step and per request and its prompt scale; per layer kept.
  Engine engine;
  EngineCosts before;
  EngineCosts fitted;
  /// The runs against the simulation with the catalog's costs, and with the fitted ones.
  ServingValidation before_check;
  ServingValidation after_check;
  /// Over the fitted figures (each run's central TTFT and TPOT: the mean, else the median),
  /// with the fitted costs.
  double median_abs_error = 0;
  double worst_abs_error = 0;
  /// Why the fit misses its bounds (fit_bounds: median and worst |error|), or empty.
  std::string misses;
};

/// Fits the engine's per-step time to the runs' TPOT, its prompt scale to their TTFT and TPOT
/// together (a prompt's cost shows in both) and its per-request time to their TTFT, each by
/// golden-section search of the summed squared log error over its range (the scale's on a log
/// scale), the three in turn, every run simulated as validate_serving does. Throws InputError
/// as it does.
ServingCalibration calibrate_serving(const Catalog& catalog,
                                     const ServingValidationRequest& request,
                                     std::span<const ServingRun> runs);

/// {"engines": [the engine's catalog entry with the fitted costs]}: a --catalog file.
nlohmann::ordered_json serving_overlay(const ServingCalibration& calibration);

/// The "icx.serving-calibration/1" document: engine, before and fitted costs (µs), the
/// median and worst |error|, misses, and the runs before and after.
void to_json(Json& json, const ServingCalibration& calibration);

} // namespace icx
