#!/usr/bin/env sh
# Under a locale that is not UTF-8, everything icx prints (tables, derivations, bars, JSON,
# CSV, help, errors) is ASCII: no byte of 0x80 or above on stdout or stderr.
#   test_ascii_locale.sh ICX LOG_DIR
set -u
icx=$1
logs=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
check() {
  env -u LC_ALL -u LC_CTYPE LANG=C "$icx" "$@" >"$out" 2>&1
  high=$(tr -d '\000-\177' <"$out" | wc -c)
  if [ "$high" -ne 0 ]; then
    echo "FAIL: icx $* printed $high bytes >= 0x80:"
    grep -n "$(printf '[\200-\377]')" "$out" | head -n 5
    status=1
  fi
}
check tp --model 70b --tokens 4096 --explain
check tp --model 70b --tokens 4096 --json --explain
check tp --model 70b --tokens 4096 --format csv
check place --model 405b --system dgx-h100 --gpus 32 --explain
check collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --explain
check collective all-reduce --gpus 8 --wire nvlink4
check coldstart --model 70b --dtype fp8 --gpus 8 --from nvme-gen4 --budget 30 --explain
check offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --explain
check calibrate "$logs/a3mega-h100-16gpu-all_reduce.log" --scale-up nvlink4 --scale-out gcp-tcpxo \
  --nics-per-node 8
check validate
check links
check gpus
check models
check systems
check storage
check dtypes
check --help
check coldstart --help
check collective --help
check tp --model 70b --wire pcie6
check calibrate "$logs/a100-sendrecv-trimmed.log" --wire nvlink4
[ "$status" -eq 0 ] && echo "ascii locale: all checks passed"
exit "$status"
