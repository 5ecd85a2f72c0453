#!/usr/bin/env sh
# No file icx writes (calibrate -o, topo -o, report -o, every --plot) replaces a file it
# reads: same inode, however spelled or linked. calibrate -o also says why a target cannot be
# written and leaves no partial or temporary file behind.
#   test_safe_writes.sh ICX NCCL_LOG HF_CONFIG TOPO_FILE SCRATCH_DIR
set -u
icx=$1
log=$2
hf=$3
topo=$4
scratch=$5
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch/sub"
cp "$log" "$scratch/run.log"
cd "$scratch" || fail "cannot enter $scratch"

# The log as output, spelled differently: refused, the log unchanged.
"$icx" calibrate run.log --wire nvlink5 --algo nvls -o sub/../run.log >out 2>err
status=$?
[ "$status" -eq 2 ] || fail "-o the input log: exit status $status, expected 2"
grep -q "^icx: error: -o sub/../run.log: is also an input (LOG run.log)" err ||
  fail "-o the input log: stderr '$(cat err)'"
cmp -s run.log "$log" || fail "-o the input log: the log was changed"
[ ! -s out ] || fail "-o the input log: stdout not empty"

# A --catalog file as output: refused too.
"$icx" calibrate run.log --wire nvlink5 --algo nvls -o fit.json >/dev/null 2>err ||
  fail "first calibration failed: $(cat err)"
cp fit.json fit.before
"$icx" calibrate run.log --wire nvlink5 --algo nvls --catalog fit.json -o ./fit.json \
  >/dev/null 2>err
[ $? -eq 2 ] || fail "-o a --catalog file: not refused"
grep -q "is also an input (--catalog fit.json)" err || fail "-o a --catalog file: stderr '$(cat err)'"
cmp -s fit.json fit.before || fail "-o a --catalog file: the catalog was changed"

# refused WRITER_FLAGS... -- INPUT EXPECTED: the command exits 2 naming both files, writes
# nothing to stdout, and INPUT keeps its bytes.
refused() {
  input=$1
  expected=$2
  shift 2
  cp "$input" before
  "$icx" "$@" >out 2>err
  status=$?
  [ "$status" -eq 2 ] || fail "$*: exit status $status, expected 2"
  grep -q "is also an input ($expected)" err || fail "$*: stderr '$(cat err)'"
  [ "$(wc -l <err)" -eq 1 ] || fail "$*: more than one line on stderr"
  [ ! -s out ] || fail "$*: stdout not empty"
  cmp -s "$input" before || fail "$*: $input was changed"
}

# Every writer against every kind of input, and through a symbolic link to the input.
cp "$hf" c.html
refused c.html "--hf-config c.html" report --hf-config c.html --system dgx-h100 -o c.html
cp fit.json cat.html
refused cat.html "--catalog cat.html" report --model 70b --system dgx-h100 --catalog cat.html \
  -o cat.html
ln -s c.html link.html
refused c.html "--hf-config c.html" report --hf-config c.html --system dgx-h100 -o link.html
cp fit.json c.svg
refused c.svg "--catalog c.svg" tp --model 70b --wire nvlink4 --sweep tokens=256:1024:x2 \
  --catalog c.svg --plot c.svg
cp "$log" m.svg
refused m.svg "--measured m.svg" collective all-reduce --wire nvlink5 --gpus 72 \
  --sweep size=1MiB:1GiB:x4 --measured m.svg --plot m.svg
cp "$hf" h.svg
refused h.svg "--hf-config h.svg" coldstart --hf-config h.svg --sweep gpus=1:8:x2 --plot h.svg
cp "$topo" node.txt
refused node.txt "FILE node.txt" topo node.txt --gpu h100 -o ./node.txt
refused fit.json "--catalog fit.json" topo node.txt --gpu h100 --catalog fit.json -o fit.json

# An empty name.
"$icx" calibrate run.log --wire nvlink5 --algo nvls -o "" >/dev/null 2>err
[ $? -eq 2 ] || fail "-o '': not refused"
[ "$(cat err)" = "icx: error: -o: empty file name; give the path of the file to write" ] ||
  fail "-o '': stderr '$(cat err)'"

# An unwritable directory (skipped as root, who may write anywhere).
if [ "$(id -u)" -ne 0 ]; then
  mkdir locked && chmod 555 locked
  "$icx" calibrate run.log --wire nvlink5 --algo nvls -o locked/fit.json >/dev/null 2>err
  [ $? -eq 2 ] || fail "-o in a read-only directory: not refused"
  grep -q "Permission denied" err || fail "-o in a read-only directory: stderr '$(cat err)'"
  chmod 755 locked
fi

# Nothing but what the steps above wrote: no temporary file left over.
leftover=$(find . -name '.*.json.*' | head -1)
[ -z "$leftover" ] || fail "temporary file left: $leftover"

# The written overlay is a catalog the other commands accept.
"$icx" collective all-reduce --size 1GiB --gpus 72 --wire nvlink5 --algo nvls \
  --catalog fit.json >/dev/null 2>err || fail "the overlay is not accepted: $(cat err)"

echo "safe writes: all checks passed"
