#!/usr/bin/env python3
"""Checks an icx report page beyond its structure: the provenance footer, that the charts'
data and the tables agree at the page's prompt length, unique ids across the inline SVGs,
verdict badges, right-aligned figures and flags kept on one line.

  check_report_page.py PAGE.html --command 'icx report …' --date 'YYYY-MM-DD HH:MM UTC'
                       [--tokens 4096]

Prints "ok: PAGE" or one line per problem (exit status 1)."""
import argparse
import re
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    """The tables (caption, headers, rows, the cells' classes), ids, footer text and command."""

    def __init__(self):
        super().__init__()
        self.tables, self.ids, self.stack = [], [], []
        self.footer_text, self.command = "", None
        self.in_footer = self.in_command = self.in_svg = False
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "svg":
            self.in_svg = True
        if tag == "footer":
            self.in_footer = True
        if tag == "code" and "command" in (a.get("class") or ""):
            self.in_command, self.command = True, ""
        if tag == "table":
            self.tables.append({"caption": "", "headers": [], "rows": [], "classes": []})
        if tag == "caption":
            self.cell = ["caption", ""]
        if tag in ("th", "td"):
            self.cell = [tag, "", a.get("class") or "", []]
        if tag == "tr" and self.tables:
            self.stack = []
        if tag == "span" and self.cell is not None and len(self.cell) > 3:
            self.cell[3].append(a.get("class") or "")

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_svg = False
        if tag == "footer":
            self.in_footer = False
        if tag == "code":
            self.in_command = False
        if tag == "caption" and self.cell:
            self.tables[-1]["caption"] = self.cell[1].strip()
            self.cell = None
        if tag in ("th", "td") and self.cell:
            self.stack.append(self.cell)
            self.cell = None
        if tag == "tr" and self.tables and self.stack:
            if self.stack[0][0] == "th":
                self.tables[-1]["headers"] = [c[1].strip() for c in self.stack]
            else:
                self.tables[-1]["rows"].append([c[1].strip() for c in self.stack])
                self.tables[-1]["classes"].append([(c[2], c[3]) for c in self.stack])
            self.stack = []

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        if self.in_footer:
            self.footer_text += data
        if self.in_command:
            self.command += data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--command", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--tokens", default="4096")
    args = parser.parse_args()
    html = open(args.page, encoding="utf-8").read()
    page = Page()
    page.feed(html)
    problems = []

    # The footer: version and build, the time, the command, the catalog entries with sources.
    made = re.search(r"Made by icx \d+\.\d+\.\d+ \(commit [0-9a-f]{12}(-dirty)?, catalog "
                     r"\d{4}-\d{2}-\d{2}\) on (.*?)\.", page.footer_text)
    if not made:
        problems.append(f"footer without 'Made by icx VERSION (commit …, catalog …)': {page.footer_text[:200]!r}")
    elif made.group(2) != args.date:
        problems.append(f"footer date {made.group(2)!r}, expected {args.date!r}")
    if page.command != args.command:
        problems.append(f"footer command {page.command!r}, expected {args.command!r}")
    sources = next((t for t in page.tables if t["caption"].startswith("Catalog entries")), None)
    if sources is None:
        problems.append("no table of catalog entries in the footer")
    else:
        kinds = {row[0] for row in sources["rows"]}
        for kind in ("model", "GPU", "scale-up wire", "engine"):
            if kind not in kinds:
                problems.append(f"the sources table has no {kind}")
        for row in sources["rows"]:
            if len(row[2]) < 10:
                problems.append(f"{row[0]} {row[1]}: source {row[2]!r}")

    # No id twice across the page (several inline SVGs).
    seen = set()
    for i in page.ids:
        if i in seen:
            problems.append(f"id {i!r} appears twice")
            break
        seen.add(i)

    # The ranked table: verdict badges, right-aligned figures.
    ranked = next((t for t in page.tables if t["caption"].endswith("best first")), None)
    if ranked is None:
        problems.append("no ranked-layouts table")
        ranked = {"headers": [], "rows": [], "classes": []}
    h = ranked["headers"]
    metric = "TTFT" if "TTFT" in h else "TPOT"
    for row, classes in zip(ranked["rows"], ranked["classes"]):
        if "badge " + row[h.index("verdict")] not in classes[h.index("verdict")][1]:
            problems.append(f"verdict {row[h.index('verdict')]!r} of {row[1]} is not a badge")
        if classes[h.index(metric)][0] != "num":
            problems.append(f"{metric} of {row[1]} is not right-aligned")

    # The charts' data agree with the tables at the page's prompt length: each layout's TTFT,
    # and the tensor group's all-reduce with the splits table.
    data = [t for t in page.tables if t["caption"] == "Data of the chart"]
    at = lambda table: next((r for r in table["rows"] if r[0] == args.tokens), None)
    if metric == "TTFT" and data:
        row = at(data[0])
        table_ttft = {r[1]: r[h.index("TTFT")] for r in ranked["rows"]}
        for title, cell in zip(data[0]["headers"][1:], (row or [])[1:]):
            for name in title.split(", "):
                if name in table_ttft and cell != "-" and cell != table_ttft[name]:
                    problems.append(f"{name}: TTFT {table_ttft[name]} in the table, {cell} on the chart")
    splits = next((t for t in page.tables if t["caption"].startswith("Splits of")), None)
    tensor = next((t for t in data if any(x.endswith(" expected") and x.startswith("TP ")
                                          for x in t["headers"])), None)
    if splits and tensor and metric == "TTFT":
        sh = splits["headers"]
        split = next(r for r in splits["rows"] if r[0] == "tensor")
        row = at(tensor)
        for kind in ("expected", "headline"):
            column = next(i for i, x in enumerate(tensor["headers"]) if x.endswith(" " + kind))
            if row is None or row[column] != split[sh.index(kind)]:
                problems.append(f"tensor all-reduce {kind}: {split[sh.index(kind)]} in the splits "
                                f"table, {row[column] if row else 'none'} on the chart")

    # A flag is never broken at its hyphen: outside the SVGs, style and the command line, every
    # "--flag" sits in a span.flag.
    text = re.sub(r"<svg.*?</svg>|<style>.*?</style>|<code class=\"command\">.*?</code>", "",
                  html, flags=re.S)
    for m in re.finditer(r"(?<![\w-])--[a-z][a-z0-9-]*", text):
        if not text[max(0, m.start() - 20):m.start()].endswith('<span class="flag">'):
            problems.append(f"flag {m.group(0)} outside a span.flag")
            break

    for p in problems:
        print(f"FAIL: {args.page}: {p}")
    if not problems:
        print(f"ok: {args.page}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
