#!/usr/bin/env python3
"""Fits one of an engine's costs that only many clients show (data/catalog/engines.json
"costs") to the fit rows of data/measurements/serving_sweeps.csv above one client, and reports
the error of every row of the engine, fit and held-out, with and without it:

  --cost sequence_us (the default): per sequence in a step, the host's work on each sequence
      one scheduler runs, which grows with the batch. A concurrency-1 step runs one sequence,
      so the per-step costs fit_engines.py fits there cannot tell it from a fixed one.
  --cost prefill_step_us: per step that prefills, the engine's own prompt pass beyond its
      kernels, which the decodes behind it wait for. At one client it cannot be told from the
      per-request time (both fall in TTFT once), so the two are fitted as one sum there
      (fit_engines.py) and split here: the overlay gives prefill_step_us x and request_us the
      shipped sum less x, so every concurrency-1 TTFT stays as fitted.

Each row is simulated as check_sweeps.py simulates it (icx place --concurrency C, the
benchmark's lengths and request count, every request counted), with the shipped catalog but for
the engine's cost, given by a --catalog overlay. The fitted value minimises the median |log(icx
/ measured)| over the fit rows' p50 TPOT and output tokens/s together (golden-section search
over 0 to 200 us for sequence_us, to the per-request sum for prefill_step_us); TTFT is left out,
as it holds the per-request cost fitted elsewhere.

Which rows are fitted on is decided per source and GPU, as for the engines' other costs: the
rows whose `use` is fit and whose concurrency is above 1. --try-gpu GPU fits instead on that
GPU's rows above one client whatever their `use`, to see what a fit there would do to the
others (SGLang's trial on its B200 rows, docs/engines.md).

Usage: python3 tools/fit/fit_sequence_cost.py BUILD_DIR/icx [--engine vllm] [--try-gpu GPU]
           [--cost sequence_us|prefill_step_us]
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


COSTS = ("sequence_us", "prefill_step_us")


def shipped_costs(engine):
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        return next(e["costs"] for e in json.load(f)["engines"] if e["id"] == engine)


def search_range(engine, cost):
    """sequence_us over 0-200 us; prefill_step_us over 0 to the per-request sum it splits."""
    if cost == "sequence_us":
        return SEARCH_US
    c = shipped_costs(engine)
    return (0.0, c["request_us"] + c.get("prefill_step_us", 0.0))


def overlay_with(engine, cost, value):
    """The shipped engines with `engine`'s `cost` replaced (for prefill_step_us, the per-request
    time keeping their sum), as a --catalog overlay."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)
    for e in engines["engines"]:
        if e["id"] == engine:
            c = e["costs"]
            if cost == "prefill_step_us":
                c["request_us"] = round(c["request_us"] + c.get("prefill_step_us", 0.0) - value, 1)
            c[cost] = round(value, 3)
    out = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(engines, out)
    out.close()
    return out.name


def errors(icx, engine, data, cost, value):
    """Per row: metric -> icx / measured - 1 with the engine's `cost` at `value` (None: not
    given)."""
    overlay = overlay_with(engine, cost, value)
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
    cost = option(args, "--cost", "sequence_us")
    if len(args) != 1 or cost not in COSTS:
        sys.exit(__doc__)
    icx = args[0]
    data = rows(engine)
    fit = [r for r in data if is_fit(r, try_gpu)]
    if not fit:
        sys.exit(f"no fit rows above one client for engine {engine}")
    print(f"{engine}: {len(fit)} fit rows above one client, {len(data)} rows in all")
    best = golden(lambda us: loss(errors(icx, engine, fit, cost, us)),
                  *search_range(engine, cost))
    print(f"fitted {cost} = {best:.1f}")
    summary(f"without ({cost} 0)", data, errors(icx, engine, data, cost, 0.0))
    summary(f"with {cost} {best:.1f}", data, errors(icx, engine, data, cost, best))


if __name__ == "__main__":
    main()
