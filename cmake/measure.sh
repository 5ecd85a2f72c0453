#!/usr/bin/env bash
# Whole-process cost of one icx run: median wall time and peak RSS over N runs (default
# 100) of the release binary, measured with /usr/bin/time -v.
#   bash cmake/measure.sh [N] [icx arguments...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
runs=${1:-100}
shift || true
args=("$@")
if ((${#args[@]} == 0)); then args=(tp --model 70b --tokens 4096); fi
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
cmake --preset release >/dev/null && cmake --build --preset release >/dev/null
walls=()
rss=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  report=$( { /usr/bin/time -v ./build/release/icx "${args[@]}" >/dev/null; } 2>&1)
  end=$(date +%s%N)
  walls+=($(((end - start) / 1000)))
  rss+=($(awk -F': ' '/Maximum resident set size/ {print $2}' <<<"$report"))
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
max() { printf '%s\n' "$@" | sort -n | tail -n 1; }
echo "icx ${args[*]}: $runs runs"
echo "  median wall time: $(median "${walls[@]}") µs (includes /usr/bin/time's own start-up)"
echo "  peak RSS: median $(median "${rss[@]}") KB, max $(max "${rss[@]}") KB"
