#!/usr/bin/env python3
"""Fits an engine's cost per sequence in a step (data/catalog/engines.json "costs".sequence_us:
the host's work on each sequence one scheduler runs, which grows with the batch) to the fit rows
of data/measurements/serving_sweeps.csv above one client, and reports the error of every row of
the engine, fit and held-out, with and without it.

A concurrency-1 step runs one sequence, so the per-step costs fit_engines.py fits there cannot
tell a per-sequence cost from a fixed one; the closed loops of many clients can. Each row is
simulated as check_sweeps.py simulates it (icx place --concurrency C, the benchmark's lengths and
request count, every request counted), with the shipped catalog but for the engine's
sequence_us, given by a --catalog overlay. The fitted value minimises the median |log(icx /
measured)| over the fit rows' p50 TPOT and output tokens/s together (golden-section search over
0 to 200 us); TTFT is left out, as it holds the per-request cost fitted elsewhere.

Which rows are fitted on is decided per source and GPU, as for the engines' other costs: the
rows whose `use` is fit and whose concurrency is above 1. --try-gpu GPU fits instead on that
GPU's rows above one client whatever their `use`, to see what a fit there would do to the
others (SGLang's trial on its B200 rows, docs/engines.md).

Usage: python3 tools/fit/fit_sequence_cost.py BUILD_DIR/icx [--engine vllm] [--try-gpu GPU]
"""
import concurrent.futures
import json
import math
import os
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # importing check_sweeps leaves no __pycache__ behind
from check_sweeps import ROOT, command, measured, rows, simulate, vendor  # noqa: E402

METRICS = ("tpot_p50", "output_tok_s")
SEARCH_US = (0.0, 200.0)
STEPS = 14  # golden-section steps: the bracket shrinks to 0.618^14 of 200 us, under 0.2 us


def overlay_with(engine, sequence_us):
    """The shipped engines with `engine`'s sequence_us replaced, as a --catalog overlay."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)
    for e in engines["engines"]:
        if e["id"] == engine:
            e["costs"]["sequence_us"] = round(sequence_us, 3)
    out = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(engines, out)
    out.close()
    return out.name


def errors(icx, engine, data, sequence_us):
    """Per row: metric -> icx / measured - 1 with the engine's sequence_us (None: not given)."""
    overlay = overlay_with(engine, sequence_us)
    cache = {}

    def one(r):
        sim, reason = simulate(command(icx, r) + ["--catalog", overlay], cache)
        if sim is None:
            sys.exit(f"{' '.join(command(icx, r))}: {reason}")
        meas = measured(r)
        pred = {"tpot_p50": sim["tpot"]["p50"], "ttft_p50": sim["ttft"]["p50"],
                "output_tok_s": sim["output_tokens_per_second"]}
        return {m: pred[m] / meas[m] - 1 if meas.get(m) else None for m in pred}

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            return list(pool.map(one, data))
    finally:
        os.unlink(overlay)


def loss(errs):
    logs = [abs(math.log1p(e[m])) for e in errs for m in METRICS if e[m] is not None]
    return statistics.median(logs)


def golden(f, lo, hi):
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = f(a), f(b)
    for _ in range(STEPS):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = f(b)
    return (a + b) / 2


def summary(label, data, errs):
    print(f"\n{label}: median |error| (signed median), n rows")
    groups = {}
    for r, e in zip(data, errs):
        clients = "1 client" if int(r["concurrency"]) == 1 else "more clients"
        groups.setdefault((r["use"], clients, vendor(r), r["gpu"]), []).append(e)
    for (use, clients, vend, gpu), es in sorted(groups.items()):
        cells = []
        for m in ("tpot_p50", "ttft_p50", "output_tok_s"):
            vals = [e[m] for e in es if e[m] is not None]
            if vals:
                cells.append(f"{m} {100 * statistics.median(abs(v) for v in vals):.1f} % "
                             f"({100 * statistics.median(vals):+.1f} %)")
        print(f"  {use:8} {clients:12} {vend:6} {gpu:9} n={len(es):3}  " + "  ".join(cells))


def is_fit(row, try_gpu=None):
    chosen = row["gpu"] == try_gpu if try_gpu else row["use"] == "fit"
    return chosen and int(row["concurrency"]) > 1


def option(args, name, default=None):
    """The value after `name` in args (removed from them), else `default`."""
    if name not in args:
        return default
    i = args.index(name)
    if i + 1 >= len(args):
        sys.exit(__doc__)
    value = args[i + 1]
    del args[i:i + 2]
    return value


def main():
    args = sys.argv[1:]
    engine = option(args, "--engine", "vllm")
    try_gpu = option(args, "--try-gpu")
    if len(args) != 1:
        sys.exit(__doc__)
    icx = args[0]
    data = rows(engine)
    fit = [r for r in data if is_fit(r, try_gpu)]
    if not fit:
        sys.exit(f"no fit rows above one client for engine {engine}")
    print(f"{engine}: {len(fit)} fit rows above one client, {len(data)} rows in all")
    best = golden(lambda us: loss(errors(icx, engine, fit, us)), *SEARCH_US)
    print(f"fitted sequence_us = {best:.1f}")
    summary("without (sequence_us 0)", data, errors(icx, engine, data, 0.0))
    summary(f"with sequence_us {best:.1f}", data, errors(icx, engine, data, best))


if __name__ == "__main__":
    main()
