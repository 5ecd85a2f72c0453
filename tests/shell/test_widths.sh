#!/usr/bin/env sh
# Every example the README and icx's help pages give, run as on a terminal COLUMNS wide (80
# and 120): no line of its standard output is wider than the terminal. Examples that write
# files (-o, --plot, >) or print JSON/CSV (never fitted) are left out, as are the help pages'
# own example lines that need files the repository does not have (they fail before printing).
#   test_widths.sh ICX README
set -eu
icx=$1
readme=$2
examples=$(mktemp)
trap 'rm -f "$examples"' EXIT
{
  sed -n 's/^\$ icx \(.*\)$/\1/p' "$readme"
  echo "--help"
  for sub in $("$icx" --help | sed -n '/^Subcommands:$/,/^$/ s/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    echo "$sub --help"
    "$icx" "$sub" --help | sed -n '/^Examples\{0,1\}:$/,/^$/ s/^  icx \([^(]*\).*/\1/p'
  done
} | grep -v -e '--json' -e '--format' -e ' -o ' -e '--plot' -e '>' | sort -u >"$examples"

failures=0
checked=0
for columns in 80 120; do
  while IFS= read -r args; do
    widest=$(COLUMNS=$columns sh -c "\"$icx\" $args" 2>/dev/null | python3 -c '
import sys
print(max((len(line) for line in sys.stdin.read().split("\n")), default=0))')
    checked=$((checked + 1))
    if [ "$widest" -gt "$columns" ]; then
      echo "FAIL: COLUMNS=$columns icx $args: a line of $widest columns"
      failures=$((failures + 1))
    fi
  done <"$examples"
done
[ "$checked" -gt 100 ] || { echo "FAIL: only $checked examples found"; exit 1; }
[ "$failures" -eq 0 ] || exit 1
echo "widths: all $checked checks passed"
