#!/bin/sh
# Rewrites the expected output of the golden cases whose names match a regular expression,
# from the real binary in a configured build folder, then prints what changed.
#   tests/golden/update.sh <build dir> <case regex>
#   tests/golden/update.sh build/release '^tp_'
# Review every line of the diff before committing: a golden file states what users see.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 <build dir> <case regex>   (e.g. $0 build/release '^tp_')" >&2
  exit 2
fi
build=$1
# The regex matches case names; a leading ^ anchors it at the start of the name.
pattern=${2#^}
here=$(cd "$(dirname "$0")" && pwd)
cmake -DICX_UPDATE_GOLDEN=ON "$build" >/dev/null
status=0
ctest --test-dir "$build" -R "^golden\.($pattern)" --output-on-failure -j2 >/dev/null || status=$?
cmake -DICX_UPDATE_GOLDEN=OFF "$build" >/dev/null
git -C "$here" diff --stat -- .
exit $status
