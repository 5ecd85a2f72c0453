#!/usr/bin/env python3
"""Fits each serving engine's own costs (data/catalog/engines.json "costs") to the fit rows of
data/measurements/serving.csv and reports the error on every row, fit and held-out.

The GPUs' part of a step comes from icx itself (icx place on the row's GPU, model, dtype and
tensor-parallel layout at batch 1, or at the row's batch), priced with every engine's costs at
zero; what an engine adds is then, for a model of L layers,
  TPOT = kernels of one decode step at the mean context (prompt + half the output)
         + step_us + L x layer_us
  TTFT = kernels of the prompt's prefill (its measured ones x prefill_pass_scale)
         + step_us + L x layer_us + request_us
and, for an offline benchmark_latency row (no server: no request_us),
  latency = prefill + output x decode step, each with its engine costs.
step_us and layer_us are the non-negative least-squares fit of the fit rows' relative TPOT
residuals; request_us and prefill_pass_scale that of the relative TTFT residuals (measured
TTFT less step_us + L x layer_us), the scale at least 1 (an engine's prefill pass runs every
kernel the tables time, and its norms, activations and sampling besides); where it would fall
below 1 it is 1 and request_us is the median of measured TTFT - the rest of the TTFT. The scale
multiplies only the part of the prefill priced by measured kernel curves (icx place --json:
step.measured_kernel_seconds), as icx applies it. Only GPUs with
measured kernel curves (h100-sxm, b200) are fitted on, so the residual is the engine's and not
the kernel model's. Rows are split fit / held-out by source (the `use` column).

A row at a concurrency C above 1 is a closed loop: C clients, each sending its next request
when the last one ends. icx simulates it (icx place --concurrency C, as many requests as the
benchmark sent where its source says, none left out) and its TTFT, TPOT (the statistic the row
reports) and output tokens/s are compared, with the engines' costs at zero and with the
shipped ones. Its output tokens/s at the measured TPOT ("tokens@tpot", the capacity a fleet is
sized by) is icx's closed loop with as many clients as keep icx's TPOT within the measured
one (with the shipped costs). An engine's TP t with expert
parallel e (TensorRT-LLM's moe_expert_parallel_size: the experts split e ways, each e-th tensor
split t / e ways) is icx's TP t / e x EP e on the same t GPUs.

A row whose `tuning` column names a GPU setup (the MI300X's stock image or AMD's recipe) is
priced at that --tuning, as its source ran it.

With --gpu G, only G's rows are reported (the costs are still fitted on every fit row), and
--icx-args adds flags to every icx command of G's rows: an assumption about G to try, such as
--hbm-fraction or --mfu, held against each source of G's rows (the last summary groups the rows
by source, the publisher before its first parenthesis, colon or comma).

Usage: python3 tools/fit/fit_engines.py BUILD_DIR/icx [--gpu mi300x [--icx-args "--mfu 0.25"]]
"""
import argparse
import csv
import functools
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
AMD = {"mi300x", "mi325x", "mi355x"}


def rows():
    with open(os.path.join(ROOT, "data", "measurements", "serving.csv"), newline="") as f:
        return [r for r in csv.DictReader(f) if r["use"] != "outside"]


def layers_by_model():
    with open(os.path.join(ROOT, "data", "catalog", "models.json")) as f:
        return {m["id"]: m["layers"] for m in json.load(f)["models"]}


def zero_cost_catalog():
    """The shipped engines with their costs at zero, as a --catalog overlay."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)
    for engine in engines["engines"]:
        # The costs fit_sequence_cost.py fits on many clients are kept: at one sequence the
        # per-sequence cost is part of what the step cost fitted here would otherwise absorb,
        # and the prefill step's of what the per-request time would (the two split one sum).
        kept = {k: engine["costs"][k] for k in ("sequence_us", "prefill_step_us")
                if k in engine["costs"]}
        engine["costs"] = {"step_us": 0, "layer_us": 0, "request_us": 0, **kept}
    out = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(engines, out)
    out.close()
    return out.name


def layout_args(row):
    """--tp and --ep of the row's layout, in icx's terms (see above)."""
    if not row["ep"]:
        return ["--tp", row["tp"]]
    return ["--tp", str(int(row["tp"]) // int(row["ep"])), "--ep", row["ep"]]


def icx_seconds(icx, overlay, row, phase, batch):
    """icx's TTFT (prefill) or TPOT (decode) of the row's layout at `batch`, and the part of
    its step priced by measured kernel curves, in seconds."""
    args = [icx, "place", "--model", row["model"], "--gpus", row["gpus"], "--gpu", row["gpu"],
            *layout_args(row), *dtype_args(row), "--engine", row["engine"],
            "--phase", phase, "--batch", str(batch), "--json", "--catalog", overlay,
            *row.get("icx_args", [])]
    prompt, output = mean_length(row, "input"), mean_length(row, "output")
    if phase == "prefill":
        args += ["--tokens", str(prompt)]
    else:
        args += ["--context", str(prompt + output // 2)]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)}: {out.stderr.strip()}")
    doc = json.loads(out.stdout)
    return (doc["ttft_seconds" if phase == "prefill" else "tpot_seconds"],
            doc["step"]["measured_kernel_seconds"])


def requests_of(row, concurrency):
    """The requests the row's benchmark sent (its `requests` column), else four per client (as
    Herdora's runs send) and at least vllm bench serve's default of 1000."""
    if row["requests"] and concurrency == int(row["concurrency"]):
        return int(row["requests"])
    return max(1000, 4 * concurrency)


def mean_length(row, key):
    """A row's mean prompt or output length: the nominal, or where the benchmark drew lengths
    uniformly from (1 - spread) x nominal to nominal (SGLang's bench_serving at its default
    --random-range-ratio 0: spread 1), its middle."""
    spread = float(row["spread"] or 0)
    return max(1, round(int(row[key]) * (1 - spread / 2)))


def dtype_args(row):
    """--dtype the row's, none where it is empty: the model's checkpoint as the catalog holds it
    (gpt-oss: bf16 with mxfp4 experts, which one dtype id cannot name)."""
    return ["--dtype", row["dtype"]] if row["dtype"] else []


def closed_loop_args(icx, row, concurrency):
    """icx place simulating the row's closed loop of `concurrency` clients as its benchmark
    sent it: its setup, lengths and spread, as many requests, every one counted (as the
    benchmark counts them) and its client's warm-up prompt."""
    args = [icx, "place", "--model", row["model"], "--gpus", row["gpus"], "--gpu", row["gpu"],
            *layout_args(row), *dtype_args(row), "--engine", row["engine"],
            "--concurrency", str(concurrency), "--input", row["input"], "--output", row["output"],
            "--requests", str(requests_of(row, concurrency)), "--warmup", "0", "--json",
            *client_args(row)]
    if row["spread"]:
        args += ["--spread", row["spread"]]
    if row.get("lengths"):
        args += ["--lengths", row["lengths"]]
    return args


def closed_loop(icx, overlay, row, concurrency=None):
    """TTFT, TPOT (s) and output tokens/s of the row's closed loop (closed_loop_args) in the
    statistic the row reports (mean or median); `overlay` None prices with the shipped
    engines' costs."""
    args = closed_loop_args(icx, row, concurrency or int(row["concurrency"]))
    if overlay:
        args += ["--catalog", overlay]
    args += row.get("icx_args", [])
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)}: {out.stderr.strip()}")
    sim = json.loads(out.stdout)["simulation"]
    stat = "p50" if row["stat"] == "median" else "mean"
    return {"ttft": sim["ttft"][stat], "tpot": sim["tpot"][stat],
            "tokens": sim["output_tokens_per_second"]}


def at_measured_tpot(icx, row, tpot):
    """Output tokens/s of the closed loop whose TPOT, priced with the shipped costs, is the
    row's measured `tpot`: the most clients (bisected) whose TPOT stays within it, and the
    tokens/s interpolated to the target between that count and the next. 0 when one client
    already misses it."""
    def loop(c):
        return closed_loop(icx, None, row, c)

    low = loop(1)
    if low is None or low["tpot"] > tpot:
        return 0.0
    lo, hi = 1, 2
    high = loop(hi)
    while high is not None and high["tpot"] <= tpot and hi < 4096:
        lo, low, hi = hi, high, hi * 2
        high = loop(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        m = loop(mid)
        if m is not None and m["tpot"] <= tpot:
            lo, low = mid, m
        else:
            hi, high = mid, m
    if high is None or high["tpot"] <= low["tpot"]:
        return low["tokens"]
    share = (tpot - low["tpot"]) / (high["tpot"] - low["tpot"])
    return low["tokens"] + share * (high["tokens"] - low["tokens"])


def kernels(icx, overlay, row):
    batch = int(row["batch"] or row["concurrency"] or 1)
    ttft, measured_prefill = icx_seconds(icx, overlay, row, "prefill", batch)
    return {"ttft": ttft, "measured_prefill": measured_prefill,
            "tpot": icx_seconds(icx, overlay, row, "decode", batch)[0], "batch": batch}


def is_closed_loop(row):
    return bool(row["concurrency"]) and int(row["concurrency"]) > 1


def measured(row):
    """Measured TTFT and TPOT (s) where the row gives them, an offline run's latency, and a
    closed loop's output tokens/s."""
    ms = lambda key: float(row[key]) / 1e3 if row[key] else None
    offline = row["tool"] in ("benchmark_latency.py", "trtllm-bench") and row["e2e_s"]
    tokens = float(row["output_tok_s"]) if is_closed_loop(row) and row["output_tok_s"] else None
    return {"ttft": ms("ttft_ms"), "tpot": ms("tpot_ms"),
            "latency": float(row["e2e_s"]) if offline else None, "tokens": tokens,
            "tokens@tpot": tokens if tokens and row["tpot_ms"] else None}


def least_squares(points):
    """(a, b) >= 0 minimising the sum over points (x, r, m) of ((a + b x - r) / m)^2: the
    residual r of a row with x layers (or x seconds of prefill kernels), relative to its
    measured time m."""
    def cost(ab):
        return sum(((ab[0] + ab[1] * x - r) / m) ** 2 for x, r, m in points)

    def solve(free_a, free_b):
        s11 = sum(1 / m ** 2 for _, _, m in points)
        s1x = sum(x / m ** 2 for x, _, m in points)
        sxx = sum(x * x / m ** 2 for x, _, m in points)
        s1r = sum(r / m ** 2 for _, r, m in points)
        sxr = sum(x * r / m ** 2 for x, r, m in points)
        if free_a and free_b:
            det = s11 * sxx - s1x * s1x
            if det > 0:
                return ((s1r * sxx - sxr * s1x) / det, (sxr * s11 - s1r * s1x) / det)
            free_b = False
        if free_a:
            return (max(0.0, s1r / s11), 0.0)
        return (0.0, max(0.0, sxr / sxx))

    a, b = solve(True, True)
    if a < 0 or b < 0:
        a, b = min([solve(True, False), solve(False, True)], key=cost)
    return a, b


def fit(engine, data):
    fit_rows = [d for d in data if d["row"]["engine"] == engine and d["row"]["use"] == "fit"
                and not is_closed_loop(d["row"])]
    points = [(d["layers"], d["measured"]["tpot"] - d["kernels"]["tpot"], d["measured"]["tpot"])
              for d in fit_rows if d["measured"]["tpot"] is not None]
    if not points:
        return None
    step, layer = least_squares(points)
    # The scale multiplies the prefill's measured kernels: less 1, their coefficient.
    prompts = [(d["kernels"]["measured_prefill"],
                d["measured"]["ttft"] - d["kernels"]["ttft"] - step - layer * d["layers"],
                d["measured"]["ttft"]) for d in fit_rows if d["measured"]["ttft"] is not None]
    request, more = least_squares(prompts) if prompts else (0.0, 0.0)
    if more <= 0:
        request = max(0.0, statistics.median(r for _, r, _ in prompts)) if prompts else 0.0
    scale = 1.0 + more
    return {"step": step, "layer": layer, "request": request, "prefill_pass_scale": scale,
            "rows": len(fit_rows)}


def predicted(d, costs):
    if "loop" in d:
        loop = dict(d["loop"][1 if costs else 0] or {})
        if costs and "tokens@tpot" in d:
            loop["tokens@tpot"] = d["tokens@tpot"]
        return loop
    k = d["kernels"]
    output = int(d["row"]["output"])
    step = costs["step"] + costs["layer"] * d["layers"] if costs else 0.0
    request = costs["request"] if costs else 0.0
    scale = costs["prefill_pass_scale"] if costs else 1.0
    prefill = k["ttft"] + k["measured_prefill"] * (scale - 1)
    return {"ttft": prefill + step + request, "tpot": k["tpot"] + step,
            "latency": prefill + step + output * (k["tpot"] + step)}


def publisher(row):
    """Who published the row: its source text before the first parenthesis, colon or comma."""
    return re.split(r"[(:,]", row["source"], maxsplit=1)[0].strip()


def report(data, costs):
    groups, sources = {}, {}
    print(f"{'engine':7} {'use':8} {'gpu':9} {'model':15} {'tp':>2} {'in':>6} {'out':>5} "
          f"{'b':>3} {'metric':7} {'measured':>9} {'kernels':>9} {'with costs':>10}")
    for d in data:
        r = d["row"]
        c = costs.get(r["engine"])
        with_costs, bare = predicted(d, c), predicted(d, None)
        for metric, value in d["measured"].items():
            if value is None or metric not in with_costs:
                continue
            err_bare = bare[metric] / value - 1 if metric in bare else float("nan")
            err = with_costs[metric] / value - 1
            vendor = "amd" if r["gpu"] in AMD else "nvidia"
            groups.setdefault((r["engine"], r["use"], vendor, metric), []).append((err_bare, err))
            sources.setdefault((publisher(r)[:40], r["use"], metric), []).append((err_bare, err))
            shown = value if metric.startswith("tokens") else value * 1e3
            print(f"{r['engine']:7} {r['use']:8} {r['gpu']:9} {r['model']:15} {r['tp']:>2} "
                  f"{r['input']:>6} {r['output']:>5} {d['kernels']['batch']:>3} {metric:7} "
                  f"{shown:9.2f} {err_bare:+9.1%} {err:+10.1%}")
    print("\nmedian |error| (signed median) before -> after the engine costs:")
    for key in sorted(groups):
        errs = groups[key]
        before = statistics.median(abs(e[0]) for e in errs)  # nan: priced with costs only
        after = statistics.median(abs(e[1]) for e in errs)
        signed = statistics.median(e[1] for e in errs)
        print(f"  {' '.join(key):32} n={len(errs):2}  {before:6.1%} -> {after:6.1%}  "
              f"({signed:+.1%})")
    print("\nby source, median |error| (signed median) with the engine costs:")
    for key in sorted(sources):
        errs = [e[1] for e in sources[key]]
        print(f"  {' / '.join(key):64} n={len(errs):3}  "
              f"{statistics.median(abs(e) for e in errs):6.1%}  ({statistics.median(errs):+.1%})")


def names_tuning(args):
    """Whether `args` give --tuning themselves (as one word or two)."""
    return any(a == "--tuning" or a.startswith("--tuning=") for a in args)


# Clients that send the run's first prompt once before it (vLLM's benchmarks/serve.py initial
# test prompt, SGLang's bench_serving warm-up): that request finds its prompt cached.
WARMING_TOOLS = {"vllm bench serve", "bench_serving"}


@functools.cache
def engines_with_prefix_cache():
    """The catalog's engine ids and aliases whose entry keeps a prefix cache."""
    with open(os.path.join(ROOT, "data", "catalog", "engines.json")) as f:
        engines = json.load(f)["engines"]
    return {name for e in engines if "prefix_cache" in e
            for name in [e["id"], *e.get("aliases", [])]}


def client_args(row):
    """--warm-prompts 1 where the row's benchmark client warmed the first prompt up and the
    engine keeps a prefix cache for it to land in (icx refuses the flag otherwise)."""
    warmed = row.get("tool") in WARMING_TOOLS and row["engine"] in engines_with_prefix_cache()
    return ["--warm-prompts", "1"] if warmed else []


def with_tuning(row, extra):
    """`extra` after the row's --tuning (the GPU setup its source ran), unless `extra` names
    one itself."""
    if row["tuning"] and not names_tuning(extra):
        return ["--tuning", row["tuning"], *extra]
    return extra


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("icx")
    parser.add_argument("--gpu")
    parser.add_argument("--icx-args", default="")
    args = parser.parse_args()
    if args.icx_args and not args.gpu:
        parser.error("--icx-args needs --gpu: the fit rows are priced as shipped")
    icx = args.icx
    overlay = zero_cost_catalog()
    layers = layers_by_model()
    try:
        data = []
        for r in rows():
            if args.gpu and r["gpu"] != args.gpu and r["use"] != "fit":
                continue
            r["icx_args"] = with_tuning(r, shlex.split(args.icx_args) if r["gpu"] == args.gpu
                                        else [])
            d = {"row": r, "measured": measured(r), "layers": layers[r["model"]]}
            if is_closed_loop(r):
                d["loop"] = (closed_loop(icx, overlay, r), closed_loop(icx, None, r))
                d["kernels"] = {"batch": int(r["concurrency"])}
                if d["measured"]["tokens@tpot"]:
                    d["tokens@tpot"] = at_measured_tpot(icx, r, d["measured"]["tpot"])
            else:
                d["kernels"] = kernels(icx, overlay, r)
            data.append(d)
    finally:
        os.unlink(overlay)
    costs = {}
    for engine in sorted({d["row"]["engine"] for d in data}):
        c = fit(engine, data)
        if c:
            costs[engine] = c
            print(f"{engine}: step_us {c['step'] * 1e6:.0f}, layer_us {c['layer'] * 1e6:.1f}, "
                  f"request_us {c['request'] * 1e6:.0f}, "
                  f"prefill_pass_scale {c['prefill_pass_scale']:.3f} "
                  f"({c['rows']} fit rows)")
    report([d for d in data if not args.gpu or d["row"]["gpu"] == args.gpu], costs)


if __name__ == "__main__":
    main()
