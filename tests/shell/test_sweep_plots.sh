#!/usr/bin/env sh
# icx coldstart --sweep and icx offload --sweep with --plot: the SVG is well-formed XML with the
# axis titles and one legend entry per series, a .png name gives a PNG, and without gnuplot
# --plot is refused before anything is printed. Exits 77 (skipped) where gnuplot is absent.
#   test_sweep_plots.sh ICX
set -u
icx=$1
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
