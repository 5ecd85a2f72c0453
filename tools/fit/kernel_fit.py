"""What tools/fit/fit_gemm.py and tools/fit/fit_attention.py share: the catalog they read, the
measured kernel rows under data/measurements/kernels/, the loss, the search and the check of
the shipped figures against a fresh fit."""
import csv
import json
import math
import os
import statistics
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# The engine whose rows are fitted; the other engines' rows are held out.
FITTED_ENGINE = "vllm"


def catalog_gpus():
    with open(os.path.join(ROOT, "data", "catalog", "gpus.json")) as f:
        return {g["id"]: g for g in json.load(f)["gpus"]}


def dtype_bytes():
    with open(os.path.join(ROOT, "data", "catalog", "dtypes.json")) as f:
        return {d["id"]: d["bytes_per_element"] for d in json.load(f)["dtypes"]}


def kernel_rows(name):
    path = os.path.join(ROOT, "data", "measurements", "kernels", name)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def measured(row):
    return float(row["latency_ms"]) * 1e-3


def log_loss(predict, p, data):
    """Mean |log(predicted / measured)|: a few noisy rows do not pull the curve."""
    return statistics.fmean(abs(math.log(predict(p, r) / measured(r))) for r in data)


def pattern_search(loss, start, steps, lower, upper):
    """Each parameter stepped both ways while that helps, the steps halved twelve times."""
    p, best = list(start), loss(start)
    steps = list(steps)
    for _ in range(12):
        improved = True
        while improved:
            improved = False
            for i in range(len(p)):
                for sign in (1, -1):
                    q = list(p)
                    q[i] = min(upper[i], max(lower[i], q[i] + sign * steps[i]))
                    trial = loss(q)
                    if trial < best - 1e-12:
                        p, best, improved = q, trial, True
        steps = [s / 2 for s in steps]
    return p


def median_error(predict, p, data):
    return statistics.median(abs(predict(p, r) / measured(r) - 1) for r in data)


def check_shipped(fitted, path, section):
    """Exits non-zero unless every fitted figure matches gpus[id][section][key] in `path`."""
    with open(path) as f:
        shipped = {g["id"]: g for g in json.load(f)["gpus"]}
    for (gpu, key), figures in fitted.items():
        have = shipped[gpu].get(section, {}).get(key, {})
        for name, value in figures.items():
            if not math.isclose(have.get(name, math.nan), value, rel_tol=0.02, abs_tol=0.05):
                sys.exit(f"{gpu} {section} {key} {name}: catalog {have.get(name)}, fit {value}")
    print(f"{path}: every fitted {section} figure matches")


def finish(fitted, section, worst, bound):
    """After a fit: --check PATH compares `fitted` with the catalog (check_shipped); the exit
    status is 0 while the worst fitted median |error| is within `bound`."""
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        check_shipped(fitted, sys.argv[2], section)
    return 0 if worst <= bound else 1
