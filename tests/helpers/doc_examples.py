#!/usr/bin/env python3
"""The command examples of the README and docs/*.md, and the shape of the
output they show.

An example is a `vmregress ...` or `./vmregress ...` line (with its
backslash continuations) inside a fenced block whose language is none, sh,
bash, shell or console; a `# ` or `$ ` prompt before it is allowed.  When
the command carries a prompt, the lines after it, up to the next prompt
line or the block's end, are the output the page shows for it.

    doc_examples.py list FILE...     one JSON object per example, in order
    doc_examples.py shape FILE       the shape lines of a shown output (stdin
                                     if FILE is -), as the check compares them

The shape of an output is what must not drift when the figures do: the
lines that are not data rows (tests/cli/test_docs_examples.sh has the
rules), each with its numbers, units, names of runs, paths and kernel
versions masked.
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

SHELL_LANGS = {"", "sh", "bash", "shell", "console"}
PROMPT = re.compile(r"^[#$] ")
COMMAND = re.compile(r"^(?:[#$] )?(?:\./)?vmregress(?: |$)")


def examples(path):
    """Yield each example of one Markdown file, in document order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence = None  # the fence that opened the current block, None outside
    lang = ""
    cur = None
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        if fence is None:
            m = re.match(r"^\s*(```+|~~~+)\s*([A-Za-z0-9_+-]*)", raw)
            if m:
                fence, lang = m.group(1), m.group(2).lower()
            i += 1
            continue
        if stripped.startswith(fence) and stripped.strip("`~") == "":
            if cur:
                yield cur
            cur, fence = None, None
            i += 1
            continue
        if lang not in SHELL_LANGS:
            i += 1
            continue
        body = raw.lstrip()
        if COMMAND.match(body):
            if cur:
                yield cur
            start = i + 1
            cmd = body
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1].rstrip() + " " + lines[i].strip()
            prompted = bool(PROMPT.match(cmd))
            if prompted:
                cmd = cmd[2:]
            cur = {"file": path, "line": start, "cmd": cmd, "prompted": prompted, "shown": []}
        elif cur is not None and cur["prompted"] and not PROMPT.match(body):
            cur["shown"].append(raw)
        elif cur is not None:
            # another prompt, or a line after an unprompted command: the
            # example has ended
            yield cur
            cur = None
        i += 1
    if cur:
        yield cur


# What varies from run to run, masked in this order.
MASKS = [
    (re.compile(r"(?<![\w)~])(/[\w.+-]+)+/?|~(/[\w.+-]+)+"), "PATH"),  # paths (a results store, a report's directory)
    (re.compile(r"\bkernel [^\s,]+"), "kernel K"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "UUID"),
    (re.compile(r"\d{8}-\d{6}"), "DATE"),  # default run names
    (re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?"), "DATE"),
    # a figure with its unit: the unit follows the figure's size
    (re.compile(r"[-+]?(\d+(\.\d+)?|\.\d+)(e[-+]?\d+)?"
                r"( ?(ns|us|ms|s|m|h|[KMGT]i?B?|[kMG]|B|bytes|pages/s|faults/s|refs/s|ops/s|events|pages|faults)\b|%)?"
                r"(?![\w])"), "N"),
    (re.compile(r"\d+"), "N"),  # digits inside names (quick-N, pc3)
    (re.compile(r"[ \t]+"), " "),
]


def mask(line):
    s = line.strip()
    for rx, to in MASKS:
        s = rx.sub(to, s)
    return s.strip()


# A verdict line of compare: its verdict, case, metric and variant are
# data, and so is the wording after its interval, which follows the
# verdict; the interval's form is shape.
VERDICT = re.compile(r"^(improved|regressed|same|unstable)\s+\S+\s+\S+\s+in\s+\S+:")
INTERVAL = re.compile(r"\[[^]]*\bCI\b[^]]*\]")


def is_verdict(line):
    return line.startswith(" ") and VERDICT.match(line.strip()) is not None


def is_row(line):
    """A table's row: indented, or three or more fields apart by two or
    more spaces."""
    return line.startswith(" ") or len(re.split(r"\s{2,}", line.strip())) >= 3


def is_heading(line):
    """Column headings: no figure, three or more fields apart by two or
    more spaces (run's case table, list's columns)."""
    s = line.strip()
    return not re.search(r"\d", s) and len(re.split(r"\s{2,}", s)) >= 3


def is_skipped(line):
    s = line.strip()
    return (not s or s.startswith("...") or s.startswith("\u2026")
            or re.match(r"^\[\d+/\d+\]", s) is not None  # progress
            or s.startswith("vmregress: warning"))


def shape_lines(shown):
    """The lines of a shown output whose shape is checked: the header (its
    first line, progress and warnings aside), column headings, verdict
    lines and the last line; the rest holds figures, cases and what this
    machine's state made the tool say."""
    lines = [l for l in shown if not is_skipped(l)]
    out = []
    for i, line in enumerate(lines):
        if (i == len(lines) - 1 and i > 0 and not is_row(line)) or line.startswith("vmregress: "):
            # a closing line's clauses in brackets or after a ';' follow
            # what there was to say (what --all would add), an error's what
            # the kernel said: the words before them are its shape
            out.append(re.split(r"[(;]", shape(line))[0].rstrip() + " ...")
        elif i == 0 or is_heading(line) or is_verdict(line):
            out.append(shape(line))
    return list(dict.fromkeys(out))


def printed(want, got):
    """Whether a shape line of the page is among the printed ones."""
    if want.endswith(" ..."):
        return any(g.startswith(want[:-4]) for g in got)
    return want in got


def shape(line):
    s = line.strip()
    if is_verdict(line):
        iv = INTERVAL.search(s)
        return "VERDICT C M in V: " + mask(iv.group(0) if iv else s[VERDICT.match(s).end():])
    s = mask(s)
    # plurals follow the counts: "1 regression", "0 regressions"
    return re.sub(r"\bN ([a-z]+?)e?s\b", r"N \1", s)


def load_table(path):
    """The test's table: FILE | MATCH | ACTION | REASON a line, each with
    its reason; MATCH is a piece of the command ("-" for the file as a
    whole)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
            if len(parts) != 4 or not all(parts):
                raise SystemExit("%s:%d: want FILE | MATCH | ACTION | REASON" % (path, n))
            rows.append({"file": parts[0], "match": parts[1], "action": parts[2],
                         "reason": parts[3], "where": "%s:%d" % (path, n), "used": False})
    return rows


def ini_block(path, nth=1):
    """The nth ```ini block of a page."""
    blocks, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if cur is None and re.match(r"^\s*```ini\s*$", line):
                cur = []
            elif cur is not None and line.strip().startswith("```"):
                blocks.append("".join(cur))
                cur = None
            elif cur is not None:
                cur.append(line)
    return blocks[nth - 1] if len(blocks) >= nth else None


# Each page's checks are kept until the page ends, so that pages run side by
# side print in order.
_page = threading.local()


def emit(line):
    buf = getattr(_page, "buf", None)
    if buf is None:
        print(line)
        sys.stdout.flush()
    else:
        buf.append(line)


def tap(ok, what, diag=()):
    emit(("ok - " if ok else "not ok - ") + what)
    for d in diag:
        emit("# " + d)


def run_cmd(cmd, cwd, env, timeout):
    """Run one example with bash in its page's directory; its output and
    errors as one text, as a terminal would show them."""
    p = subprocess.Popen(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C: vmregress puts the host back
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        return None, out.decode("utf-8", "replace")
    return p.returncode, out.decode("utf-8", "replace")


def check(table_path, vmr, top, work, files, timeout, jobs):
    """Run every example of FILES (each page in a store and directory of its
    own, in document order), as the table says, and print a check each."""
    table = load_table(table_path)
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir, exist_ok=True)
    os.symlink(os.path.abspath(vmr), os.path.join(bindir, "vmregress"))
    failed_table = False

    def page(path):
        _page.buf = []
        run_page(path, table, top, work, bindir, timeout)
        return _page.buf

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for lines in pool.map(page, files):
            for line in lines:
                emit(line)
    ran = {os.path.relpath(f, top) for f in files}
    for r in table:
        if (not r["used"] and r["file"] in ran) or not os.path.isfile(os.path.join(top, r["file"])):
            failed_table = True
            tap(False, "%s: the table's entry matches an example (%s | %s)" % (r["where"], r["file"], r["match"]))
    if not failed_table:
        tap(True, "every entry of the table matches an example")


def run_page(path, table, top, work, bindir, timeout):
    """One page's examples, in document order, in its own directory and store."""
    rel = os.path.relpath(path, top)
    page = re.sub(r"\W", "_", rel)
    cwd = os.path.join(work, page)
    os.makedirs(cwd, exist_ok=True)
    env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""),
               VMREGRESS_DB=os.path.join(work, page + ".db"), TOP=os.path.abspath(top),
               HOME=cwd)
    rows = [r for r in table if r["file"] == rel]
    for r in rows:  # what a page's examples need first
        if r["match"] != "-":
            continue
        r["used"] = True
        act, _, arg = r["action"].partition(" ")
        if act == "ini":
            name, _, nth = arg.partition(" ")
            text = ini_block(path, int(nth or 1))
            if text is None:
                tap(False, "%s: has the ini block for %s (%s)" % (rel, name, r["where"]))
                continue
            with open(os.path.join(cwd, name), "w", encoding="utf-8") as f:
                f.write(text)
        elif act == "before":
            rc, out = run_cmd(arg, cwd, env, timeout)
            tap(rc == 0, "%s: before its examples: %s" % (rel, arg),
                [] if rc == 0 else ["exit %s" % rc] + out.splitlines()[-5:])
        else:
            tap(False, "%s: unknown action '%s'" % (r["where"], r["action"]))
    exs = list(examples(path))
    for ex in exs:
        ex["later"] = False
        ex["rows"] = []
        for r in rows:
            if r["match"] != "-" and r["match"] in ex["cmd"]:
                r["used"] = True
                ex["rows"].append(r)
                if r["action"] == "later":
                    ex["later"] = True
    for ex in [e for e in exs if not e["later"]] + [e for e in exs if e["later"]]:
        run_example(ex, rel, cwd, env, timeout)


def run_example(ex, rel, cwd, env, timeout):
    cmd = re.sub(r"(^|[|;&]\s*)\./vmregress\b", r"\1vmregress", ex["cmd"])
    name = "%s:%d %s" % (rel, ex["line"], ex["cmd"][:100])
    # a page that shows an error after the command shows a failing one
    first = [l for l in ex["shown"] if not is_skipped(l)][:1]
    fails = bool(first) and first[0].startswith("vmregress: ")
    want_rc, shaped, mayskip, notes = None if fails else 0, True, False, []
    for r in ex["rows"]:
        act, _, arg = r["action"].partition(" ")
        if act == "skip":
            emit("ok - %s # SKIP %s" % (name, r["reason"]))
            return
        if act == "sub":
            old, sep, new = arg.partition(" => ")
            if not sep or old not in cmd:
                tap(False, "%s: %s: substitution '%s' applies" % (name, r["where"], arg))
                return
            cmd = cmd.replace(old, new)
            notes.append("run as: " + cmd)
        elif act == "rc":
            want_rc = int(arg)
        elif act == "noshape":
            shaped = False
        elif act == "mayskip":
            mayskip = r["reason"]
        elif act != "later":
            tap(False, "%s: unknown action '%s'" % (r["where"], r["action"]))
            return
    t0 = time.time()
    rc, out = run_cmd(cmd, cwd, env, timeout)
    took = time.time() - t0
    tail = ["took %.1f s" % took] + notes + ["output: " + l for l in out.splitlines()[-8:]]
    if rc == 3 and mayskip:
        emit("ok - %s # SKIP exit 3, cannot run here: %s (%s)" % (name, out.strip().splitlines()[0][:200] if out.strip() else "", mayskip))
        return
    if rc is None or (rc != want_rc if want_rc is not None else rc == 0):
        tap(False, "%s (exit %s, want %s)" % (name, "timeout" if rc is None else rc,
                                              "an error" if want_rc is None else want_rc), tail)
        return
    tap(True, "%s exits %s (%.0f s)" % (name, rc, took))
    if not ex["shown"] or not shaped:
        return
    got = {shape(l) for l in out.splitlines() if not is_skipped(l)}
    missing = [s for s in shape_lines(ex["shown"]) if not printed(s, got)]
    if not out.strip():
        tap(False, "%s prints what the page shows (it printed nothing)" % name)
    elif missing:
        tap(False, "%s prints what the page shows" % name,
            ["shown, not printed: " + m for m in missing] + notes
            + ["printed: " + s for s in sorted(got)][:40])
    else:
        tap(True, "%s prints what the page shows (%d lines of shape)" % (name, len(shape_lines(ex["shown"]))))


def main(argv):
    if len(argv) >= 6 and argv[1] == "check":
        # check TABLE VMR TOP WORKDIR FILE...
        check(argv[2], argv[3], argv[4], argv[5], argv[6:], float(os.environ.get("VMR_DOCS_TIMEOUT", "150")),
              int(os.environ.get("VMR_DOCS_JOBS", "2")))
        return 0
    if len(argv) >= 2 and argv[1] == "list":
        for path in argv[2:]:
            for ex in examples(path):
                print(json.dumps(ex))
        return 0
    if len(argv) == 3 and argv[1] == "shape":
        text = sys.stdin.read() if argv[2] == "-" else open(argv[2], encoding="utf-8").read()
        for s in shape_lines(text.split("\n")):
            print(s)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
