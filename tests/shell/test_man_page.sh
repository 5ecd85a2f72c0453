#!/usr/bin/env sh
# Checks the generated man page: a section per subcommand icx lists, and (where groff is
# installed) no warnings when it is formatted.
#   test_man_page.sh ICX MAN_PAGE
set -eu
icx=$1
page=$2
subcommands=$("$icx" --help | sed -n '/^Subcommands:$/,/^$/ s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[ -n "$subcommands" ] || { echo "FAIL: no subcommands in icx --help"; exit 1; }
for subcommand in $subcommands; do
  grep -q "^\.SS \"icx $subcommand\"" "$page" || { echo "FAIL: no section for $subcommand"; exit 1; }
done
grep -q '^\.TH ICX 1 ' "$page" || { echo "FAIL: no .TH line"; exit 1; }
for section in "EXIT STATUS" ENVIRONMENT; do
  grep -q "^\.SH $section\$" "$page" || { echo "FAIL: no $section section"; exit 1; }
done
for variable in NO_COLOR COLUMNS ICX_GNUPLOT; do
  grep -q "$variable" "$page" || { echo "FAIL: ENVIRONMENT does not name $variable"; exit 1; }
done
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || { echo "FAIL: groff warns: $warnings"; exit 1; }
fi
echo "man page: all checks passed"
