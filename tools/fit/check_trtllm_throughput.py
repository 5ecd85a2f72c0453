#!/usr/bin/env python3
"""Holds icx against TensorRT-LLM's published maximum throughput (data/measurements/
trtllm_throughput.csv: trtllm-bench's offline runs, every request queued at once) and reports
the error of output tokens/s per row and per GPU and model.

Each row is simulated by `icx place --engine trtllm` on the row's GPU, model, dtype and tensor
layout, with as many clients as requests (all queued; at most 3,000 of them simulated, no
warm-up left out) and the row's KV-cache dtype. Nothing is fitted here; --icx-args adds flags
to every command (an assumption to try, such as --catalog OVERLAY or --kv-fraction).

Usage: python3 tools/fit/check_trtllm_throughput.py BUILD_DIR/icx [--icx-args "..."]
"""
import argparse
import csv
import json
import os
import shlex
import statistics
import subprocess
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# Clients and requests simulated per row: enough for the batch to fill and drain.
MOST_SIMULATED = 3000


def rows():
    path = os.path.join(ROOT, "data", "measurements", "trtllm_throughput.csv")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def simulate(icx, extra, r):
    n = str(min(int(r["requests"]), MOST_SIMULATED))
    cmd = [icx, "place", "--model", r["model"], "--gpu", r["gpu"], "--gpus", r["gpus"],
           "--tp", r["tp"], "--dtype", r["dtype"], "--kv-dtype", r["kv_dtype"],
           "--engine", "trtllm", "--concurrency", n, "--requests", n, "--warmup", "0",
           "--input", r["input"], "--output", r["output"], "--json", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return json.loads(done.stdout)["simulation"]["output_tokens_per_second"], None


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("icx")
    parser.add_argument("--icx-args", default="")
    args = parser.parse_args()
    extra = shlex.split(args.icx_args)
    data = rows()
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda r: simulate(args.icx, extra, r), data))
    groups = {}
    print(f"{'gpu':9} {'model':15} {'tp':>2} {'dtype':6} {'in/out':>11} {'published':>10} "
          f"{'icx':>8} {'error':>7}")
    for r, (tokens, error) in zip(data, results):
        if tokens is None:
            print(f"{r['gpu']:9} {r['model']:15} {r['input']}/{r['output']}: {error}")
            continue
        err = tokens / float(r["output_tok_s"]) - 1
        groups.setdefault((r["gpu"], r["model"], r["dtype"]), []).append(err)
        groups.setdefault(("all", "", ""), []).append(err)
        print(f"{r['gpu']:9} {r['model']:15} {r['tp']:>2} {r['dtype']:6} "
              f"{r['input'] + '/' + r['output']:>11} {float(r['output_tok_s']):10.0f} "
              f"{tokens:8.0f} {err:+7.1%}")
    print("\nmedian |error| (signed median) of output tokens/s:")
    for key, errs in sorted(groups.items()):
        print(f"  {' '.join(k for k in key if k):40} n={len(errs):3}  "
              f"{statistics.median(abs(e) for e in errs):6.1%}  ({statistics.median(errs):+.1%})")


if __name__ == "__main__":
    main()
