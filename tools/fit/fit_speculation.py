#!/usr/bin/env python3
"""Fits what each serving engine adds to a speculative decode step (data/catalog/engines.json
"speculation": step_us once a step, draft_us once a draft) to the fit rows of
data/measurements/speculation.csv, and reports the TPOT error on every row, fit and held-out.

icx prices a speculative step as the GPUs' drafts (one decoder layer and the LM head each) and
one pass checking drafts + 1 tokens a sequence (icx place --spec KIND:ACCEPTANCE:DRAFTS). What
the engine adds is fitted on the step's growth over plain decoding, so that an error in the
plain step (issue of the kernel model, not of speculation) is not taken for the engine's:
  (measured step - measured plain step) - (icx step - icx plain step) = step_us + K x draft_us
with a step = TPOT x acceptance (the tokens it emits). Non-negative least squares per engine
on its fit rows; rows are split fit / held-out by source (the `use` column). A held-out row
that gives a speed-up instead of a TPOT is compared on the speed-up.

Usage: python3 tools/fit/fit_speculation.py BUILD_DIR/icx
"""
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SYSTEM = {"h100-sxm": "dgx-h100", "h200": "dgx-h200", "b200": "dgx-b200"}


def rows():
    with open(os.path.join(ROOT, "data", "measurements", "speculation.csv"), newline="") as f:
        return list(csv.DictReader(f))


def overlay(costs):
    """The shipped engines with `costs` ({engine: (step_us, draft_us)}) as their speculation."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)
    for engine in engines["engines"]:
        step, draft = costs.get(engine["id"], (0.0, 0.0))
        engine["speculation"] = {"step_us": step, "draft_us": draft, "source": "fit"}
    out = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(engines, out)
    out.close()
    return out.name


def tpot(icx, catalog, row, spec):
    """icx's TPOT in seconds for the row's layout at its batch and context."""
    args = [icx, "place", "--model", row["model"], "--system", SYSTEM[row["gpu"]],
            "--gpus", row["gpus"], "--phase", "decode", "--context", row["context"],
            "--batch", row["batch"], "--tp", row["tp"], "--ep", row["ep"],
            "--dtype", row["dtype"].replace(";", ","), "--engine", row["engine"],
            "--catalog", catalog, "--json"]
    if spec:
        args += ["--spec", f"{row['method']}:{row['acceptance']}:{row['drafts']}"]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["tpot_seconds"]


def growth(icx, catalog, row):
    """(K, the measured step's growth over plain decoding less icx's), in seconds."""
    accept = float(row["acceptance"])
    icx_growth = tpot(icx, catalog, row, True) * accept - tpot(icx, catalog, row, False)
    measured = (float(row["tpot_ms"]) * accept - float(row["base_tpot_ms"])) / 1e3
    return int(row["drafts"]), measured - icx_growth


def least_squares(points):
    """Non-negative (a, b) minimising sum (r - a - b K)^2."""
    n = len(points)
    sk = sum(k for k, _ in points)
    sr = sum(r for _, r in points)
    skk = sum(k * k for k, _ in points)
    skr = sum(k * r for k, r in points)
    det = n * skk - sk * sk
    if det > 0:
        a = (sr * skk - sk * skr) / det
        b = (n * skr - sk * sr) / det
        if a >= 0 and b >= 0:
            return a, b
    # On the boundary: one of the two at zero, the other its own least squares.
    candidates = [(max(0.0, sr / n), 0.0), (0.0, max(0.0, skr / skk))]
    return min(candidates, key=lambda ab: sum((r - ab[0] - ab[1] * k) ** 2 for k, r in points))


def error(icx, catalog, row):
    """icx's relative error on the row: TPOT, or the speed-up where the row gives one."""
    spec = tpot(icx, catalog, row, True)
    if row["speedup"]:
        return tpot(icx, catalog, row, False) / spec / float(row["speedup"]) - 1
    return spec * 1e3 / float(row["tpot_ms"]) - 1


def main():
    icx = sys.argv[1]
    data = rows()
    zero = overlay({})
    costs = {}
    for engine in sorted({r["engine"] for r in data if r["use"] == "fit"}):
        points = [growth(icx, zero, r) for r in data if r["engine"] == engine and r["use"] == "fit"]
        a, b = least_squares(points)
        costs[engine] = (round(a * 1e6, 1), round(b * 1e6, 1))
        print(f"{engine}: step_us {costs[engine][0]}, draft_us {costs[engine][1]} "
              f"({len(points)} fit rows)")
    fitted = overlay(costs)
    print("\nengine  use       model          K  AL    measured  before  after")
    summary = {}
    for r in data:
        before, after = error(icx, zero, r), error(icx, fitted, r)
        what = "speed-up " + r["speedup"] if r["speedup"] else f"{float(r['tpot_ms']):.2f} ms"
        print(f"{r['engine']:7} {r['use']:9} {r['model']:14} {r['drafts']:>2} {r['acceptance']:5} "
              f"{what:>9} {before:+7.1%} {after:+6.1%}")
        summary.setdefault((r["engine"], r["use"]), []).append((abs(before), abs(after)))
    print("\nmedian |error| before -> after")
    for (engine, use), errs in sorted(summary.items()):
        print(f"  {engine:7} {use:9} ({len(errs)} rows): "
              f"{statistics.median(e[0] for e in errs):.1%} -> "
              f"{statistics.median(e[1] for e in errs):.1%}")
    os.unlink(zero)
    os.unlink(fitted)


if __name__ == "__main__":
    main()
