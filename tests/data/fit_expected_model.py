#!/usr/bin/env python3
"""Fits the expected collective model's parameters to the rows of
tests/data/collectives_extra.csv marked use=fit (standard library only).

Model (the same as src/collectives.cpp), times in microseconds:
  t = latency + tb + ramp_us * tb / (tb + ramp_us / slowdown)
  tb = wire_factor * S / (per_direction_bandwidth * efficiency)
Per link and algorithm: latency (total, for the GPU count of the rows) and efficiency.
Shared by every link: ramp_us (pipeline fill and drain paid by a large message) and
slowdown (how much slower the bandwidth term runs for small messages), fitted jointly on
the links of JOINT_LINKS; every other link fits its latency and efficiency with them fixed.

Objective: squared relative time errors; rows are grouped by regime (bandwidth term
below 20 us, above 2 ms, or between), each group's mean counts once and the
bandwidth-bound group three times (its bound, +-10 %, is the tightest).

Usage: python3 tests/data/fit_expected_model.py [tests/data/collectives_extra.csv]
"""
import csv
import math
import sys

PER_DIRECTION_GBPS = {"nvlink3": 300, "nvlink4": 450, "nvlink5": 900, "ib-ndr": 50,
                      "infinity-fabric": 448}
# Links whose rows fit the shared ramp and slowdown; the others take those as given and fit
# only their own latency and efficiency, so adding a link never moves the existing ones.
JOINT_LINKS = {"nvlink3", "nvlink4", "nvlink5", "ib-ndr"}
LATENCY_BOUND_US, BANDWIDTH_BOUND_US, BANDWIDTH_WEIGHT = 20.0, 2000.0, 3.0


def wire_factor(op, algo, n):
    if op == "all-reduce":
        return 1.0 if algo == "nvls" else 2.0 * (n - 1) / n
    if op in ("all-gather", "reduce-scatter", "all-to-all"):
        return (n - 1) / n
    return 1.0


def busbw_factor(op, n):
    return 2.0 * (n - 1) / n if op == "all-reduce" else ((n - 1) / n if op != "point-to-point" else 1.0)


def load(path):
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["use"] != "fit":
                continue
            n, size = int(row["gpus"]), float(row["size_bytes"])
            if row["time_us"]:
                t = float(row["time_us"])
            else:
                algbw = float(row["busbw_GBps"]) * 1e9 / busbw_factor(row["op"], n)
                t = size / algbw * 1e6
            key = (row["link"], row["algo"], n)
            w = wire_factor(row["op"], row["algo"], n)
            groups.setdefault(key, []).append((w * size / (PER_DIRECTION_GBPS[row["link"]] * 1e3), t))
    return groups  # rows of (wire bytes / bandwidth in us at efficiency 1, measured us)


def model(wire_us, latency, eff, ramp, slowdown):
    tb = wire_us / eff
    return latency + tb + ramp * tb / (tb + ramp / slowdown)


def objective(groups, x):
    ramp, slowdown = math.exp(x[0]), math.exp(x[1])
    total = 0.0
    for i, rows in enumerate(groups.values()):
        latency, eff = x[2 + 2 * i], x[3 + 2 * i]
        if latency < 0 or not 0.05 < eff <= 1.0:
            return float("inf")
        regimes = {}
        for wire_us, t in rows:
            tb = wire_us / eff
            r = 0 if tb < LATENCY_BOUND_US else (2 if tb > BANDWIDTH_BOUND_US else 1)
            err = (model(wire_us, latency, eff, ramp, slowdown) - t) / t
            regimes.setdefault(r, []).append(err * err)
        total += sum(sum(v) / len(v) * (BANDWIDTH_WEIGHT if r == 2 else 1.0) for r, v in regimes.items())
    return total


def nelder_mead(f, x0, iterations=20000):
    n = len(x0)
    points = [list(x0)] + [[x0[j] + (0.1 * abs(x0[j]) or 0.1) * (i == j) for j in range(n)] for i in range(n)]
    values = [f(p) for p in points]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=values.__getitem__)
        points, values = [points[i] for i in order], [values[i] for i in order]
        c = [sum(p[j] for p in points[:-1]) / n for j in range(n)]
        r = [2 * c[j] - points[-1][j] for j in range(n)]
        fr = f(r)
        if fr < values[0]:
            e = [3 * c[j] - 2 * points[-1][j] for j in range(n)]
            fe = f(e)
            points[-1], values[-1] = (e, fe) if fe < fr else (r, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = r, fr
        else:
            k = [(c[j] + points[-1][j]) / 2 for j in range(n)]
            fk = f(k)
            if fk < values[-1]:
                points[-1], values[-1] = k, fk
            else:
                for i in range(1, n + 1):
                    points[i] = [(points[0][j] + points[i][j]) / 2 for j in range(n)]
                    values[i] = f(points[i])
    best = min(range(n + 1), key=values.__getitem__)
    return points[best]


def fit(groups, shared=None):
    """Nelder-Mead from a common start; with `shared` (log ramp, log slowdown) fixed."""
    x = [] if shared else [math.log(100.0), math.log(1.0)]
    for _ in groups:
        x += [20.0, 0.75]
    f = (lambda p: objective(groups, list(shared) + p)) if shared else (lambda p: objective(groups, p))
    for _ in range(4):
        x = nelder_mead(f, x)
    return list(shared) + x if shared else x


def report(groups, x):
    for i, (link, algo, n) in enumerate(groups):
        latency, eff = x[2 + 2 * i], x[3 + 2 * i]
        steps = 2 * (n - 1)
        print(f"{link} {algo} n={n}: efficiency {eff:.4f}, latency {latency:.2f} us"
              f" (= {latency / steps:.3f} us per ring step over {steps} steps)")


def main():
    groups = load(sys.argv[1] if len(sys.argv) > 1 else "tests/data/collectives_extra.csv")
    joint = {k: v for k, v in groups.items() if k[0] in JOINT_LINKS}
    x = fit(joint)
    print(f"shared: ramp_us {math.exp(x[0]):.1f}, small_message_slowdown {math.exp(x[1]):.3f}")
    report(joint, x)
    for key, rows in groups.items():
        if key[0] not in JOINT_LINKS:
            report({key: rows}, fit({key: rows}, shared=x[:2]))


if __name__ == "__main__":
    main()
