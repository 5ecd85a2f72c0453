#!/usr/bin/env python3
"""Extracts MI300X GEMM kernel times from a published ROCm tuning table into the rows of
data/measurements/kernels/gemm.csv (gpu,engine,version,kernel,dtype,m,n,k,latency_ms, one GEMM
C[m×n] = A[m×k] · W[n×k]ᵀ), or checks the catalog's curve against them.

Two table formats are read; the source file is not in this repository (the README of
data/measurements/ names where each comes from):
  aiter      ROCm aiter's tuned-GEMM configurations (aiter/configs/*_tuned_gemm*.csv): one row
             per shape and CU count, cu_num,M,N,K,...,us,...; `us` is the chosen kernel's time
             in µs. Only rows of --cu compute units (304: MI300X and MI325X) are kept.
  tunableop  PyTorch TunableOp results (tunableop_results<N>.csv): Validator lines, then
             GemmTunableOp_<dtype>_TN,tn_<n>_<m>_<k>,<solution>,<ms>. The BLAS call of a linear
             layer is column-major, so its m is the layer's output width n and its n the tokens.
             Only the TN (linear-layer) GEMMs of one dtype are kept; a shape TunableOp could not
             time (inf) is skipped.
The values are copied unchanged (µs shifted to ms). By default the rows kept are those whose m
is a power of two, a multiple of 32 up to 256, or at least 512 (--m lists them instead).

Usage:
  python3 tools/fit/extract_rocm_gemm.py aiter|tunableop SOURCE.csv --dtype fp8 --version V
      --kernel K [--engine vllm] [--cu 304] [--m 1,16,...]  >> data/measurements/kernels/gemm.csv
  python3 tools/fit/extract_rocm_gemm.py ... --check data/catalog/gpus.json
      (the extracted rows held out: prints the median |error| of the catalog's mi300x curve)

The shipped rows (data/measurements/README.md names the sources):
  ... aiter a8w8_tuned_gemm.csv --dtype fp8 --version aiter-fbb52dd --kernel aiter.gemm_a8w8_CK
      --m 1,16,32,64,128,256,512,1024,2048,4096,8192,16384
  ... tunableop tunableop_results0.csv --dtype fp16 --version rocm-6.0.0
      --kernel TunableOp:hipBLASLt/rocBLAS
and the held-out check: ... aiter a8w8_bpreshuffle_tuned_gemm_300.csv --dtype fp8 --version -
      --kernel - --check data/catalog/gpus.json
"""
import argparse
import csv
import os
import statistics
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_gemm import SPEC, predict  # noqa: E402
from kernel_fit import dtype_bytes  # noqa: E402

GPU = "mi300x"
TUNABLEOP_DTYPES = {"Half": "fp16", "BFloat16": "bf16", "Float": "fp32"}


def default_m(m):
    return m & (m - 1) == 0 or (m <= 256 and m % 32 == 0) or m >= 512


def aiter_rows(path, cu):
    """(m, n, k, latency in ms as text) of each row of `cu` compute units."""
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["cu_num"]) == cu:
                ms = Decimal(row["us"]).scaleb(-3)
                yield int(row["M"]), int(row["N"]), int(row["K"]), format(ms, "f")


def tunableop_rows(path, dtype):
    with open(path, newline="") as f:
        for line in csv.reader(f):
            if not line or line[0] == "Validator":
                continue
            op, signature, _solution, ms = line[:4]
            kind, _, layout = op.removeprefix("GemmTunableOp_").rpartition("_")
            if layout != "TN" or TUNABLEOP_DTYPES.get(kind) != dtype or ms == "inf":
                continue
            n, m, k = (int(x) for x in signature.split("_")[1:4])
            yield m, n, k, ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("format", choices=["aiter", "tunableop"])
    parser.add_argument("source")
    parser.add_argument("--dtype", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--engine", default="vllm")
    parser.add_argument("--cu", type=int, default=304)
    parser.add_argument("--m", help="comma-separated m to keep (default: see above)")
    parser.add_argument("--check", metavar="GPUS_JSON")
    args = parser.parse_args()

    keep = default_m
    if args.m:
        wanted = {int(x) for x in args.m.split(",")}
        keep = wanted.__contains__
    source = (aiter_rows(args.source, args.cu) if args.format == "aiter"
              else tunableop_rows(args.source, args.dtype))
    rows = sorted({r for r in source if keep(r[0])}, key=lambda r: (r[1], r[2], r[0]))
    if not rows:
        sys.exit(f"{args.source}: no rows kept")
    if args.check:
        return check(rows, args)
    out = csv.writer(sys.stdout, lineterminator="\n")
    for m, n, k, ms in rows:
        out.writerow([GPU, args.engine, args.version, args.kernel, args.dtype, m, n, k, ms])
    print(f"{len(rows)} rows", file=sys.stderr)
    return 0


def check(rows, args):
    """The median |error| of the catalog's mi300x curve for args.dtype on the rows."""
    import json
    with open(args.check) as f:
        gpu = {g["id"]: g for g in json.load(f)["gpus"]}[GPU]
    curve = gpu.get("gemm", {}).get(args.dtype)
    if curve is None:
        sys.exit(f"{args.check}: {GPU} has no {args.dtype} GEMM curve")
    p = [curve[name] for name in SPEC["params"]]
    width = dtype_bytes()[args.dtype]
    errors = [predict(p, {"m": m, "n": n, "k": k, "dtype": args.dtype}, gpu, width)
              / (float(ms) * 1e-3) - 1 for m, n, k, ms in rows]
    print(f"{GPU} {args.dtype}: {len(rows)} rows held out, median |error| "
          f"{statistics.median(abs(e) for e in errors):.1%}, median error "
          f"{statistics.median(errors):+.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
