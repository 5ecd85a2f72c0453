#!/usr/bin/env python3
"""Fits each GPU's MLA curve (data/catalog/gpus.json, "mla": DeepSeek-V3's multi-head latent
attention) to the measured one-layer MLA kernel times of data/measurements/kernels/mla.csv, and
reports the error on every engine's rows. The default engine here is TensorRT-LLM: aiconfigurator
publishes no kernel-only vLLM MLA table at vLLM 0.24.0 and none at all on the B200
(data/measurements/README.md says why), so TensorRT-LLM's rows are fitted as the GPU's default
curve and SGLang's held out; SGLang's own curve is kept (engine_curves.sglang.mla) where it
prices its rows better.

The curves have attention's form (fit_attention.py), with DeepSeek-V3's shapes: 128 query heads
in all, of which a GPU holds h (the row's `heads`); a query and key of 192 (128 + 64 rope) and a
value of 128 per head in prefill; a latent cache of 576 (512 + 64 rope) per token, read whole by
every GPU, in decode.
  prefill of b prompts of s tokens (causal, no earlier context), 16-bit:
    FLOPs = 2 h (192 + 128) b s² / 2
    time  = launch + FLOPs / (16-bit dense peak × compute_fraction × s / (s + half_tokens)
                              × 160 / (160 + half_head_dim))
            (the head width is always 160, so half_head_dim is held at 0)
  decode of b sequences, each with c tokens cached in the KV dtype (w bytes):
    bytes = b c × 576 × w
    time  = launch + b h × head_ns
            + bytes / (HBM bandwidth × memory_fraction × scale × b / (b + half_sequences))
            (scale: fp8_cache_scale for an 8-bit cache, else 1; 1 for a GPU without 8-bit rows;
             half_sequences: the kernels split each sequence's cache over a few thread blocks,
             so a batch of few sequences reads at a fraction of the bandwidth many reach)

A GPU that borrows another's curves (curves_from) is fitted too, and its rows are also priced
by the lender's shipped curves.

Usage: python3 tools/fit/fit_mla.py [--check data/catalog/gpus.json]
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_attention import DECODE, PREFILL, ROUNDING, decode_time, prefill_time  # noqa: E402
from fit_attention import decode_spec as attention_decode_spec  # noqa: E402
from kernel_fit import catalog_gpus, dtype_bytes, fit_all, kernel_rows, measured  # noqa: E402

DEFAULT_ENGINE = "trtllm"
QK_HEAD_DIM = 192     # qk_nope_head_dim 128 + qk_rope_head_dim 64
V_HEAD_DIM = 128
HEAD_WIDTH = (QK_HEAD_DIM + V_HEAD_DIM) / 2   # 160: the width the prefill curve sees
LATENT = 576          # kv_lora_rank 512 + qk_rope_head_dim 64, per cached token

MLA_DECODE = {"params": [*DECODE["params"], "half_sequences"],
              "start": [*DECODE["start"], 1.0], "steps": [*DECODE["steps"], 0.5],
              "lower": [*DECODE["lower"], 0.0], "upper": [*DECODE["upper"], 100.0],
              "rounding": {**ROUNDING, "half_sequences": 2}}
MLA_PREFILL = {**PREFILL, **{k: list(v) for k, v in PREFILL.items() if isinstance(v, list)}}
_WIDTH = PREFILL["params"].index("half_head_dim")
for _k in ("start", "lower", "upper"):
    MLA_PREFILL[_k][_WIDTH] = 0.0


def predict_prefill(p, row, gpu):
    b, s, h = (float(row[k]) for k in ("batch", "tokens", "heads"))
    return prefill_time(p, 2.0 * h * (QK_HEAD_DIM + V_HEAD_DIM) * b * s * s / 2, s, HEAD_WIDTH,
                        gpu)


def predict_decode(p, row, gpu, widths):
    b, c, h = (float(row[k]) for k in ("batch", "context", "heads"))
    width = widths[row["kv_dtype"]]
    return decode_time(p, b * h, b * c * LATENT * width, width, gpu, sequences=b)


def decode_spec(gpu, widths):
    """MLA_DECODE, with fp8_cache_scale held at 1 for a GPU without rows of an 8-bit cache."""
    return attention_decode_spec(gpu, widths, "mla.csv", MLA_DECODE)


def borrowed(gpus, widths):
    """Prices each borrower's rows by its lender's shipped mla curves (the default, or the
    engine's own where the lender has one)."""
    data = kernel_rows("mla.csv")
    for gpu_id, gpu in sorted(gpus.items()):
        lender = gpus.get(gpu.get("curves_from", ""), {})
        if "mla" not in lender:
            continue
        for phase in ("prefill", "decode"):
            for engine in sorted({r["engine"] for r in data if r["gpu"] == gpu_id}):
                rows = [r for r in data if (r["gpu"], r["phase"], r["engine"]) ==
                        (gpu_id, phase, engine)]
                if not rows:
                    continue
                curve = lender.get("engine_curves", {}).get(engine, {}).get("mla", lender["mla"])
                spec = MLA_PREFILL if phase == "prefill" else MLA_DECODE
                p = [curve[phase].get(n, 0.0) for n in spec["params"]]
                predict = ((lambda q, r: predict_prefill(q, r, gpu)) if phase == "prefill"
                           else (lambda q, r: predict_decode(q, r, gpu, widths)))
                error = statistics.median(abs(predict(p, r) / measured(r) - 1) for r in rows)
                print(f"{gpu_id} {phase} {engine}: {len(rows)} rows, median |error| {error:.1%} "
                      f"by {gpu['curves_from']}'s shipped curve (curves_from)")


def main():
    gpus, widths = catalog_gpus(), dtype_bytes()

    def curve_for(key):
        gpu = gpus[key[0]]
        if key[1] == "prefill":
            return (lambda p, r: predict_prefill(p, r, gpu)), MLA_PREFILL
        return (lambda p, r: predict_decode(p, r, gpu, widths)), decode_spec(key[0], widths)

    status = fit_all("mla.csv", ("gpu", "phase"), curve_for, "mla", 0.10, DEFAULT_ENGINE)
    borrowed(gpus, widths)
    return status


if __name__ == "__main__":
    sys.exit(main())
