#!/bin/sh
# Time and peak memory of icx at its documented limits (docs/output.md): the largest inputs
# each limit accepts, generated here. Every run should finish in at most 3 s and 300 MB on a
# two-core machine; a run over either is marked OVER and the script exits 1.
#   sh tests/bench/limits_bench.sh build/release/icx
set -eu
icx=${1:?usage: limits_bench.sh PATH/TO/icx}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
max_seconds=3
max_kib=$((300 * 1024))
status=0

# A --catalog overlay just under its 4 MiB limit: about 60,000 dtypes.
awk 'BEGIN {
  printf "{\"schema\": \"icx.catalog/1\", \"dtypes\": [";
  for (i = 0; i < 60000; i++)
    printf "%s{\"id\":\"d%d\",\"name\":\"D\",\"source\":\"s\",\"bytes_per_element\":2}",
      (i ? "," : ""), i;
  print "]}" }' > "$work/many.json"

# A measurements CSV just under its 4 MiB limit: the test rows, repeated.
csv="$here/../../data/measurements/collectives.csv"
head -n 1 "$csv" > "$work/rows.csv"
tail -n +2 "$csv" | awk -v limit=$((4 * 1024 * 1024)) -v used="$(wc -c < "$work/rows.csv")" '
  { row[n++] = $0 }
  END { for (i = 0; used + length(row[i % n]) + 1 < limit; i++) {
          print row[i % n]; used += length(row[i % n]) + 1 } }' >> "$work/rows.csv"

# An nccl-tests log just under its 2 MiB limit: the size rows of one run, repeated.
log="$here/../data/nccl-tests/nvl72-gb200-all_reduce.log"
lines=$(wc -l < "$log")
head -n $((lines - 2)) "$log" > "$work/big.log"
grep -E '^ +[0-9]' "$log" | awk -v limit=$((2 * 1024 * 1024 - 4096)) -v used="$(wc -c < "$work/big.log")" '
  { row[n++] = $0 }
  END { for (i = 0; used + length(row[i % n]) + 1 < limit; i++) {
          print row[i % n]; used += length(row[i % n]) + 1 } }' >> "$work/big.log"
tail -n 2 "$log" >> "$work/big.log"

run() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$icx" "$@" > /dev/null 2> "$work/stderr" || true
  # A failing command's line comes first ("Command exited with non-zero status 3").
  read -r seconds kib << EOF
$(tail -n 1 "$work/time")
EOF
  verdict=ok
  if awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }' || [ "$kib" -gt "$max_kib" ]; then
    verdict=OVER
    status=1
  fi
  printf '%-5s %6s s %6d MB  icx %s\n' "$verdict" "$seconds" $((kib / 1024)) "$*"
}

run links --catalog "$work/many.json"
run validate "$work/rows.csv"
run validate "$work/rows.csv" --json
run calibrate "$work/big.log" --wire nvlink5 --algo nvls --json
run plan --model 405b --ttft 10ms --tpot 1ms --rate 1000 --max-nodes 128
run plan --model 405b --ttft 10ms --tpot 1ms --rate 1000 --max-nodes 128 --disaggregate
run place --model 70b --system dgx-h100 --sweep tokens=1:1000:1 --json
run place --model 70b --system dgx-h100 --sweep tokens=1:1000:1
run tp --model 70b --sweep tokens=1:1000:1 --json
run tp --model 70b --sweep tokens=1:1000:1 --format csv
# 1,000 clusters near the largest --gpus, each with its hundreds of layouts.
run place --hidden 8192 --layers 120 --params 70e9 --gpu h100 --gpus-per-node 8 \
  --scale-out ib-ndr --sweep gpus=1040008:1048000:8 --json
run place --model 405b --gpu h100 --gpus-per-node 8 --scale-out ib-ndr --phase decode \
  --batch 4096 --context 8192 --sweep gpus=56008:64000:8 --json

# The largest sweeps, 100,000 points (issue targets: place within 10 s and 100 MB; tp and
# the others within a few seconds).
max_seconds=10
max_kib=$((100 * 1024))
run place --model 70b --system dgx-h100 --sweep tokens=1:100000:1 --json
run tp --model 70b --wire nvlink4 --sweep tokens=1:100000:1 --json
run tp --model 70b --sweep tokens=1:5000:1 --json
run offload --model 405b --system dgx-h100 --gpus 8 --context 4096 --sweep batch=1:100000:1 --json
run coldstart --model 70b --system dgx-h100 --sweep gpus=8:7992:8 --json
run collective all-reduce --size 1GiB --wire ib-ndr --sweep gpus=2:1000:1 --json

# A JSON or CSV sweep is written as it is computed: 1,000 points take no more memory than 10
# (within 2 MB: the allocator's slack).
peak_kib() {
  /usr/bin/time -f "%M" -o "$work/time" "$icx" "$@" > /dev/null 2> /dev/null
  tail -n 1 "$work/time"
}
for format in --json "--format csv"; do
  # shellcheck disable=SC2086 # the format is two words for CSV
  few=$(peak_kib place --model 70b --system dgx-h100 --sweep tokens=1:10:1 $format)
  # shellcheck disable=SC2086
  many=$(peak_kib place --model 70b --system dgx-h100 --sweep tokens=1:1000:1 $format)
  verdict=ok
  if [ "$many" -gt $((few + 2048)) ]; then
    verdict=OVER
    status=1
  fi
  printf '%-5s %6d MB for 10 points, %d MB for 1,000  icx place --sweep %s\n' "$verdict" \
    $((few / 1024)) $((many / 1024)) "$format"
done
exit $status
