#!/bin/sh
# A vllm bench serve result file round-trips: calibrate --serving on the 4 requests/s run of
# Llama-3.3-70B on 8 × A100 (tests/golden/serving), then validate --serving with the overlay
# it wrote on the 16 requests/s run of the same setup, held out: its mean and median TTFT and
# TPOT within 10 % of what that run measured.
#   test_serving_round_trip.sh ICX SERVING_DIR
set -eu
icx=$1
runs=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
setup="--model 70b --system aws-p4d --tp 8 --spread 1 --lengths lognormal"
# shellcheck disable=SC2086
"$icx" calibrate --serving "$runs/vllm_llama33_70b_tp8_a100_qps_04.json" $setup \
  -o "$scratch/overlay.json" >/dev/null
# shellcheck disable=SC2086
"$icx" validate --serving "$runs/vllm_llama33_70b_tp8_a100_qps_16.json" $setup \
  --catalog "$scratch/overlay.json" --json >"$scratch/held_out.json"
python3 - "$scratch/held_out.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
failures = 0
for check in run["latencies"]:
    name = f'{check["latency"]} {check["statistic"]}'
    if check["latency"] in ("TTFT", "TPOT") and check["statistic"] in ("mean", "p50"):
        if abs(check["error"]) > 0.10:
            print(f"held out: {name} off by {check['error']:+.1%}, more than 10 %")
            failures += 1
sys.exit(1 if failures else 0)
PY
