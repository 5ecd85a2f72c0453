#!/bin/sh
# No source or header of the core or the command line grows past 400 lines: a file that does
# is doing two jobs. Usage: test_file_sizes.sh SOURCE_ROOT
root=$1
limit=400
fail=0
for file in $(find "$root/src" "$root/include" -name '*.[ch]pp' | sort); do
  lines=$(wc -l <"$file")
  if [ "$lines" -gt $limit ]; then
    echo "${file#"$root"/}: $lines lines, over $limit"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
