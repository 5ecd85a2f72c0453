#!/usr/bin/env python3
"""Fits each loader's rates (data/catalog/loaders.json) to the fit rows of loads.csv and reports
the error on every row, fit and held-out.

The model, written independently of icx's C++:
  read rate of a node = min(ranks x rank rate, node rate, storage read rate)
      (warm: reading host memory, the page-cache tier's 307.2 GB/s; cold: the row's storage)
  host copy          = (weights / ranks) / measured host-to-device rate of the host link
  load time          = overhead + max(weights / read rate, host copy)
Loaders without separate warm figures (runai-streamer, tensorizer: their own reader threads
read host memory and storage alike) share one pair of rates.

Usage: python3 tools/fit/fit_loaders.py [--check data/catalog/loaders.json]
"""
import csv
import itertools
import json
import math
import os
import sys

MEASUREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "measurements")
PAGE_CACHE_GBPS = 307.2          # data/catalog/storage.json, page-cache
H2D_GBPS = {"pcie5": 51.0, "pcie4": 25.13}   # data/catalog/links.json, host_to_device_GBps
SHARED_RATES = {"runai-streamer", "tensorizer"}


def rows():
    with open(os.path.join(MEASUREMENTS, "loads.csv"), newline="") as f:
        return list(csv.DictReader(f))


def predict(row, warm, cold, overhead):
    ranks = int(row["gpus"])
    weights = float(row["weights_GB"])
    is_warm = row["from"] == "page-cache"
    rank, node = warm if is_warm else cold
    tier = PAGE_CACHE_GBPS if is_warm else float(row["storage_GBps"])
    rate = min(ranks * rank, node, tier)
    copy = weights / ranks / H2D_GBPS[row["host_link"]]
    return overhead + max(weights / rate, copy)


def grid(low, high, steps):
    return [low * (high / low) ** (i / (steps - 1)) for i in range(steps)]


def fit(loader, data):
    fit_rows = [r for r in data if r["use"] == "fit"]
    warm_rows = [r for r in fit_rows if r["from"] == "page-cache"]
    cold_rows = [r for r in fit_rows if r["from"] != "page-cache"]
    pairs = [(a, b) for a in grid(0.2, 40, 50) for b in grid(1, 120, 50) if b >= a]

    def error(rows, warm, cold, overhead):
        return sum(math.log(predict(r, warm, cold, overhead) / float(r["measured_s"])) ** 2
                   for r in rows)

    def best_pair(rows, overhead, as_warm):
        # Ties (rates no fit row constrains): the lowest node rate that fits.
        return min(pairs, key=lambda p: (round(error(rows, p, p, overhead), 6), p[1]))

    best = None
    for overhead in [0.5 * i for i in range(1, 11)]:
        if loader in SHARED_RATES:
            warm = cold = best_pair(fit_rows, overhead, True)
        else:
            warm = best_pair(warm_rows, overhead, True)
            cold = best_pair(cold_rows, overhead, False)
        err = error(fit_rows, warm, cold, overhead)
        if best is None or err < best[0] - 1e-9:
            best = (err, warm, cold, overhead)
    return best[1:]


def report(loader, data, warm, cold, overhead):
    print(f"{loader}: warm rank {warm[0]:.2f} node {warm[1]:.2f} GB/s; cold rank {cold[0]:.2f} "
          f"node {cold[1]:.2f} GB/s; overhead {overhead:.1f} s")
    for use in ("fit", "held-out"):
        errs = []
        for r in (r for r in data if r["use"] == use):
            p = predict(r, warm, cold, overhead)
            m = float(r["measured_s"])
            errs.append(abs(p / m - 1))
            print(f"  {use:8} {r['hardware'][:60]:60} measured {m:7.2f} s predicted {p:7.2f} s "
                  f"{100 * (p / m - 1):+6.0f} %")
        if errs:
            errs.sort()
            print(f"  {use}: {len(errs)} rows, median {100 * errs[len(errs) // 2]:.0f} %, "
                  f"worst {100 * errs[-1]:.0f} %")


def main():
    data = rows()
    loaders = sorted({r["loader"] for r in data})
    check = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--check" else None
    catalog = {}
    if check:
        for entry in json.load(open(check))["loaders"]:
            catalog[entry["id"]] = entry
    for loader in loaders:
        mine = [r for r in data if r["loader"] == loader]
        if check:
            e = catalog[loader]
            warm = (e["warm"]["rank_GBps"], e["warm"]["node_GBps"])
            cold = (e["cold"]["rank_GBps"], e["cold"]["node_GBps"])
            report(loader, mine, warm, cold, e["overhead_s"])
        else:
            report(loader, mine, *fit(loader, mine))


if __name__ == "__main__":
    main()
