#!/usr/bin/env python3
"""Fits each GPU's attention curve (data/catalog/gpus.json, "attention") to the measured
attention times of data/measurements/kernels/attention.csv, one layer's kernel per row, and
reports the error on every engine's rows: the default engine's (vllm) are fitted, the others'
(trtllm, sglang) held out.

The model, written independently of icx's C++, for b sequences, h query heads and g KV heads of
width d on one GPU:
  prefill of s tokens (causal, no earlier context), 16-bit:
    FLOPs = 4 b h d s² / 2
    time  = launch + FLOPs / (16-bit dense peak × compute_fraction × s / (s + half_tokens)
                              × d / (d + half_head_dim))
            (short prompts and narrow heads fill the tensor cores less)
  decode, each sequence with c tokens cached in the KV dtype (w bytes):
    bytes = b c g d × 2 (keys and values) × w
    time  = launch + b × sequence_ns + bytes / (HBM bandwidth × memory_fraction)

Usage: python3 tools/fit/fit_attention.py [--check data/catalog/gpus.json]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_fit import catalog_gpus, dtype_bytes, fit_all  # noqa: E402

ROUNDING = {"compute_fraction": 3, "half_tokens": 0, "half_head_dim": 1, "launch_us": 1,
            "memory_fraction": 3, "sequence_ns": 1}
PREFILL = {"params": ["compute_fraction", "half_tokens", "half_head_dim", "launch_us"],
           "start": [0.8, 1000.0, 50.0, 10.0], "steps": [0.05, 500.0, 20.0, 5.0],
           "lower": [0.05, 0.0, 0.0, 0.0], "upper": [1.0, 20000.0, 1000.0, 200.0],
           "rounding": ROUNDING}
DECODE = {"params": ["memory_fraction", "sequence_ns", "launch_us"],
          "start": [0.8, 20.0, 10.0], "steps": [0.05, 10.0, 5.0],
          "lower": [0.05, 0.0, 0.0], "upper": [1.0, 1000.0, 200.0],
          "rounding": ROUNDING}


def predict_prefill(p, row, gpu):
    compute_fraction, half_tokens, half_head_dim, launch_us = p
    b, s, h, d = (float(row[k]) for k in ("batch", "tokens", "heads", "head_dim"))
    flops = 4.0 * b * h * d * s * s / 2
    fraction = compute_fraction * s / (s + half_tokens) * d / (d + half_head_dim)
    return launch_us * 1e-6 + flops / (gpu["dense_tflops"]["bf16"] * 1e12 * fraction)


def predict_decode(p, row, gpu, widths):
    memory_fraction, sequence_ns, launch_us = p
    b, c, g, d = (float(row[k]) for k in ("batch", "context", "kv_heads", "head_dim"))
    moved = b * c * g * d * 2 * widths[row["kv_dtype"]]
    bandwidth = gpu["hbm_bandwidth_GBps"] * 1e9 * memory_fraction
    return launch_us * 1e-6 + b * sequence_ns * 1e-9 + moved / bandwidth


def main():
    gpus, widths = catalog_gpus(), dtype_bytes()

    def curve_for(key):
        gpu = gpus[key[0]]
        if key[1] == "prefill":
            return (lambda p, r: predict_prefill(p, r, gpu)), PREFILL
        return (lambda p, r: predict_decode(p, r, gpu, widths)), DECODE

    return fit_all("attention.csv", ("gpu", "phase"), curve_for, "attention", 0.15)

if __name__ == "__main__":
    sys.exit(main())
