// The check every shipped kernel curve passes against its measured rows: median |error| per
// curve and engine, the fitted engine's rows within one bound and the held-out engines' within
// a looser one, each printed so a run shows both.
#pragma once

#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "icx/catalog/catalog.hpp"
#include "icx/util/statistics.hpp"

namespace icx::test {

/// |predicted / measured − 1| of each row, keyed by (curve, engine).
using KernelErrors = std::map<std::pair<std::string, std::string>, std::vector<double>>;

/// The engine whose rows the curves were fitted to (tools/fit/kernel_fit.py FITTED_ENGINE).
inline const std::string fitted_engine = "vllm";

/// The engine a row's error is kept under: its own, or for a GPU that borrows its curves
/// (curves_from) "vllm on h100-sxm's curves", a held-out check of that assumption.
inline std::string engine_label(const Gpu& gpu, const std::string& engine) {
  return gpu.curves_from.empty() ? engine : engine + " on " + gpu.curves_from + "'s curves";
}

inline void expect_fit_and_held_out(const KernelErrors& errors, double fit_bound,
                                    double held_out_bound) {
  for (const auto& [key, e] : errors) {
    const bool fitted = key.second == fitted_engine;
    const double median = detail::median(e);
    std::cout << key.first << " " << key.second << (fitted ? " (fit)" : " (held out)")
              << ": median |error| " << median * 100 << " %\n";
    EXPECT_LE(median, fitted ? fit_bound : held_out_bound) << key.first << " " << key.second;
  }
}

} // namespace icx::test
