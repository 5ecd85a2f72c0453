#!/usr/bin/env python3
"""Fits each GPU's routed-expert curves (data/catalog/gpus.json, "moe", one per dtype) to the
measured fused-MoE times of data/measurements/kernels/moe.csv, one layer's kernel per row
(the gate and up projections, the activation and the down projection of every routed expert
the rank runs), and reports the error on every engine's rows: the default engine's (vllm) are
fitted, the others' (sglang, trtllm) held out.

The model, written independently of icx's C++, for rank 0 of an expert group of ep ranks and a
tensor split of tp, hidden h and expert width I (per rank i = I / tp), T tokens routed to k of
E experts each, with a assignments and r distinct experts landing on rank 0:
  m       = a / r                                  tokens per expert run
  compute = 2 a × 3 h i / (dense peak × compute_fraction × m / (m + half_tokens))
  memory  = (r × 3 h i × weight bytes + a (2h + 3i) × 2 B of activations)
            / (HBM bandwidth × memory_fraction)
  time    = (compute^knee + memory^knee)^(1/knee) + launch + T k × route_ns
The rows route as aiconfigurator's "balanced" case does (collector/helper.py balanced_logits:
token t favours experts (t + j·ceil(E/k)) mod E), and every token's k entries reach the rank's
kernel, which sorts them before its GEMMs (the route term). The row's `routing` column says
what the collector's router made of those logits:
  plain        top-k: the k favoured experts.
  grouped-8-4  DeepSeek-V3's grouped top-k (8 groups of E/8 experts, the best 4 groups by the
               sum of their two best scores, then the top k inside them), as vLLM's and SGLang's
               collectors route DeepSeek-V3. Every group holds one favoured expert, so every
               group ties and the first four are taken; inside them a token runs its four
               favoured experts and the four lowest-numbered others. The first experts receive
               every token: a skewed load, not a balanced one.

Usage: python3 tools/fit/fit_moe.py [--check data/catalog/gpus.json]
"""
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_fit import fit_by_kernel_dtype  # noqa: E402

SPEC = {"params": ["compute_fraction", "half_tokens", "memory_fraction", "knee", "launch_us",
                   "route_ns"],
        "start": [0.6, 16.0, 0.7, 3.0, 20.0, 1.0], "steps": [0.05, 8.0, 0.05, 1.0, 5.0, 1.0],
        "lower": [0.05, 0.0, 0.05, 1.0, 0.0, 0.0], "upper": [1.0, 2000.0, 1.0, 16.0, 500.0, 1000.0],
        "rounding": {"compute_fraction": 3, "half_tokens": 1, "memory_fraction": 3, "knee": 2,
                     "launch_us": 1, "route_ns": 2}}


GROUPED = {"plain": None, "grouped-8-4": (8, 4)}


def favoured(t, tokens, topk, experts):
    """The experts balanced_logits scores high for token t."""
    stride = -(-experts // topk)
    if tokens >= stride:
        return [(t + j * stride) % experts for j in range(topk)]
    return [int(t * stride / tokens + j * stride) % experts for j in range(topk)]


def grouped_pick(high, topk, experts, groups, chosen):
    """DeepSeek-V3's grouped top-k over two score levels, ties to the lower index."""
    size = experts // groups
    count = [0] * groups
    for e in high:
        count[e // size] += 1
    best = sorted(range(groups), key=lambda g: (-min(count[g], 2), g))[:chosen]
    pool = [e for g in sorted(best) for e in range(g * size, (g + 1) * size)]
    return sorted(pool, key=lambda e: (e not in high, e))[:topk]


@functools.lru_cache(maxsize=None)
def rank0(tokens, topk, experts, ep, routing="plain"):
    """Rank 0's assignments and distinct experts; it holds experts 0 .. experts / ep - 1."""
    local = experts // ep
    assigned, seen = 0, set()
    for t in range(tokens):
        picked = favoured(t, tokens, topk, experts)
        if GROUPED[routing]:
            picked = grouped_pick(set(picked), topk, experts, *GROUPED[routing])
        for e in picked:
            if e < local:
                assigned += 1
                seen.add(e)
    return assigned, len(seen)


def predict(p, row, gpu, peak_dtype, width):
    compute_fraction, half_tokens, memory_fraction, knee, launch_us, route_ns = p
    t, h, k, e, tp, ep = (int(row[c]) for c in ("tokens", "hidden", "topk", "experts", "tp", "ep"))
    i = int(row["inter"]) / tp
    assigned, run = rank0(t, k, e, ep, row["routing"])
    route = launch_us * 1e-6 + t * k * route_ns * 1e-9
    if assigned == 0:
        return route
    m = assigned / run
    peak = gpu["dense_tflops"][peak_dtype] * 1e12
    compute = 2.0 * assigned * 3 * h * i / (peak * compute_fraction * m / (m + half_tokens))
    memory = ((run * 3 * h * i * width + assigned * (2 * h + 3 * i) * 2)
              / (gpu["hbm_bandwidth_GBps"] * 1e9 * memory_fraction))
    larger = max(compute, memory)
    blended = larger * ((compute / larger) ** knee + (memory / larger) ** knee) ** (1.0 / knee)
    return blended + route


def main():
    return fit_by_kernel_dtype("moe.csv", predict, SPEC, "moe", 0.10)


if __name__ == "__main__":
    sys.exit(main())
