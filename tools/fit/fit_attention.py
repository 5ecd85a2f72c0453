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
    time  = launch + b h × head_ns + bytes / (HBM bandwidth × memory_fraction × scale)
            (head_ns: what each sequence's query head costs beyond its reads; scale is
             fp8_cache_scale for an 8-bit cache, which the kernel dequantises, else 1; a GPU
             without 8-bit rows keeps 1)

Usage: python3 tools/fit/fit_attention.py [--check data/catalog/gpus.json]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_fit import catalog_gpus, dtype_bytes, fit_all, kernel_rows  # noqa: E402

ROUNDING = {"compute_fraction": 3, "half_tokens": 0, "half_head_dim": 1, "launch_us": 1,
            "memory_fraction": 3, "head_ns": 2, "fp8_cache_scale": 3}
PREFILL = {"params": ["compute_fraction", "half_tokens", "half_head_dim", "launch_us"],
           "start": [0.8, 1000.0, 50.0, 10.0], "steps": [0.05, 500.0, 20.0, 5.0],
           "lower": [0.05, 0.0, 0.0, 0.0], "upper": [1.0, 20000.0, 1000.0, 200.0],
           "rounding": ROUNDING}
DECODE = {"params": ["memory_fraction", "head_ns", "launch_us", "fp8_cache_scale"],
          "start": [0.8, 2.0, 10.0, 0.7], "steps": [0.05, 1.0, 5.0, 0.1],
          "lower": [0.05, 0.0, 0.0, 0.05], "upper": [1.0, 1000.0, 200.0, 1.0],
          "rounding": ROUNDING}


def prefill_time(p, flops, s, d, gpu):
    """The prefill curve: `flops` of s tokens per prompt through heads of width d."""
    compute_fraction, half_tokens, half_head_dim, launch_us = p
    fraction = compute_fraction * s / (s + half_tokens) * d / (d + half_head_dim)
    return launch_us * 1e-6 + flops / (gpu["dense_tflops"]["bf16"] * 1e12 * fraction)


def decode_time(p, query_heads, moved, width, gpu, sequences=1.0):
    """The decode curve: query_heads (sequences × heads) and `moved` cache bytes of `width`;
    a fifth parameter, half_sequences (fit_mla.py), scales the memory fraction by
    sequences / (sequences + half_sequences)."""
    memory_fraction, head_ns, launch_us, fp8_cache_scale, *half = p
    scale = fp8_cache_scale if width < 2 else 1.0
    filled = sequences / (sequences + half[0]) if half else 1.0
    bandwidth = gpu["hbm_bandwidth_GBps"] * 1e9 * memory_fraction * scale * filled
    return launch_us * 1e-6 + query_heads * head_ns * 1e-9 + moved / bandwidth


def predict_prefill(p, row, gpu):
    b, s, h, d = (float(row[k]) for k in ("batch", "tokens", "heads", "head_dim"))
    return prefill_time(p, 4.0 * b * h * d * s * s / 2, s, d, gpu)


def predict_decode(p, row, gpu, widths):
    b, c, h, g, d = (float(row[k]) for k in ("batch", "context", "heads", "kv_heads", "head_dim"))
    width = widths[row["kv_dtype"]]
    return decode_time(p, b * h, b * c * g * d * 2 * width, width, gpu)


def decode_spec(gpu, widths, rows_file="attention.csv", spec=DECODE):
    """`spec`, with fp8_cache_scale held at 1 for a GPU without rows of an 8-bit cache in
    `rows_file`."""
    rows = [r for r in kernel_rows(rows_file) if r["gpu"] == gpu and r["phase"] == "decode"]
    if any(widths[r["kv_dtype"]] < 2 for r in rows):
        return spec
    scale = spec["params"].index("fp8_cache_scale")
    pinned = {k: list(v) for k, v in spec.items() if isinstance(v, list)}
    for k in ("start", "lower", "upper"):
        pinned[k][scale] = 1.0
    return {**spec, **pinned}


def main():
    gpus, widths = catalog_gpus(), dtype_bytes()

    def curve_for(key):
        gpu = gpus[key[0]]
        if key[1] == "prefill":
            return (lambda p, r: predict_prefill(p, r, gpu)), PREFILL
        return (lambda p, r: predict_decode(p, r, gpu, widths)), decode_spec(key[0], widths)

    return fit_all("attention.csv", ("gpu", "phase"), curve_for, "attention", 0.10)

if __name__ == "__main__":
    sys.exit(main())
