#!/usr/bin/env python3
"""Fits each GPU's GEMM curve per dtype (data/catalog/gpus.json, "gemm") to the measured GEMM
times of data/measurements/kernels/gemm.csv and reports the error on every engine's rows: the
default engine's (vllm) are fitted, the others' (trtllm, sglang) held out.

The model, written independently of icx's C++, for C[m×n] = A[m×k] · W[n×k]ᵀ:
  compute  = 2 m n k / (dense peak × compute_fraction × W / (W + half_weights))
             (W = n k weights, in millions: a narrow GEMM fills fewer of the GPU's units)
  memory   = (n k × w + m k × w + m n × 2) / (HBM bandwidth × memory_fraction)
             (w: bytes per element of the dtype; the output is 16-bit)
  quantise = m k × (2 + w) / (HBM bandwidth × memory_fraction)   below 16 bits: the engine
             quantises the 16-bit activations per call (read 2 bytes, write w)
  time     = max(floor, (compute^knee + memory^knee)^(1/knee)) + launch + quantise
knee blends the two bounds (a large knee is their max); floor is the shortest a kernel of the
dtype takes, launch what every call adds. A block-scaled dtype's rows (TensorRT-LLM's nvfp4 on
the B200) fit the curve of the dtype it computes as (fp4), at the peak of that dtype and their
own bytes per element (scales included), as icx prices them.

Usage: python3 tools/fit/fit_gemm.py [--check data/catalog/gpus.json]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_fit import fit_by_kernel_dtype  # noqa: E402

SPEC = {"params": ["compute_fraction", "half_weights_M", "memory_fraction", "knee", "floor_us",
                   "launch_us"],
        "start": [0.7, 2.0, 0.7, 2.0, 5.0, 2.0], "steps": [0.05, 1.0, 0.05, 0.5, 2.0, 2.0],
        "lower": [0.05, 0.0, 0.05, 1.0, 0.0, 0.0], "upper": [1.0, 100.0, 1.0, 8.0, 50.0, 50.0],
        "rounding": {"compute_fraction": 3, "half_weights_M": 2, "memory_fraction": 3, "knee": 2,
                     "floor_us": 1, "launch_us": 1}}


def predict(p, row, gpu, peak_dtype, width):
    compute_fraction, half_weights_m, memory_fraction, knee, floor_us, launch_us = p
    m, n, k = int(row["m"]), int(row["n"]), int(row["k"])
    peak = gpu["dense_tflops"][peak_dtype] * 1e12
    bandwidth = gpu["hbm_bandwidth_GBps"] * 1e9 * memory_fraction
    weights_m = n * k / 1e6
    compute = 2.0 * m * n * k / (peak * compute_fraction * weights_m / (weights_m + half_weights_m))
    memory = (n * k * width + m * k * width + m * n * 2) / bandwidth
    blended = (compute**knee + memory**knee) ** (1.0 / knee)
    quantise = m * k * (2 + width) / bandwidth if width < 2 else 0.0
    return max(floor_us * 1e-6, blended) + launch_us * 1e-6 + quantise


def main():
    return fit_by_kernel_dtype("gemm.csv", predict, SPEC, "gemm", 0.10)


if __name__ == "__main__":
    sys.exit(main())
