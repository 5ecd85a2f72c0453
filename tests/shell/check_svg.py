#!/usr/bin/env python3
"""Checks a gnuplot SVG chart as icx draws it: well-formed XML, the expected axis titles,
the expected series (by legend title, in order), which of them are dashed, and log axes.

  check_svg.py FILE.svg --title T --x-label X --y-label Y --series 'a,b,c' [--dashed 'b']
               [--points 'c=15'] [--heavy 'a'] [--first 'a'] [--at-most N]
               [--log-x] [--log-y] [--binary-x] [--distinct]

--series is the exact list of legend titles in order; with --first and --at-most it is left
out and the chart need only start with that series and hold at most N.

Prints "ok: FILE" or one line naming what is wrong, exit status 1."""
import argparse
import re
import sys
import xml.dom.minidom


def content(node):
    """The text inside a node and its descendants (gnuplot wraps tick labels in <tspan>)."""
    if node.nodeType == node.TEXT_NODE:
        return node.data
    return "".join(content(child) for child in node.childNodes)


def texts(node):
    """Every <text> element's content."""
    return [content(e).strip() for e in node.getElementsByTagName("text")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("svg")
    parser.add_argument("--title", default=None)
    parser.add_argument("--x-label", required=True)
    parser.add_argument("--y-label", required=True)
    parser.add_argument("--series", default=None)
    parser.add_argument("--first", default=None, help="the first series' title")
    parser.add_argument("--at-most", type=int, default=None, help="most series the chart may hold")
    parser.add_argument("--heavy", default=None,
                        help="the series drawn with a wider line than every other")
    parser.add_argument("--title-contains", default=None)
    parser.add_argument("--dashed", default="")
    parser.add_argument("--points", default="", help="TITLE=N: the series drawn as N markers")
    parser.add_argument("--log-x", action="store_true")
    parser.add_argument("--log-y", action="store_true")
    parser.add_argument("--binary-x", action="store_true",
                        help="size ticks as nccl-tests prints them: 1K, 1M, 1G")
    parser.add_argument("--distinct", action="store_true",
                        help="no two series drawn with the same colour, dashes and markers")
    args = parser.parse_args()

    def fail(what):
        print(f"FAIL: {args.svg}: {what}")
        sys.exit(1)

    try:
        dom = xml.dom.minidom.parse(args.svg)
    except Exception as error:  # any parse failure is the finding
        fail(f"not well-formed XML: {error}")
    if dom.documentElement.tagName != "svg":
        fail(f"root element is {dom.documentElement.tagName}, not svg")
    shown = texts(dom)
    for label in [args.x_label, args.y_label] + ([args.title] if args.title else []):
        if label not in shown:
            fail(f"no text '{label}' (texts: {shown[:12]})")

    # gnuplot puts each plot clause in <g id="gnuplot_plot_N"><title>legend title</title>.
    plots = []
    for group in dom.getElementsByTagName("g"):
        if re.fullmatch(r"gnuplot_plot_\d+[a-z]?", group.getAttribute("id") or ""):
            titles = group.getElementsByTagName("title")
            name = titles[0].firstChild.data if titles and titles[0].firstChild else ""
            dashed = any(p.getAttribute("stroke-dasharray") for p in group.getElementsByTagName("path"))
            plots.append((name, dashed, group))
    names = [name for name, _, _ in plots]
    if args.series is not None:
        wanted = [s for s in args.series.split(",") if s]
        if names != wanted:
            fail(f"series {names}, expected {wanted}")
    if args.first is not None and (not names or names[0] != args.first):
        fail(f"series {names}, expected '{args.first}' first")
    if args.at_most is not None and not 0 < len(names) <= args.at_most:
        fail(f"{len(names)} series, expected 1 to {args.at_most}")
    if args.title_contains is not None and not any(args.title_contains in t for t in shown):
        fail(f"no text containing '{args.title_contains}' (texts: {shown[:6]})")
    if args.heavy is not None:
        def width(group):
            # gnuplot sets the width on the <g> around each line's paths.
            return max([float(g.getAttribute("stroke-width") or 0)
                        for g in group.getElementsByTagName("g")] + [0.0])
        widths = {name: width(group) for name, _, group in plots}
        heavy = widths.get(args.heavy)
        if heavy is None or any(w >= heavy for n, w in widths.items() if n != args.heavy):
            fail(f"series '{args.heavy}' is not drawn wider than the rest (widths {widths})")
    dashed_wanted = {s for s in args.dashed.split(",") if s}
    for name, dashed, _ in plots:
        if (name in dashed_wanted) != dashed:
            fail(f"series '{name}' is {'dashed' if dashed else 'solid'}")
    if args.points:
        title, count = args.points.rsplit("=", 1)
        group = next((g for name, _, g in plots if name == title), None)
        # Markers are <use> of a point symbol; the legend's sample is one of them.
        markers = len(group.getElementsByTagName("use")) - 1 if group else -1
        if markers != int(count):
            fail(f"series '{title}' has {markers} markers, expected {count}")
    # Log axes show decades: three tick labels that are powers of ten (1, 10, 100 or 1k …).
    decade = re.compile(r"^(1|10|100)(0*|[kMGTm]?)$|^0\.0*1$|^1e[-+]?\d+$")
    ticks = [t for t in shown if decade.match(t)]
    if (args.log_x or args.log_y) and len(ticks) < 3:
        fail(f"a log axis without decade ticks (texts: {shown[:20]})")
    if args.binary_x:
        binary = [t for t in shown if re.fullmatch(r"1[KMG]", t)]
        if len(binary) < 3:
            fail(f"a byte axis without 1K, 1M and 1G ticks (texts: {shown[:30]})")
    if args.distinct:
        looks = {}
        for name, _, group in plots:
            paths = group.getElementsByTagName("path")
            look = (tuple(sorted({p.getAttribute("stroke") for p in paths})),
                    tuple(sorted({p.getAttribute("stroke-dasharray") for p in paths})),
                    tuple(sorted({u.getAttribute("xlink:href") for u in group.getElementsByTagName("use")})))
            if look in looks:
                fail(f"series '{name}' is drawn as '{looks[look]}' is")
            looks[look] = name
    print(f"ok: {args.svg}")


if __name__ == "__main__":
    main()
