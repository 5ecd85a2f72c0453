#!/usr/bin/env sh
# Output that cannot be written: a full device is exit status 1 with the system's reason on
# stderr; a reader that closed the pipe ends icx quietly (status 141, or 0 when the output
# fit in the pipe before the reader left); a stderr that cannot be written changes nothing.
#   test_stdout_errors.sh ICX SCRATCH_DIR
set -u
icx=$1
scratch=$2
mkdir -p "$scratch"
fail() { echo "FAIL: $*"; exit 1; }
full_reason="icx: error: cannot write output: No space left on device"

if [ -w /dev/full ]; then
  for args in "tp --model 70b" "tp --model 70b --json" "links" \
              "tp --help"; do
    # shellcheck disable=SC2086 # the arguments are meant to split
    "$icx" $args >/dev/full 2>"$scratch/err"
    status=$?
    [ "$status" -eq 1 ] || fail "icx $args > /dev/full: exit status $status, expected 1"
    [ "$(cat "$scratch/err")" = "$full_reason" ] ||
      fail "icx $args > /dev/full: stderr '$(cat "$scratch/err")', expected '$full_reason'"
  done
  # stderr full or closed too: still the right status, no abort.
  "$icx" tp --model 70b --wire bogus 2>/dev/full
  [ $? -eq 2 ] || fail "bad input with stderr on /dev/full: expected exit status 2"
  "$icx" tp --model 70b >/dev/full 2>/dev/full
  [ $? -eq 1 ] || fail "stdout and stderr on /dev/full: expected exit status 1"
else
  echo "no writable /dev/full: full-device checks skipped"
fi
"$icx" tp --model 70b --wire bogus 2>&-
[ $? -eq 2 ] || fail "bad input with stderr closed: expected exit status 2"

# The reader has left before icx writes: the write fails with EPIPE.
{ sleep 1; "$icx" tp --model 70b --json 2>"$scratch/err"; echo $? >"$scratch/status"; } | true
[ "$(cat "$scratch/status")" -eq 141 ] ||
  fail "closed pipe: exit status $(cat "$scratch/status"), expected 141"
[ ! -s "$scratch/err" ] || fail "closed pipe: stderr '$(cat "$scratch/err")', expected nothing"

# The reader leaves after one line.
{ "$icx" tp --model 70b 2>"$scratch/err"; echo $? >"$scratch/status"; } | head -1 >/dev/null
status=$(cat "$scratch/status")
[ "$status" -eq 141 ] || [ "$status" -eq 0 ] || fail "| head -1: exit status $status"
[ ! -s "$scratch/err" ] || fail "| head -1: stderr '$(cat "$scratch/err")', expected nothing"

echo "stdout errors: all checks passed"
