#!/usr/bin/env python3
"""Fits each GPU's GEMM curve per dtype (data/catalog/gpus.json, "gemm") to the measured GEMM
times of data/measurements/kernels/gemm.csv and reports the error on every engine's rows: the
default engine's (vllm) are fitted, the others' (trtllm, sglang) held out.

The model, written independently of icx's C++, for C[m×n] = A[m×k] · W[n×k]ᵀ:
  compute  = 2 m n k / (dense peak × compute_fraction × W / (W + half_weights))
             (W = n k weights, in millions: a narrow GEMM fills fewer of the GPU's units)
  memory   = (n k × w + m k × w + m n × 2) / (HBM bandwidth × memory_fraction)
             (w: bytes per element of the dtype; the output is 16-bit)
  quantise = m k × 3 / (HBM bandwidth × memory_fraction)   fp8 only: the engine quantises
             the 16-bit activations per call (read 2 bytes, write 1)
  time     = max(floor, (compute^knee + memory^knee)^(1/knee)) + launch + quantise
knee blends the two bounds (a large knee is their max); floor is the shortest a kernel of the
dtype takes, launch what every call adds.

Usage: python3 tools/fit/fit_gemm.py [--check data/catalog/gpus.json]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_fit import (FITTED_ENGINE, catalog_gpus, dtype_bytes, finish, kernel_rows,  # noqa: E402
                        log_loss, median_error, pattern_search)

PARAMS = ["compute_fraction", "half_weights_M", "memory_fraction", "knee", "floor_us", "launch_us"]
START = [0.7, 2.0, 0.7, 2.0, 5.0, 2.0]
STEPS = [0.05, 1.0, 0.05, 0.5, 2.0, 2.0]
LOWER = [0.05, 0.0, 0.05, 1.0, 0.0, 0.0]
UPPER = [1.0, 100.0, 1.0, 8.0, 50.0, 50.0]


def predict(p, row, gpu, width):
    compute_fraction, half_weights_m, memory_fraction, knee, floor_us, launch_us = p
    m, n, k = int(row["m"]), int(row["n"]), int(row["k"])
    peak = gpu["dense_tflops"][row["dtype"]] * 1e12
    bandwidth = gpu["hbm_bandwidth_GBps"] * 1e9 * memory_fraction
    weights_m = n * k / 1e6
    compute = 2.0 * m * n * k / (peak * compute_fraction * weights_m / (weights_m + half_weights_m))
    memory = (n * k * width + m * k * width + m * n * 2) / bandwidth
    blended = (compute**knee + memory**knee) ** (1.0 / knee)
    quantise = m * k * 3 / bandwidth if width < 2 else 0.0
    return max(floor_us * 1e-6, blended) + launch_us * 1e-6 + quantise


def rounded(p):
    return {"compute_fraction": round(p[0], 3), "half_weights_M": round(p[1], 2),
            "memory_fraction": round(p[2], 3), "knee": round(p[3], 2), "floor_us": round(p[4], 1),
            "launch_us": round(p[5], 1)}


def main():
    gpus, widths, data = catalog_gpus(), dtype_bytes(), kernel_rows("gemm.csv")
    fitted, worst = {}, 0.0
    print(f"{'gpu':10} {'dtype':5} {'rows':>11} {'median |error|':>14}  held-out rows (engines)")
    for key in sorted({(r["gpu"], r["dtype"]) for r in data}):
        gpu, width = gpus[key[0]], widths[key[1]]
        mine = [r for r in data if (r["gpu"], r["dtype"]) == key]
        fit_rows = [r for r in mine if r["engine"] == FITTED_ENGINE]
        held = [r for r in mine if r["engine"] != FITTED_ENGINE]
        model = lambda p, r: predict(p, r, gpu, width)  # noqa: E731
        p = pattern_search(lambda q: log_loss(model, q, fit_rows), START, STEPS, LOWER, UPPER)
        fitted[key] = rounded(p)
        p = [fitted[key][name] for name in PARAMS]
        fit_error = median_error(model, p, fit_rows)
        held_error = median_error(model, p, held)
        worst = max(worst, fit_error)
        print(f"{key[0]:10} {key[1]:5} {len(fit_rows):5} fit {fit_error:13.1%}  "
              f"{len(held)} held out: {held_error:.1%} ({', '.join(sorted({r['engine'] for r in held}))})")
        print("           " + json.dumps(fitted[key]))
    return finish(fitted, "gemm", worst, 0.10)


if __name__ == "__main__":
    sys.exit(main())
