#!/usr/bin/env sh
# icx coldstart, offload and place --sweep with --plot: the SVG is well-formed XML with the
# axis titles and one legend entry per series, told apart by colour, dashes or markers (place:
# the chosen layout first and drawn heavier, at most --top others), a .png name gives a PNG,
# and without gnuplot --plot is refused before anything is printed. Exits 77 (skipped) where
# gnuplot is absent.
#   test_sweep_plots.sh ICX
set -u
icx=$1
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/icx-sweep-plots.XXXXXX") || fail "mktemp"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || fail "cannot enter $scratch"

well_formed() {
  python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
    fail "$1: not well-formed XML"
}

# has_text FILE TEXT: TEXT appears in the SVG.
has_text() {
  grep -qF -- "$2" "$1" || fail "$1: no '$2'"
}

# series FILE TITLE...: each title is a legend entry, and the chart has that many series.
series() {
  file=$1
  shift
  for title in "$@"; do
    count=$(grep -cF -- ">$title<" "$file")
    [ "$count" -ge 1 ] || fail "$file: no legend entry '$title'"
  done
  plots=$(grep -c 'id="gnuplot_plot_[0-9]*"' "$file")
  [ "$plots" -eq $# ] || fail "$file: $plots series drawn, expected $#"
}

# Cold start: one solid series per loader, the floor dashed, the budget as a level.
"$icx" coldstart --model 70b --from nvme-gen4 --sweep gpus=1:64 --budget 60 --plot cold.svg \
  >out 2>err || fail "coldstart --plot cold.svg: $(cat err)"
grep -q "^chart: cold.svg$" out || fail "coldstart --plot: no 'chart:' line"
well_formed cold.svg
has_text cold.svg "GPUs loading the model"
has_text cold.svg "time to load (s)"
series cold.svg vllm-default fastsafetensors runai-streamer tensorizer \
  "floor (headline lower bound)" "budget 60 s"

# Offload: per host link the expected and headline step, and the step with everything in HBM.
"$icx" offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --context 8192 \
  --sweep batch=1:64 --plot offload.svg >out 2>err || fail "offload --plot offload.svg: $(cat err)"
well_formed offload.svg
has_text offload.svg "sequences per decode step (batch)"
has_text offload.svg "time per decode step (s)"
series offload.svg "pcie5 expected" "pcie5 headline" "nvlink-c2c expected" \
  "nvlink-c2c headline" "all in HBM (no offload)"

# No two series drawn alike.
python3 "$here/check_svg.py" cold.svg --x-label "GPUs loading the model" \
  --y-label "time to load (s)" --dashed "floor (headline lower bound),budget 60 s" --distinct ||
  exit 1
python3 "$here/check_svg.py" offload.svg --x-label "sequences per decode step (batch)" \
  --y-label "time per decode step (s)" --dashed "pcie5 headline,nvlink-c2c headline,all in HBM (no offload)" \
  --distinct || exit 1

# Place over prompt lengths: the layout chosen at every length (from the JSON rows) is the
# first series, drawn heavier and named in the title; at most --top others.
"$icx" place --model 70b --system dgx-h100 --phase prefill --sweep tokens=1k:32k:x2 --top 4 \
  --plot place.svg >out 2>err || fail "place --plot place.svg: $(cat err)"
"$icx" place --model 70b --system dgx-h100 --phase prefill --sweep tokens=1k:32k:x2 --top 4 \
  --json >place.json 2>err || fail "place --json: $(cat err)"
chosen=$(python3 -c 'import json,sys
names = {r["name"] for r in json.load(open(sys.argv[1]))["rows"] if r["chosen"]}
print(names.pop() if len(names) == 1 else "")' place.json)
[ -n "$chosen" ] || fail "place.json: not one layout chosen at every length"
python3 "$here/check_svg.py" place.svg --x-label "prompt tokens per sequence" --y-label "TTFT (s)" \
  --first "$chosen" --heavy "$chosen" --at-most 5 --title-contains "heavy line: $chosen, chosen" \
  --distinct || exit 1

# Place over cluster sizes: a different layout at each size, so the heavy line joins the
# chosen one of each; 3 others at most, not one dot per layout ever ranked.
"$icx" place --model deepseek-v3 --system dgx-h200 --sweep gpus=8:64:x2 --top 3 \
  --plot place-gpus.svg >out 2>err || fail "place --sweep gpus --plot: $(cat err)"
python3 "$here/check_svg.py" place-gpus.svg --x-label "GPUs in the cluster" --y-label "TTFT (ms)" \
  --first "chosen layout" --heavy "chosen layout" --at-most 4 \
  --title-contains "heavy line: the layout chosen at each point" --distinct || exit 1

# A .png name gives a PNG.
"$icx" offload --model 70b --gpu h100 --batch 8 --sweep context=1024:65536 --plot ctx.png \
  >/dev/null 2>err || fail "offload --plot ctx.png: $(cat err)"
[ "$(head -c 8 ctx.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "ctx.png: not a PNG"
"$icx" coldstart --model 70b --sweep gpus=1:8 --plot cold.png >/dev/null 2>err ||
  fail "coldstart --plot cold.png: $(cat err)"
[ "$(head -c 8 cold.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "cold.png: not a PNG"

# Without gnuplot: exit 2, one line saying to install gnuplot-nox, nothing on stdout, no file.
for command in "tp --model 70b --sweep tokens=256:1024" \
  "collective all-reduce --size 8B:1MiB --gpus 8 --wire nvlink4" \
  "coldstart --model 70b --sweep gpus=1:8" \
  "offload --model 70b --gpu h100 --context 8192 --sweep batch=1:8"; do
  # shellcheck disable=SC2086 # the command is split into words on purpose
  ICX_GNUPLOT=/nonexistent "$icx" $command --plot missing.svg >out 2>err
  status=$?
  [ "$status" -eq 2 ] || fail "$command without gnuplot: exit $status, expected 2"
  [ ! -s out ] || fail "$command without gnuplot: stdout not empty"
  [ "$(wc -l <err)" -eq 1 ] || fail "$command without gnuplot: $(wc -l <err) stderr lines"
  grep -q "gnuplot-nox" err || fail "$command without gnuplot: stderr '$(cat err)'"
  [ ! -e missing.svg ] || fail "$command without gnuplot: wrote missing.svg"
done

echo "all checks passed"
