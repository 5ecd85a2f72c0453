#!/bin/sh
# One model, two commands: the winner of `icx plan` (a 70B model at TPOT 50 ms), evaluated by
# `icx place` with the same system, node count, layout and load, meets the targets by the same
# TTFT and TPOT, to the last digit of the JSON: by the closed form (--fast, with the plan's
# requests in flight) and by the simulation (the plan's p99 TTFT and mean TPOT are those of
# place's simulation of the same layout).
#   test_plan_place.sh ICX
set -eu
icx=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
load="--model 70b --input 2048 --output 256 --rate 5"
# shellcheck disable=SC2086
"$icx" plan $load --ttft 2s --tpot 50ms --fast --json >"$scratch/plan_fast.json"
# shellcheck disable=SC2086
"$icx" plan $load --ttft p99:2s --tpot 50ms --json >"$scratch/plan.json"
layout() {
  python3 - "$1" "$2" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["winner"]
l = w["layout"]
batch = f' --batch {w["batch"]}' if sys.argv[2] == "batch" else ""
print(f'--system {w["system"]} --gpus {w["gpus"]} --tp {l["tp"]} --pp {l["pp"]} '
      f'--ep {l["ep"]} --dp {l["dp"]}{batch}')
PY
}
# shellcheck disable=SC2086
"$icx" place $load $(layout "$scratch/plan_fast.json" batch) --fast --json >"$scratch/place_fast.json"
# shellcheck disable=SC2086
"$icx" place $load $(layout "$scratch/plan.json" none) --json >"$scratch/place.json"
python3 - "$scratch" <<'PY'
import json, os, sys
scratch = sys.argv[1]
read = lambda name: json.load(open(os.path.join(scratch, name)))
failures = 0
fast, placed_fast = read("plan_fast.json"), read("place_fast.json")["load"]
winner = fast["winner"]
for key in ("batch", "ttft_seconds", "tpot_seconds"):
    if winner[key] != placed_fast[key]:
        print(f"--fast {key}: plan {winner[key]!r}, place {placed_fast[key]!r}")
        failures += 1
targets = fast["targets"]
if not (placed_fast["ttft_seconds"] <= targets["ttft_seconds"] and
        placed_fast["tpot_seconds"] <= targets["tpot_seconds"]):
    print("icx place --fast says the winner misses the targets")
    failures += 1
plan, simulated = read("plan.json"), read("place.json")["simulation"]
winner = plan["winner"]
for key, figure in (("ttft_seconds", simulated["ttft"]["p99"]),
                    ("tpot_seconds", simulated["tpot"]["mean"])):
    if winner[key] != figure:
        print(f"simulated {key}: plan {winner[key]!r}, place {figure!r}")
        failures += 1
if winner["simulation"]["ttft"] != simulated["ttft"]:
    print("the plan's simulation is not place's")
    failures += 1
print(f'{winner["system"]}: TTFT p99 {winner["ttft_seconds"]:.4f} s, '
      f'TPOT {winner["tpot_seconds"]:.4f} s')
if failures == 0:
    print("all checks passed")
PY
