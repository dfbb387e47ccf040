#!/usr/bin/env python3
"""forest_check.py PAGE COMPARE_JSON [RENDERED]: the report's forest plot
against compare's JSON of the same runs.  The plot must come first, hold a
row per headline metric and run against the base (with a ratio), each
coloured by compare's verdict, its point, interval, noise band and MDE
ticks where the svg's own log scale puts those figures.  RENDERED, when
given, is the JSON a browser wrote of where it drew each point (centre x
within the svg), checked against the same scale.  Prints "ok N" (rows) or
what is wrong, and exits non-zero then."""
import html.parser, json, math, sys

COLOURS = {"improved": "#2a9d2a", "regressed": "#d62728", "changed": "#e69500", "unstable": "#8a5cc0"}


class Forest(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg, self.rows, self.row, self.order = None, [], None, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.order.append(a["id"])
        if tag == "svg" and a.get("class") == "forest":
            self.svg = a
        elif tag == "g" and a.get("class") == "forest-row":
            self.row = {"attrs": a, "marks": []}
            self.rows.append(self.row)
        elif self.row is not None and tag in ("circle", "line", "rect"):
            self.row["marks"].append((tag, a))

    def handle_endtag(self, tag):
        if tag == "g":
            self.row = None


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    cmp = json.load(open(sys.argv[2]))
    f = Forest()
    f.feed(page)
    errs = []
    if not f.svg:
        print("no forest plot")
        return 1
    if f.order[:1] != ["forest"] or "verdict" not in f.order:
        errs.append(f"the forest plot is not the first section: {f.order[:3]}")
    x0, x1, half = float(f.svg["data-x0"]), float(f.svg["data-x1"]), float(f.svg["data-half"])

    def X(r):
        lr = max(-half, min(half, math.log(r)))
        return x0 + (lr + half) / (2 * half) * (x1 - x0)

    want = []
    for row in cmp["rows"]:
        if not row.get("headline") or not row["runs"][0].get("present"):
            continue
        for i, c in enumerate(row["runs"][1:], 1):
            if c.get("present") and c.get("ratio") is not None and c["ratio"] > 0:
                want.append((row["case"], row["metric"], c))
    if len(want) != len(f.rows):
        errs.append(f"{len(f.rows)} rows, compare has {len(want)} headline cells")
    close = lambda a, b: abs(a - b) <= 0.011
    for (case, metric, c), r in zip(want, f.rows):
        a, name = r["attrs"], f"{case} {metric} {c['run']}"
        if (a["data-case"], a["data-metric"], a["data-run"]) != (case, metric, c["run"]):
            errs.append(f"row {name}: drawn as {a['data-case']} {a['data-metric']} {a['data-run']}")
            continue
        if a["data-verdict"] != c["verdict"] or abs(float(a["data-ratio"]) / c["ratio"] - 1) > 1e-6:
            errs.append(f"row {name}: {a['data-verdict']} {a['data-ratio']}, compare: {c['verdict']} {c['ratio']}")
        marks = {}
        for tag, m in r["marks"]:
            marks.setdefault(m.get("class"), []).append(m)
        pt = marks.get("change", [{}])[0]
        if not pt or not close(float(pt["cx"]), X(c["ratio"])):
            errs.append(f"row {name}: point at {pt.get('cx')}, the scale puts {c['ratio']} at {X(c['ratio']):.2f}")
        if pt.get("fill") != COLOURS.get(c["verdict"], "#555555"):
            errs.append(f"row {name}: coloured {pt.get('fill')} for {c['verdict']}")
        if c.get("ci_low") is not None and c.get("ci_high") is not None:
            ci = marks.get("ci", [{}])[0]
            if not ci or not close(float(ci["x1"]), X(c["ci_low"])) or not close(float(ci["x2"]), X(c["ci_high"])):
                errs.append(f"row {name}: interval {ci.get('x1')}..{ci.get('x2')}, want "
                            f"{X(c['ci_low']):.2f}..{X(c['ci_high']):.2f}")
        fl = c.get("noise_floor") or 0
        if 0 < fl < 1:
            b = marks.get("floor", [{}])[0]
            if not b or not close(float(b["x"]), X(1 - fl)) or \
                    not close(float(b["x"]) + float(b["width"]), X(1 + fl)):
                errs.append(f"row {name}: noise band {b.get('x')} +{b.get('width')}, want {X(1 - fl):.2f}..{X(1 + fl):.2f}")
        m = c.get("mde")
        if m is not None and m > 0:
            ticks = sorted(float(t["x1"]) for t in marks.get("mde", []))
            exp = sorted([X(1 + m)] + ([X(1 - m)] if m < 1 else []))
            if len(ticks) != len(exp) or not all(close(t, e) for t, e in zip(ticks, exp)):
                errs.append(f"row {name}: MDE ticks {ticks}, want {exp}")
    if len(sys.argv) > 3:
        drawn = json.load(open(sys.argv[3]))
        if len(drawn) != len(f.rows):
            errs.append(f"the browser drew {len(drawn)} points of {len(f.rows)}")
        for (case, metric, c), cx in zip(want, drawn):
            if abs(cx - X(c["ratio"])) > 1.0:
                errs.append(f"row {case} {metric} {c['run']}: drawn at x {cx:.2f}, the scale puts it at "
                            f"{X(c['ratio']):.2f}")
    for e in errs:
        print(e)
    if not errs:
        print(f"ok {len(f.rows)}")
    return 1 if errs else 0


sys.exit(main())
