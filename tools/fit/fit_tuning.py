#!/usr/bin/env python3
"""Fits one figure of a GPU's default tuning (data/catalog/gpus.json "tunings": a named setup of
the serving software on the GPU) to the closed-loop sweeps of data/measurements/
serving_sweeps.csv that one publisher ran on that GPU, over a grid, and reports every grid
point's error on those rows and on the GPU's rows from every other publisher, held out.

Each grid point is the GPU's shipped entry with the figure set in its default tuning, given to
icx as a catalog overlay (--catalog); every row is simulated as check_sweeps.py simulates it.
Per point and row set: the median |error| and the signed median of TTFT, TPOT (each the p50
where the source gives one, else the mean) and output tokens/s. The chosen point is the one
whose three signed medians on the fit rows are together (summed magnitudes) nearest zero: no
systematic optimism or pessimism on the publisher it is fitted to.

Usage: python3 tools/fit/fit_tuning.py BUILD_DIR/icx --gpu a100-sxm --publisher Herdora
           --figure cache_read_scale --grid 0.6,0.7,0.75,0.8,1 [--engine vllm]
  --publisher  the fit rows: those whose source starts with this text (check_sweeps.publisher)
  --engine     only that engine's rows, fit and held out
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # importing check_sweeps leaves no __pycache__ behind
from check_sweeps import (ROOT, error, measured, predicted, publisher, rows,  # noqa: E402
                          simulate_overlay)

# Each metric: the columns tried in order (the first the row gives is used).
METRICS = {"ttft": ("ttft_p50", "ttft_mean"), "tpot": ("tpot_p50", "tpot_mean"),
           "output_tok_s": ("output_tok_s",)}


def gpu_entry(gpu):
    with open(os.path.join(ROOT, "data", "catalog", "gpus.json")) as f:
        return next(g for g in json.load(f)["gpus"] if g["id"] == gpu)


def with_figure(entry, figure, value):
    """`entry` with `figure` set to `value` in its default tuning (1 leaves it out)."""
    trial = json.loads(json.dumps(entry))
    tuning = next(t for t in trial["tunings"].values() if t.get("default"))
    tuning.pop(figure, None)
    if value != 1:
        tuning[figure] = value
    return trial


def errors(icx, entry, data):
    """Per row, per metric: icx / measured - 1 with `entry` in the catalog."""
    out = []
    for r, (sim, reason) in zip(data, simulate_overlay(icx, {"gpus": [entry]}, data)):
        if sim is None:
            sys.exit(f"fit_tuning.py: a row failed: {reason}")
        meas, pred = measured(r), predicted(sim)
        row = {}
        for name, columns in METRICS.items():
            column = next((c for c in columns if meas[c] is not None), None)
            if column is not None:
                row[name] = error(pred[column], meas[column])
        out.append(row)
    return out


def summary(errs):
    """Per metric: (median |error|, signed median), None without rows."""
    out = {}
    for name in METRICS:
        values = [e[name] for e in errs if name in e]
        out[name] = (statistics.median(abs(v) for v in values), statistics.median(values)) \
            if values else None
    return out


def show(label, stats, n):
    cells = [f"{name} {stats[name][0]:.0%} ({stats[name][1]:+.0%})" if stats[name]
             else f"{name} -" for name in METRICS]
    return f"  {label:9} n={n:<4} " + "  ".join(cells)


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("icx")
    parser.add_argument("--gpu", required=True)
    parser.add_argument("--publisher", required=True)
    parser.add_argument("--figure", required=True)
    parser.add_argument("--grid", required=True)
    parser.add_argument("--engine")
    args = parser.parse_args()
    entry = gpu_entry(args.gpu)
    data = rows(args.engine, args.gpu)
    fit = [r for r in data if publisher(r).startswith(args.publisher)]
    held = [r for r in data if not publisher(r).startswith(args.publisher)]
    if not fit:
        sys.exit(f"fit_tuning.py: no {args.gpu} rows from a publisher starting "
                 f"'{args.publisher}'")
    best = None
    for value in (float(v) for v in args.grid.split(",")):
        trial = with_figure(entry, args.figure, value)
        fit_stats = summary(errors(args.icx, trial, fit))
        print(f"{args.figure} {value:g}:")
        print(show("fit", fit_stats, len(fit)))
        if held:
            print(show("held out", summary(errors(args.icx, trial, held)), len(held)))
        loss = sum(abs(s[1]) for s in fit_stats.values() if s)
        if best is None or loss < best[0]:
            best = (loss, value)
    print(f"chosen: {args.figure} {best[1]:g} (signed medians on the fit rows summing to "
          f"{best[0]:.1%} in magnitude)")


if __name__ == "__main__":
    main()
