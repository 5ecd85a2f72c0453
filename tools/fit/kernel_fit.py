"""What tools/fit/fit_gemm.py, fit_attention.py and fit_moe.py share: the catalog they read, the
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
        if "curves_from" in shipped[gpu]:
            print(f"{gpu} {section} {key}: the catalog prices it by {shipped[gpu]['curves_from']}'s "
                  "curves (curves_from); its own fit is printed above")
            continue
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


def fit_curve(label, mine, model, spec):
    """Fits `model` to the fitted engine's rows of `mine` from spec's start, steps and bounds,
    rounds each parameter to spec["rounding"][name] places, prints the error on the fitted rows
    and on each held-out engine's, and returns (figures by name, fitted median |error|)."""
    fit_rows = [r for r in mine if r["engine"] == FITTED_ENGINE]
    p = pattern_search(lambda q: log_loss(model, q, fit_rows), spec["start"], spec["steps"],
                       spec["lower"], spec["upper"])
    figures = {n: round(v, spec["rounding"][n]) for n, v in zip(spec["params"], p)}
    p = [figures[n] for n in spec["params"]]
    fit_error = median_error(model, p, fit_rows)
    held = ", ".join(
        f"{e} {median_error(model, p, [r for r in mine if r['engine'] == e]):.1%}"
        for e in sorted({r["engine"] for r in mine} - {FITTED_ENGINE}))
    print(f"{label:18} {len(fit_rows):5} fit {fit_error:13.1%}  held out: {held}")
    print("           " + json.dumps(figures))
    return figures, fit_error


def fit_all(rows_file, columns, curve_for, section, bound):
    """Fits one curve per distinct (gpu, `columns[1]`) of data/measurements/kernels/rows_file
    that has rows of the fitted engine:
    curve_for(key) gives its (model, spec); prints a table of the errors, checks the catalog
    under --check (`section`), and returns the exit status (finish)."""
    data = kernel_rows(rows_file)
    fitted, worst = {}, 0.0
    print(f"{'gpu':10} {columns[1]:7} {'rows':>5} {'median |error|':>17}  held-out rows (engines)")
    for key in sorted({tuple(r[c] for c in columns) for r in data}):
        mine = [r for r in data if tuple(r[c] for c in columns) == key]
        if not any(r["engine"] == FITTED_ENGINE for r in mine):
            print(f"{key[0]:10} {key[1]:7} {0:5} not fitted: no {FITTED_ENGINE} rows, "
                  f"{len(mine)} rows of other engines")
            continue
        model, spec = curve_for(key)
        fitted[key], error = fit_curve(f"{key[0]:10} {key[1]:7}", mine, model, spec)
        worst = max(worst, error)
    return finish(fitted, section, worst, bound)
