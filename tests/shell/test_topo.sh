#!/bin/sh
# icx topo on the published outputs of ../shared/topo (read in place), end to end:
# - a DGX H100 matrix written as a catalog system places a 70B model as dgx-h100 does;
# - an 8-GPU two-socket PCIe node: the farthest path is SYS, every GPU its own domain, and the
#   expected all-reduce over all 8 GPUs is slower than over the 4 of one socket;
# - 4 A30s in NVLink-bridged pairs on two sockets: TP 2 lands on a bridged pair;
# - a matrix cut short is one line naming the line and column, exit 2.
#   test_topo.sh ICX FIXTURES   (exit 77: no fixtures)
set -eu
icx=$1
fixtures=$2
[ -d "$fixtures" ] || { echo "no topology fixtures at $fixtures"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$icx" topo "$fixtures/hgx-h100-13nic-ib-eth.txt" --system dgx-h100 -o "$scratch/mine.json" \
  --id mine --json >"$scratch/dgx.json"
"$icx" place --model 70b --system dgx-h100 --json | sed 's/"dgx-h100"/"S"/' >"$scratch/a.json"
"$icx" place --model 70b --catalog "$scratch/mine.json" --system mine --json |
  sed 's/"mine"/"S"/' >"$scratch/b.json"
cmp -s "$scratch/a.json" "$scratch/b.json" || fail "place on the DGX overlay differs from dgx-h100"

"$icx" topo "$fixtures/8x-rtxa5000-pcie-savio4.txt" --pcie pcie4 --json >"$scratch/savio.json"
"$icx" topo "$fixtures/4xa30-nv4-bridge-pairs-1nic.txt" --gpu a30 --pcie pcie4 --scale-out roce \
  -o "$scratch/a30.json" --id a30-node >/dev/null
"$icx" place --model 8b --catalog "$scratch/a30.json" --system a30-node --json >"$scratch/a30-place.json"
python3 - "$scratch" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
dgx = json.load(open(f"{d}/dgx.json"))
assert dgx["scale_up_domains"] == [list(range(8))], dgx["scale_up_domains"]
assert all(p["path"] == "NV18" for p in dgx["pairs"]) and len(dgx["pairs"]) == 28
pix = [n for n in dgx["nics"] if n["path"] == "PIX"]
assert sorted(g for n in pix for g in n["nearest_gpus"]) == list(range(8)), pix
assert all(len(n["nearest_gpus"]) == 1 for n in pix), "one GPU per rail NIC"
s = json.load(open(f"{d}/savio.json"))
assert s["worst_pcie_path"] == "SYS"
assert max(len(x) for x in s["scale_up_domains"]) == 1
c = s["socket_crossing"]
assert c["whole_node"]["gpus"] == 8 and c["within_socket"]["gpus"] == 4
assert c["whole_node"]["seconds"] > c["within_socket"]["seconds"]
p = json.load(open(f"{d}/a30-place.json"))
assert p["layout"]["tp"] == 2 and p["rank"] == 1, (p["layout"], p["rank"])
tensor = [x for x in p["strategies"] if x["strategy"] == "tensor"][0]
assert tensor["wire"] == "nvlink3-bridge", tensor
PY

head -3 "$fixtures/aws-p5-48xlarge-8xH100.txt" >"$scratch/cut.txt"
if "$icx" topo "$scratch/cut.txt" 2>"$scratch/err"; then fail "a truncated matrix was accepted"; else
  [ $? -eq 2 ] || fail "a truncated matrix did not exit 2"; fi
[ "$(wc -l <"$scratch/err")" -eq 1 ] || fail "more than one line of error"
grep -q "line [0-9]*, column [0-9]*" "$scratch/err" || fail "no line and column: $(cat "$scratch/err")"
echo "all checks passed"
