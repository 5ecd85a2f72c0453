#!/bin/sh
# One model, two commands: the winner of `icx plan` (a 70B model at TPOT 50 ms), evaluated by
# `icx place` with the same system, node count, layout, requests in flight and load, meets
# the targets by the same TTFT and TPOT, to the last digit of the JSON.
#   test_plan_place.sh ICX
set -eu
icx=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
load="--model 70b --input 2048 --output 256 --rate 5"
# shellcheck disable=SC2086
"$icx" plan $load --ttft 2s --tpot 50ms --json >"$scratch/plan.json"
args=$(python3 - "$scratch/plan.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["winner"]
l = w["layout"]
print(f'--system {w["system"]} --gpus {w["gpus"]} --tp {l["tp"]} --pp {l["pp"]} '
      f'--ep {l["ep"]} --dp {l["dp"]} --batch {w["batch"]}')
PY
)
# shellcheck disable=SC2086
"$icx" place $load $args --json >"$scratch/place.json"
python3 - "$scratch/plan.json" "$scratch/place.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
winner = plan["winner"]
placed = json.load(open(sys.argv[2]))["load"]
failures = 0
for key in ("batch", "ttft_seconds", "tpot_seconds"):
    if winner[key] != placed[key]:
        print(f"{key}: plan {winner[key]!r}, place {placed[key]!r}")
        failures += 1
targets = plan["targets"]
if not (placed["ttft_seconds"] <= targets["ttft_seconds"] and
        placed["tpot_seconds"] <= targets["tpot_seconds"]):
    print("icx place says the winner misses the targets")
    failures += 1
print(f'{winner["system"]}: TTFT {placed["ttft_seconds"]:.4f} s, TPOT {placed["tpot_seconds"]:.4f} s')
if failures == 0:
    print("all checks passed")
PY
