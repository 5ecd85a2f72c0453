#!/usr/bin/env sh
# --plot on tp and collective, drawn by the real gnuplot: the SVG's structure (series, dashes,
# axis titles, log axes, the measured points of an nccl-tests log), the PNG's signature, a
# rendering of the SVG in a headless browser where one is installed, and the failures: no
# gnuplot, a gnuplot that fails (no partial file), a name that is not .svg or .png.
#   test_plots.sh ICX DATA_DIR SCRATCH_DIR
# Exit status 77 (skipped) when gnuplot is not installed.
set -u
icx=$1
data=$2
scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot is not installed"; exit 77; }
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || fail "cannot enter $scratch"

# The acceptance chart: three wires, each expected (solid) and headline (dashed), and the
# compute of the pass (dotted), over prompt tokens on log axes.
"$icx" tp --model 70b --wire nvlink4,pcie5,ib-ndr --sweep tokens=256:65536:x2 --plot tp.svg \
  >out 2>err || fail "tp --plot: $(cat err)"
grep -q "^chart: tp.svg$" out || fail "tp --plot: no 'chart:' line"
python3 "$here/check_svg.py" tp.svg \
  --title "llama-3.1-70b: tensor-parallel all-reduce time per prefill pass" \
  --x-label "prompt tokens per sequence" --y-label "time per pass (s)" \
  --series "nvlink4 expected,nvlink4 headline,pcie5 expected,pcie5 headline,ib-ndr expected,ib-ndr headline,compute on 8 × h100-sxm" \
  --dashed "nvlink4 headline,pcie5 headline,ib-ndr headline,compute on 8 × h100-sxm" \
  --log-x --log-y --distinct || exit 1

# The README's picture is that chart, drawn by icx (regenerate it with the same command and
# --plot docs/tp-sweep.svg when the model changes).
python3 "$here/check_svg.py" "$data/../../docs/tp-sweep.svg" \
  --title "llama-3.1-70b: tensor-parallel all-reduce time per prefill pass" \
  --x-label "prompt tokens per sequence" --y-label "time per pass (s)" \
  --series "nvlink4 expected,nvlink4 headline,pcie5 expected,pcie5 headline,ib-ndr expected,ib-ndr headline,compute on 8 × h100-sxm" \
  --dashed "nvlink4 headline,pcie5 headline,ib-ndr headline,compute on 8 × h100-sxm" \
  --log-x --log-y || exit 1

# The same as PNG (gnuplot's cairo terminal).
"$icx" tp --model 70b --wire nvlink4,pcie5 --sweep tokens=256:65536:x2 --plot tp.png >/dev/null \
  2>err || fail "tp --plot tp.png: $(cat err)"
[ "$(head -c 8 tp.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "tp.png is not a PNG"

# busbw against size with a measured run's 15 points laid over it.
log="$data/nccl-tests/synthetic-two-regimes.log"
"$icx" collective all-reduce --size 8B:8GiB --gpus 8 --wire nvlink4 --measured "$log" \
  --plot busbw.svg >/dev/null 2>err || fail "collective --plot: $(cat err)"
python3 "$here/check_svg.py" busbw.svg --title "all-reduce over 8 GPUs on nvlink4" \
  --x-label "message size S (bytes)" --y-label "busbw (GB/s)" \
  --series "expected busbw,headline busbw,measured: $(basename "$log")" \
  --dashed "headline busbw" --points "measured: $(basename "$log")=15" --binary-x || exit 1
"$icx" collective all-reduce --size 8B:8GiB --gpus 8 --wire nvlink4 --measured "$log" \
  --plot busbw.png >/dev/null 2>err || fail "collective --plot png: $(cat err)"
[ -s busbw.png ] || fail "busbw.png not written"

# Time against GPUs: linear axes over 2 to 8.
"$icx" collective all-reduce --size 1GiB --sweep gpus=2:8:1 --wire nvlink4 --plot gpus.svg \
  >/dev/null 2>err || fail "collective --sweep gpus --plot: $(cat err)"
python3 "$here/check_svg.py" gpus.svg --x-label "GPUs in the group" --y-label "time (ms)" \
  --series "expected,headline" --dashed "headline" || exit 1

# A browser renders the SVG (where Debian's chromium is installed).
if command -v chromium >/dev/null; then
  timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=960,600 --screenshot="$scratch/tp-rendered.png" "file://$scratch/tp.svg" \
    >/dev/null 2>&1
  size=$(wc -c <tp-rendered.png 2>/dev/null || echo 0)
  [ "$size" -gt 20000 ] || fail "chromium's rendering of tp.svg is $size bytes"
fi

# Without gnuplot: tests/shell/test_sweep_plots.sh checks every command.

# A gnuplot that fails: exit status 2, no file, no partial output.
ICX_GNUPLOT=/bin/false "$icx" tp --model 70b --sweep tokens=256:1024 --plot failed.svg \
  >out 2>err
[ $? -eq 2 ] || fail "failing gnuplot: not exit status 2"
[ ! -s out ] || fail "failing gnuplot: stdout not empty"
grep -q "^icx: error: --plot: gnuplot failed" err || fail "failing gnuplot: '$(cat err)'"
[ ! -e failed.svg ] || fail "failing gnuplot: failed.svg written"
ls -a | grep -q "^\.failed" && fail "failing gnuplot: a temporary file was left"

echo "all checks passed"
