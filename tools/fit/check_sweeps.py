#!/usr/bin/env python3
"""Checks icx's closed-loop simulation against published concurrency sweeps with percentiles
(data/measurements/serving_sweeps.csv: p50 and p99 of TTFT, TPOT and ITL at each client
concurrency of a sweep) and reports the error on every row, its summaries and where each
sweep's TPOT knee falls, measured and predicted.

Every row is simulated as fit_engines.py simulates a closed-loop row, with the shipped catalog
(the engines' fitted costs included): icx place on the row's GPU, GPU count, model, dtype and
layout (an engine's TP t with expert parallel e is icx's TP t / e x EP e), --concurrency C
clients each sending its next request when the last one ends, --input / --output the nominal
lengths and --spread the row's (SGLang bench_serving's default draws lengths uniformly from 0
to the nominal: spread 1; fixed lengths: 0 or empty) or, where its `lengths` column names a
shape, --lengths that shape (sharegpt: a ShareGPT run's pairs scaled to the row's input and
output, its mean lengths), as many requests as the benchmark sent
(its `requests` column, else max(1000, 4 x C)), --warmup 0 (every request counted, as the
benchmark counts them) and, where the row's `tool` sends the first prompt once before the run
(vllm bench serve's test prompt, SGLang bench_serving's warm-up), --warm-prompts 1. Identical
commands run once; a command that fails or takes longer than TIMEOUT seconds is listed as
skipped with its reason.

Per row the measured and predicted mean, p50 and p99 TTFT, mean, p50 and p99 TPOT, p99 ITL
and output tokens/s (each where the source gives it: GenAI-Perf's runs report means) are shown with the signed relative error (predicted / measured - 1). TPOT is per
request, (E2E - TTFT) / (output - 1), its percentiles over requests; ITL's over all gaps
between tokens, so a prefill stalling the running decodes shows in the ITL p99. The summaries
give, per metric, the median |error| and the signed median per engine, per vendor (AMD =
mi300x / mi325x / mi355x, else NVIDIA), per use (fit: the row's setup was among the rows
the engines' costs were fitted on; fit-tuning: a GPU tuning's figures were fitted on it;
held-out: neither), per vendor and use, per vendor, use and load (burst: as many clients as
requests, every request sent at once; loop: clients sending again), per GPU and use, per engine and use, and per engine and
use at one client (batch-1 decode, where the engine's fixed costs weigh most).

The knee: a sweep is the rows sharing engine, engine_version, gpu, gpus, tp, ep, model, dtype,
input and output. Its knee is the first concurrency level at which TPOT (the p50 where the
source gives one, else the mean; icx's same statistic) is at least twice the TPOT at the
sweep's lowest level, or none when it never doubles; a run at one level alone has none to
find and is left out, as are runs of one setup repeated at one level. The predicted knee applies the rule to
icx's TPOTs at the same levels; it is within one step when it is the measured level or an
adjacent one in the sweep's sorted levels, none counting as one step past the last level
(none vs none, and none vs the last level, are within). Sweeps with a skipped row are listed
but not counted.

A row whose `tuning` column names a GPU setup is simulated at that --tuning, unless
--icx-args names one.

The summaries also group rows by source (the publisher: the source text before its first
parenthesis, colon or comma), so a figure fitted on one publisher's runs can be held against
the others'.

Usage: python3 tools/fit/check_sweeps.py BUILD_DIR/icx [--engine vllm] [--gpu mi300x]
           [--icx-args "--hbm-fraction 0.4 --mfu 0.25"]
  --engine, --gpu  only the rows of that engine (any of its names) or GPU
  --icx-args       flags added to every icx command, an assumption to try (quoted as one)
"""
import argparse
import csv
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # importing fit_engines leaves no __pycache__ behind
# The same conventions as fit_engines.py.
from fit_engines import AMD, closed_loop_args, with_tuning  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TIMEOUT = 20  # seconds one icx call may take before its row is skipped
SWEEP = ("engine", "engine_version", "gpu", "gpus", "tp", "ep", "model", "dtype", "input",
         "output")
# metric: (measured column, simulation statistic, scale of the shown figures, unit)
METRICS = {
    "ttft_mean": ("ttft_mean_ms", ("ttft", "mean"), 1e3, "ms"),
    "ttft_p50": ("ttft_p50_ms", ("ttft", "p50"), 1e3, "ms"),
    "ttft_p99": ("ttft_p99_ms", ("ttft", "p99"), 1e3, "ms"),
    "tpot_mean": ("tpot_mean_ms", ("tpot", "mean"), 1e3, "ms"),
    "tpot_p50": ("tpot_p50_ms", ("tpot", "p50"), 1e3, "ms"),
    "tpot_p99": ("tpot_p99_ms", ("tpot", "p99"), 1e3, "ms"),
    "itl_p99": ("itl_p99_ms", ("itl", "p99"), 1e3, "ms"),
    "output_tok_s": ("output_tok_s", ("output_tokens_per_second", None), 1, "tok/s"),
}


def engine_ids():
    """Every engine name and alias in the shipped catalog -> the engine's id."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)["engines"]
    return {name: e["id"] for e in engines for name in [e["id"], *e.get("aliases", [])]}


def rows(engine=None, gpu=None):
    ids = engine_ids()
    with open(os.path.join(ROOT, "data", "measurements", "serving_sweeps.csv"), newline="") as f:
        data = list(csv.DictReader(f))
    if engine:
        data = [r for r in data if ids.get(r["engine"], r["engine"]) == ids.get(engine, engine)]
    if gpu:
        data = [r for r in data if r["gpu"] == gpu]
    return data


def publisher(row):
    """Who published the row: its source text before the first parenthesis, colon or comma."""
    return re.split(r"[(:,]", row["source"], maxsplit=1)[0].strip()


def vendor(row):
    return "amd" if row["gpu"] in AMD else "nvidia"


def command(icx, row, extra=()):
    return closed_loop_args(icx, row, int(row["concurrency"])) + with_tuning(row, list(extra))


def run(args, tries=10):
    """args run with TIMEOUT, retried for a while if the binary is missing (being rebuilt)."""
    for attempt in range(tries):
        try:
            return subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
        except OSError:
            if attempt == tries - 1:
                raise
            time.sleep(3)


def simulate(args, cache):
    """icx's simulation document for `args` (cached), or the reason it is missing."""
    key = tuple(args)
    if key not in cache:
        try:
            out = run(args)
        except subprocess.TimeoutExpired:
            cache[key] = (None, f"took longer than {TIMEOUT} s")
        else:
            if out.returncode != 0:
                reason = out.stderr.strip().splitlines() or [f"exit status {out.returncode}"]
                cache[key] = (None, reason[-1])
            else:
                cache[key] = (json.loads(out.stdout)["simulation"], None)
    return cache[key]


def simulate_overlay(icx, overlay, data):
    """Each row's (simulation, reason) as `simulate` gives it, with the catalog document
    `overlay` given to icx as --catalog, the rows run side by side."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(overlay, f)
    try:
        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            return list(pool.map(lambda r: simulate(command(icx, r, ["--catalog", f.name]), {}),
                                 data))
    finally:
        os.unlink(f.name)


def measured(row):
    """The row's figures in SI units (seconds, tokens/s), None where the source has none."""
    out = {}
    for metric, (column, _, scale, _) in METRICS.items():
        out[metric] = float(row[column]) / scale if row[column] else None
    return out


def predicted(sim):
    out = {}
    for metric, (_, (key, stat), _, _) in METRICS.items():
        out[metric] = sim[key][stat] if stat else sim[key]
    return out


def error(pred, meas):
    return pred / meas - 1 if meas else None


def report_rows(data):
    head = f"{'engine':7} {'use':8} {'gpu':8} {'g/tp/ep':8} {'model':13} {'dtype':5} " \
           f"{'in/out':10} {'C':>4}"
    cells = "".join(f" | {m:>25}" for m in METRICS)
    print(head + cells)
    print(" " * len(head) + "".join(f" | {'measured -> icx (err)':>25}" for _ in METRICS))
    for d in data:
        r = d["row"]
        line = (f"{r['engine']:7} {r['use']:8} {r['gpu']:8} "
                f"{r['gpus'] + '/' + r['tp'] + '/' + (r['ep'] or '-'):8} {r['model']:13} "
                f"{r['dtype']:5} {r['input'] + '/' + r['output']:10} {r['concurrency']:>4}")
        for metric, (_, _, scale, _) in METRICS.items():
            m, p = d["measured"][metric], d["predicted"][metric]
            if m is None:
                line += f" | {'-':>25}"
                continue
            digits = 0 if metric == "output_tok_s" or m * scale >= 1000 else 1
            line += f" | {m * scale:9.{digits}f} {p * scale:9.{digits}f} {error(p, m):+6.0%}"
        print(line)


def load(row):
    """burst: every request sent at once (as many clients as requests: a saturation run, its
    TTFT and TPOT the queue behind the whole burst); loop: clients sending again as they finish."""
    return "burst" if row["requests"] and row["concurrency"] == row["requests"] else "loop"


def summarise(data):
    """Median |error| and signed median per metric, by engine, vendor, use, vendor and use
    together (and with the load's shape), GPU and use, and source."""
    print("\nmedian |error| (signed median), n rows; error = icx / measured - 1:")
    groupings = [("all", lambda r: "all"), ("engine", lambda r: r["engine"]),
                 ("vendor", vendor), ("use", lambda r: r["use"]),
                 ("vendor/use", lambda r: f"{vendor(r)}/{r['use']}"),
                 ("vendor/use/load", lambda r: f"{vendor(r)}/{r['use']}/{load(r)}"),
                 ("gpu/use", lambda r: f"{r['gpu']}/{r['use']}"),
                 ("engine/use", lambda r: f"{r['engine']}/{r['use']}"),
                 ("one client", lambda r: f"{r['engine']}/{r['use']}"
                  if r["concurrency"] == "1" else None), ("source", publisher)]
    print(f"{'group':34}" + "".join(f" {m:>20}" for m in METRICS))
    for name, key_of in groupings:
        for key in sorted({key_of(d["row"]) for d in data} - {None}):
            line = f"{name + '=' + key:34}"
            for metric in METRICS:
                errs = [error(d["predicted"][metric], d["measured"][metric]) for d in data
                        if key_of(d["row"]) == key and d["measured"][metric]]
                if not errs:
                    line += f" {'-':>20}"
                    continue
                a = statistics.median(abs(e) for e in errs)
                s = statistics.median(errs)
                line += f" {f'{a:.0%} ({s:+.0%}) n={len(errs)}':>20}"
            print(line)


def knee(levels, tpots):
    """Index in `levels` of the first whose TPOT is at least twice the lowest level's, else
    len(levels) (none: one step past the last level)."""
    base = tpots[levels[0]]
    for i, c in enumerate(levels):
        if tpots[c] >= 2 * base:
            return i
    return len(levels)


def knees(data, skipped):
    sweeps = {}
    for d in data + skipped:
        sweeps.setdefault(tuple(d["row"][k] for k in SWEEP), []).append(d)
    print(f"\nTPOT knee per sweep (first concurrency with TPOT >= 2 x the lowest level's; "
          f"p50, else mean):")
    print(f"{'engine':7} {'version':24} {'gpu':8} {'g/tp/ep':8} {'model':13} {'dtype':5} "
          f"{'in/out':10} {'levels':28} {'measured':>8} {'icx':>5}  within")
    within = counted = single = 0
    misses = []
    for key in sorted(sweeps, key=lambda k: (k[0], k[2], k[6], int(k[3]), k[7],
                                             int(k[8]), int(k[9]))):
        ds = sweeps[key]
        r = ds[0]["row"]
        levels = sorted(int(d["row"]["concurrency"]) for d in ds)
        if len(set(levels)) < 2:
            single += len(levels)
            continue
        label = (f"{r['engine']:7} {r['engine_version'][:24]:24} {r['gpu']:8} "
                 f"{r['gpus'] + '/' + r['tp'] + '/' + (r['ep'] or '-'):8} {r['model']:13} "
                 f"{r['dtype']:5} {r['input'] + '/' + r['output']:10} "
                 f"{','.join(map(str, levels)):28}")
        if any("predicted" not in d for d in ds):
            print(f"{label} {'':>8} {'':>5}  not counted (a row skipped)")
            continue
        stat = "p50" if all(d["row"]["tpot_p50_ms"] for d in ds) else "mean"
        meas = {int(d["row"]["concurrency"]): float(d["row"][f"tpot_{stat}_ms"]) / 1e3
                for d in ds}
        pred = {int(d["row"]["concurrency"]): d["sim"]["tpot"][stat] for d in ds}
        m, p = knee(levels, meas), knee(levels, pred)
        name = lambda i: str(levels[i]) if i < len(levels) else "none"
        ok = abs(m - p) <= 1
        counted += 1
        within += ok
        print(f"{label} {name(m):>8} {name(p):>5}  {'yes' if ok else 'NO'}")
        if not ok:
            misses.append((f"{r['engine']} {r['engine_version']} {r['gpu']} {r['gpus']}/{r['tp']}/"
                           f"{r['ep'] or '-'} {r['model']} {r['dtype']} {r['input']}/{r['output']}",
                           levels, meas, pred))
    if counted:
        print(f"\npredicted knee within one step of the measured one: {within} of {counted} "
              f"sweeps ({within / counted:.0%}); {single} runs at one level alone, no sweep, "
              f"not counted")
    for label, levels, meas, pred in misses:
        print(f"  {label}\n    TPOT / the lowest level's, measured/icx: " + ", ".join(
                  f"C{c} {meas[c] / meas[levels[0]]:.2f}/{pred[c] / pred[levels[0]]:.2f}"
                  for c in levels))


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("icx")
    parser.add_argument("--engine")
    parser.add_argument("--gpu")
    parser.add_argument("--icx-args", default="")
    args = parser.parse_args()
    icx, extra = args.icx, shlex.split(args.icx_args)
    cache, data, skipped = {}, [], []
    for r in rows(args.engine, args.gpu):
        sim, reason = simulate(command(icx, r, extra), cache)
        d = {"row": r, "measured": measured(r)}
        if sim is None:
            d["reason"] = reason
            skipped.append(d)
            continue
        d["sim"], d["predicted"] = sim, predicted(sim)
        data.append(d)
    print(f"{len(data)} rows simulated ({len(cache)} distinct icx runs), {len(skipped)} skipped")
    report_rows(data)
    if skipped:
        print("\nskipped:")
        for d in skipped:
            r = d["row"]
            print(f"  {r['engine']} {r['gpu']} {r['gpus']}/{r['tp']}/{r['ep'] or '-'} "
                  f"{r['model']} {r['dtype']} {r['input']}/{r['output']} C{r['concurrency']}: "
                  f"{d['reason']}")
    if data:
        summarise(data)
    knees(data, skipped)


if __name__ == "__main__":
    main()
