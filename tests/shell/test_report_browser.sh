#!/usr/bin/env bash
# icx report -o: the page is well-formed HTML with its sections, one inline SVG per chart and
# nothing fetched from the network; its provenance footer, charts that agree with its tables,
# ids unique across its charts, verdict badges, right-aligned figures and unbroken flags
# (check_report_page.py); a headless chromium renders it to a screenshot, kept at
# ${ICX_REPORT_SCREENSHOT:-BUILD_DIR/report-screenshot.png}.
#
#   test_report_browser.sh ICX SCRATCH_DIR BUILD_DIR
#
# Exit 77 (skipped) without gnuplot or chromium, unless ICX_REQUIRE_BROWSER=1 (then it fails).
set -u
icx=$1
scratch=$2
build=$3
fail() {
  echo "FAIL: $*"
  exit 1
}
missing() {
  if [ "${ICX_REQUIRE_BROWSER:-0}" = 1 ]; then
    fail "$1 is not installed and ICX_REQUIRE_BROWSER=1"
  fi
  echo "skipped: $1 is not installed"
  exit 77
}
command -v python3 >/dev/null || missing python3
command -v "${ICX_GNUPLOT:-gnuplot}" >/dev/null || missing gnuplot
command -v chromium >/dev/null || missing chromium
rm -rf "$scratch" && mkdir -p "$scratch"
page="$scratch/review.html"
here=$(cd "$(dirname "$0")" && pwd)
# A fixed time, so the footer's date is known: 2025-12-05 00:00 UTC.
export SOURCE_DATE_EPOCH=1764892800
date="2025-12-05 00:00 UTC"

"$icx" report --model 70b --system dgx-h100 -o "$page" >"$scratch/out" 2>"$scratch/err" ||
  fail "icx report: exit $? ($(cat "$scratch/err"))"
[ -s "$scratch/err" ] && fail "icx report wrote to stderr: $(cat "$scratch/err")"
grep -q "^wrote $page\$" "$scratch/out" || fail "stdout: $(cat "$scratch/out")"

# The structure: the four section headings and the footer's in order, two charts inline (the layouts' TTFT and
# the all-reduce), no source or link off the page, no script.
python3 - "$page" <<'PY' || fail "the page's structure"
import sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.headings, self.svgs, self.external, self.scripts = [], 0, [], 0
        self.in_h2 = False
    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.in_h2 = True
            self.headings.append("")
        if tag == "svg":
            self.svgs += 1
        if tag == "script":
            self.scripts += 1
        for name, value in attrs:
            if name in ("src", "href") and value and value.lower().startswith(("http://", "https://", "//")):
                self.external.append(value)
    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
    def handle_data(self, data):
        if self.in_h2:
            self.headings[-1] += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
expected = ["Deployment", "Ranked layouts", "Curves over prompt tokens", "Cold start",
            "Provenance"]
problems = []
if page.headings != expected:
    problems.append(f"headings {page.headings}, expected {expected}")
if page.svgs != 2:
    problems.append(f"{page.svgs} <svg> elements, expected 2")
if page.external:
    problems.append(f"external sources {page.external}")
if page.scripts:
    problems.append(f"{page.scripts} <script> elements")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
PY

python3 "$here/check_report_page.py" "$page" --date "$date" \
  --command "icx report --model 70b --system dgx-h100 -o $page" || fail "the page's contents"

# An MoE model adds the expert-parallel chart: three inline SVGs.
"$icx" report --model deepseek-v3 --system dgx-h100 --gpus 16 -o "$scratch/moe.html" \
  >/dev/null 2>"$scratch/err" || fail "icx report (MoE): exit $? ($(cat "$scratch/err"))"
svgs=$(grep -o "<svg" "$scratch/moe.html" | wc -l)
[ "$svgs" -eq 3 ] || fail "the MoE page has $svgs <svg> elements, expected 3"
python3 "$here/check_report_page.py" "$scratch/moe.html" --date "$date" \
  --command "icx report --model deepseek-v3 --system dgx-h100 --gpus 16 -o $scratch/moe.html" ||
  fail "the MoE page's contents"

# A tensor group across two nodes: the all-reduce chart prices it as the splits table does
# (over the scale-out wire, not as one flat ring), and a layout that does not fit but beats
# one above it on TTFT gets a sentence under the ranked table.
"$icx" report --model 405b --system dgx-h100 --gpus 16 -o "$scratch/two-nodes.html" \
  >/dev/null 2>"$scratch/err" || fail "icx report (two nodes): exit $? ($(cat "$scratch/err"))"
python3 "$here/check_report_page.py" "$scratch/two-nodes.html" --date "$date" \
  --command "icx report --model 405b --system dgx-h100 --gpus 16 -o $scratch/two-nodes.html" ||
  fail "the two-node page's contents"
grep -q '<p class="remark">Ranked below a layout they beat on TTFT: .*does not fit' \
  "$scratch/two-nodes.html" || fail "the two-node page does not say why a faster layout ranks lower"

shot="$scratch/review.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1280,3000 --screenshot="$shot" "file://$page" >"$scratch/chromium.log" 2>&1 ||
  fail "chromium: exit $? ($(tail -n 3 "$scratch/chromium.log"))"
[ -f "$shot" ] || fail "no screenshot written"
magic=$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')
[ "$magic" = "89504e470d0a1a0a" ] || fail "the screenshot is not a PNG (magic $magic)"
size=$(wc -c <"$shot")
[ "$size" -gt 20000 ] || fail "the screenshot is only $size bytes"
keep="${ICX_REPORT_SCREENSHOT:-$build/report-screenshot.png}"
cp "$shot" "$keep" || fail "cannot copy the screenshot to $keep"
echo "screenshot: $keep ($size bytes)"
echo "all checks passed"
