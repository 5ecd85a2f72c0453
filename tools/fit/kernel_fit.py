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


def dtype_table():
    with open(os.path.join(ROOT, "data", "catalog", "dtypes.json")) as f:
        return {d["id"]: d for d in json.load(f)["dtypes"]}


def dtype_bytes():
    return {dtype: d["bytes_per_element"] for dtype, d in dtype_table().items()}


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


def check_shipped(fitted, path, section, fitted_engine=FITTED_ENGINE):
    """Exits non-zero unless every fitted figure matches the catalog in `path`: the fitted
    engine's at gpus[id][section][key], another engine's at gpus[id]["engine_curves"][engine]
    [section][key]."""
    with open(path) as f:
        shipped = {g["id"]: g for g in json.load(f)["gpus"]}
    for (gpu, key, engine), figures in fitted.items():
        if "curves_from" in shipped[gpu]:
            print(f"{gpu} {section} {key} {engine}: the catalog prices it by "
                  f"{shipped[gpu]['curves_from']}'s curves (curves_from); its own fit is above")
            continue
        entry = shipped[gpu]
        if section not in entry:
            print(f"{gpu} {section} {key} {engine}: not shipped, its fit is above "
                  "(data/measurements/README.md says why)")
            continue
        if engine != fitted_engine:
            entry = entry.get("engine_curves", {}).get(engine, {})
        have = entry.get(section, {}).get(key, {})
        for name, value in figures.items():
            if not math.isclose(have.get(name, math.nan), value, rel_tol=0.02, abs_tol=0.05):
                sys.exit(f"{gpu} {section} {key} {engine} {name}: catalog {have.get(name)}, "
                         f"fit {value}")
    print(f"{path}: every fitted {section} figure matches")


def finish(fitted, section, worst, bound, fitted_engine=FITTED_ENGINE):
    """After a fit: --check PATH compares `fitted` with the catalog (check_shipped); the exit
    status is 0 while the worst fitted median |error| is within `bound`."""
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        check_shipped(fitted, sys.argv[2], section, fitted_engine)
    return 0 if worst <= bound else 1


def fit_curve(label, rows, model, spec):
    """Fits `model` to `rows` from spec's start, steps and bounds, rounds each parameter to
    spec["rounding"][name] places, and returns (figures by name, median |error| on the rows)."""
    p = pattern_search(lambda q: log_loss(model, q, rows), spec["start"], spec["steps"],
                       spec["lower"], spec["upper"])
    figures = {n: round(v, spec["rounding"][n]) for n, v in zip(spec["params"], p)}
    return figures, median_error(model, [figures[n] for n in spec["params"]], rows)


def curve_dtype(gpu, dtype, dtypes):
    """The dtype whose curve prices `dtype`'s kernels on `gpu`, as icx's kernel_dtype picks it:
    a block-scaled dtype (nvfp4) by its compute_as (fp4) where the GPU has that peak."""
    as_ = dtypes[dtype].get("compute_as")
    return as_ if as_ and dtype not in gpu["dense_tflops"] and as_ in gpu["dense_tflops"] else dtype


def fit_by_kernel_dtype(rows_file, predict, spec, section, bound):
    """fit_all over data/measurements/kernels/rows_file with one curve per GPU and kernel dtype
    (curve_dtype: nvfp4's rows fit the fp4 curve), each row priced by
    predict(p, row, gpu, peak dtype, the row's own bytes per element)."""
    gpus, dtypes = catalog_gpus(), dtype_table()

    def curve_for(key):
        gpu = gpus[key[0]]
        return (lambda p, r: predict(p, r, gpu, key[1],
                                     dtypes[r["dtype"]]["bytes_per_element"])), spec

    def key_of(r):
        return r["gpu"], curve_dtype(gpus[r["gpu"]], r["dtype"], dtypes)

    return fit_all(rows_file, ("gpu", "dtype"), curve_for, section, bound, key_of=key_of)


def fit_all(rows_file, columns, curve_for, section, bound, fitted_engine=FITTED_ENGINE,
            key_of=None):
    """Fits one curve per distinct (gpu, `columns[1]`) and engine of
    data/measurements/kernels/rows_file (or per key_of(row) where given): the fitted engine's
    (vLLM's unless `fitted_engine` names another) is the GPU's default, each other engine's its
    own (engine_curves) where it prices that engine's rows better or the fitted engine has no
    rows of that curve (an engine-only dtype). curve_for(key) gives its (model, spec); prints
    each curve's error on its engine's rows and the default curve's on the same rows, checks
    the catalog under --check (`section`), and returns the exit status (finish)."""
    data = kernel_rows(rows_file)
    key_of = key_of or (lambda r: tuple(r[c] for c in columns))
    fitted, worst = {}, 0.0
    print(f"{'gpu':10} {columns[1]:7} {'engine':7} {'rows':>5} {'median |error|':>15}  "
          f"{'by the ' + fitted_engine + ' curve':>18}")
    for key in sorted({key_of(r) for r in data}):
        mine = [r for r in data if key_of(r) == key]
        model, spec = curve_for(key)
        default = None
        engines = sorted({r["engine"] for r in mine}, key=lambda e: (e != fitted_engine, e))
        for engine in engines:
            rows = [r for r in mine if r["engine"] == engine]
            figures, error = fit_curve(key, rows, model, spec)
            if engine == fitted_engine:
                default = [figures[n] for n in spec["params"]]
            by_default = f"{median_error(model, default, rows):18.1%}" if default else ""
            # Another engine's own curve is kept where it prices its rows better than the
            # default's, or where there is no default; the exit status holds the default
            # curves and the engine-only ones to `bound`.
            kept = engine == fitted_engine or default is None or error < median_error(
                model, default, rows)
            print(f"{key[0]:10} {key[1]:7} {engine:7} {len(rows):5} {error:15.1%}  {by_default}"
                  f"{'' if kept else '  (not kept: the default curve is closer)'}")
            if kept:
                print("           " + json.dumps(figures))
                fitted[key + (engine,)] = figures
            if engine == fitted_engine or default is None:
                worst = max(worst, error)
    return finish(fitted, section, worst, bound, fitted_engine)
