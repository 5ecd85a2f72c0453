#!/usr/bin/env sh
# icx calibrate -o: never replaces an input, says why a target cannot be written, and leaves
# no partial or temporary file behind.
#   test_safe_writes.sh ICX NCCL_LOG SCRATCH_DIR
set -u
icx=$1
log=$2
scratch=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch/sub"
cp "$log" "$scratch/run.log"
cd "$scratch" || fail "cannot enter $scratch"

# The log as output, spelled differently: refused, the log unchanged.
"$icx" calibrate run.log --wire nvlink5 --algo nvls -o sub/../run.log >out 2>err
status=$?
[ "$status" -eq 2 ] || fail "-o the input log: exit status $status, expected 2"
grep -q "^icx: error: -o sub/../run.log: is also an input (run.log)" err ||
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
grep -q "is also an input (fit.json)" err || fail "-o a --catalog file: stderr '$(cat err)'"
cmp -s fit.json fit.before || fail "-o a --catalog file: the catalog was changed"

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
