#!/bin/sh
# The folders are stacked: a source or header includes only its own folder and the folders
# listed before it (src/CMakeLists.txt's icx_core_folders for the core, below util;
# src/cli/CMakeLists.txt's icx_cli_folders for the command line, above the whole core). The
# core never includes the command line. Usage: test_layers.sh SOURCE_ROOT
root=$1
fail=0

folders() { # the folder list of CMakeLists.txt $1, variable $2
  sed -n "s/^set($2 \(.*\))$/\1/p" "$1"
}
core="util $(folders "$root/src/CMakeLists.txt" icx_core_folders)"
cli=$(folders "$root/src/cli/CMakeLists.txt" icx_cli_folders)
[ -n "$core" ] && [ -n "$cli" ] || { echo "no folder lists in src/CMakeLists.txt"; exit 1; }

rank() { # the position of folder $1 in list $2, empty when absent
  i=0
  for f in $2; do
    [ "$f" = "$1" ] && { echo $i; return; }
    i=$((i + 1))
  done
}

# check FILE OWN_RANK LIST PATTERN: every include matched by PATTERN (a sed expression that
# prints the included folder) names a folder of LIST ranked at or below OWN_RANK.
check() {
  for used in $(sed -n "$4" "$1"); do
    r=$(rank "$used" "$3")
    [ -n "$r" ] || continue
    if [ "$r" -gt "$2" ]; then
      echo "upward include: ${1#"$root"/} includes $used/"
      fail=1
    fi
  done
}

core_include='s|^#include "icx/\([a-z_]*\)/.*|\1|p'
private_include='s|^#include "\([a-z_]*\)/.*|\1|p'
for folder in $core; do
  own=$(rank "$folder" "$core")
  for file in "$root/include/icx/$folder"/*.hpp "$root/src/$folder"/*.[ch]pp; do
    [ -f "$file" ] || continue
    check "$file" "$own" "$core" "$core_include"
    check "$file" "$own" "$core" "$private_include"
    if grep -q '^#include "\(cli\|commands\|options\|views\|sweeps\|page\|output\)/' "$file"; then
      echo "the core includes the command line: $file"
      fail=1
    fi
  done
done
for folder in $cli; do
  own=$(rank "$folder" "$cli")
  for file in "$root/src/cli/$folder"/*.[ch]pp; do
    [ -f "$file" ] || continue
    check "$file" "$own" "$cli" "$private_include"
  done
done
[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
