#!/usr/bin/env python3
"""Fits the expert-parallel kernel figures in data/catalog/links.json (expected.expert_parallel
of nvlink4-400 and ib-ndr) to the use=fit rows of data/measurements/expert_parallel.csv, and prints
every row's prediction against the published time.

The model (include/icx/wire/expert_parallel.hpp), per GPU and MoE layer, T tokens, bytes b per
token, g GPUs per node, N nodes, n = g N GPUs:
  normal (DeepEP's high-throughput kernels): a token goes once to each node holding one of
    its experts, then over NVLink to each GPU there: network bytes T D_n (1 - 1/N) b,
    NVLink bytes T D_r (1 - 1/g) b, with D_n, D_r the expected distinct nodes and GPUs.
  low-latency: one copy per chosen expert, straight to its GPU: network T k (1 - g/n) b,
    NVLink T k (g - 1)/n b.
  time = latency + max(network / (nics B_out e_out / g), nvlink / (B_up e_up)).
The normal kernels' latency is taken from the low-latency fit of the same operation:
DeepEP publishes them at one token count, which cannot separate a latency from a rate.
"""
import csv
import math
import os

MEASUREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "measurements")
B_UP = {"nvlink4-400": 200e9, "nvlink4": 450e9}
# One NVLink 4 point per kernel cannot separate a latency from a rate; its step latency
# (data/catalog/links.json) stands in.
NVLINK4_STEP = 2.12e-6
B_OUT = {"ib-ndr": 50e9}


def miss(m_total, m_unit, k):
    """Probability that k experts drawn without replacement from m_total miss m_unit."""
    p = 1.0
    for i in range(k):
        p *= max(0.0, (m_total - m_unit - i) / (m_total - i))
    return p


def touched(experts, units, k, groups, groups_per_token):
    """Probability that one unit (node or GPU) of `units` equal contiguous blocks is touched."""
    unit = experts / units
    group = experts / groups
    cand = groups_per_token * group
    if groups_per_token >= groups:
        return 1 - miss(experts, unit, k)
    if unit >= group:
        q = round(unit / group)
        total = 0.0
        for j in range(0, min(q, groups_per_token) + 1):
            h = math.comb(q, j) * math.comb(groups - q, groups_per_token - j) / math.comb(groups, groups_per_token)
            total += h * (1 - miss(cand, j * group, k))
        return total
    return groups_per_token / groups * (1 - miss(cand, unit, k))


def rows():
    with open(os.path.join(MEASUREMENTS, "expert_parallel.csv")) as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines))


def token_bytes(r):
    h = int(r["hidden"])
    return h + h / 128 * 4 if r["op"] == "dispatch" else 2 * h


def shape(r):
    n, g, experts, k = int(r["ep"]), int(r["gpus_per_node"]), int(r["experts"]), int(r["topk"])
    nodes = n // g
    groups, per_token = 1, 1
    if r["routing"].startswith("nodes:"):
        groups, per_token = nodes, min(nodes, int(r["routing"].split(":")[1]))
    d_n = nodes * touched(experts, nodes, k, groups, per_token)
    d_r = n * touched(experts, n, k, groups, per_token)
    return n, g, nodes, k, d_n, d_r


def traffic(r):
    n, g, nodes, k, d_n, d_r = shape(r)
    t, b = int(r["tokens_per_gpu"]), token_bytes(r)
    if r["mode"] == "normal":
        return t * d_n * (1 - 1 / nodes) * b, t * d_r * (1 - 1 / g) * b
    return t * k * (1 - g / n) * b, t * k * (g - 1) / n * b


def measured(r):
    if r["unit"] == "us":
        return float(r["published"]) * 1e-6
    n, g, nodes, k, d_n, d_r = shape(r)
    logical = int(r["tokens_per_gpu"]) * token_bytes(r) * (d_n if r["unit"].endswith("rdma") else d_r)
    return logical / (float(r["published"]) * 1e9)


def linear_fit(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def main():
    data = rows()
    params = {}
    for op in ("dispatch", "combine"):
        ll_out = [r for r in data if r["use"] == "fit" and r["mode"] == "low-latency" and r["op"] == op and r["scale_out"]]
        lat, slope = linear_fit([traffic(r)[0] for r in ll_out], [measured(r) for r in ll_out])
        per_gpu = B_OUT["ib-ndr"] * int(ll_out[0]["nics_per_node"]) / int(ll_out[0]["gpus_per_node"])
        params[("low-latency", op, "ib-ndr")] = (1 / slope / per_gpu, lat)
        for mode in ("low-latency", "normal"):
            for r in data:
                if r["use"] != "fit" or r["mode"] != mode or r["op"] != op:
                    continue
                net, nvl = traffic(r)
                if r["scale_out"]:
                    rate = net / (measured(r) - lat)
                    params.setdefault((mode, op, "ib-ndr"), []).append(rate / per_gpu) if mode == "normal" else None
                else:
                    up = r["scale_up"]
                    up_lat = lat if up == "nvlink4-400" else NVLINK4_STEP
                    params[(mode, op, up)] = (nvl / (measured(r) - up_lat) / B_UP[up], up_lat)
            key = (mode, op, "ib-ndr")
            if isinstance(params.get(key), list):
                params[key] = (sum(params[key]) / len(params[key]), lat)
    for key, (eff, lat) in sorted(params.items()):
        print(f"{key[2]:12s} {key[0]:12s} {key[1]:8s} efficiency {eff:.3f} latency {lat * 1e6:.1f} us")
    print()
    for r in data:
        net, nvl = traffic(r)
        lat_eff = []
        t = 0.0
        if r["scale_out"]:
            eff, lat = params[(r["mode"], r["op"], "ib-ndr")]
            t = max(t, lat + net / (eff * B_OUT["ib-ndr"] * int(r["nics_per_node"]) / int(r["gpus_per_node"])))
        eff, lat = params[(r["mode"], r["op"], r["scale_up"])]
        t = max(t, lat + nvl / (eff * B_UP[r["scale_up"]]))
        m = measured(r)
        print(f"{r['source']:17s} {r['gpu']:5s} ep {r['ep']:>3s} T {r['tokens_per_gpu']:>5s} {r['mode']:11s} {r['op']:8s} "
              f"measured {m * 1e6:7.1f} us predicted {t * 1e6:7.1f} us error {100 * (t / m - 1):+6.1f} % ({r['use']})")


if __name__ == "__main__":
    main()
