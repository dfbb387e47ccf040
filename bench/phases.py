#!/usr/bin/env python3
"""phases.py STRACE_FILE: where the wall time of a command went, from
`strace -f -tt -T -o FILE CMD`: the dynamic loader (execve to the first
getrandom of libc's start-up, roughly: to the first rt_sigaction), each
host-changing or slow system call by kind, the child's life (clone to
wait4), and the rest.  strace slows every call down, so shares are to be
read, not the absolute times."""
import re
import sys
from collections import defaultdict

LINE = re.compile(r'^(\d+)\s+(\d+):(\d+):([\d.]+) (.*?)(?: <([\d.]+)>)?$')
KINDS = [
    ('fsync (journal and swap file)', re.compile(r'^fsync\(')),
    ('swapon', re.compile(r'^swapon\(')),
    ('swapoff', re.compile(r'^swapoff\(')),
    ('fallocate (swap file)', re.compile(r'^fallocate\(')),
    ('zram hot_add/disksize/reset/comp', re.compile(r'zram')),
    ('cgroup mkdir/rmdir/writes', re.compile(r'cgroup')),
    ('waiting for the child (wait4/poll)', re.compile(r'^(wait4|poll|ppoll|<\.\.\. (wait4|poll) resumed)')),
]


def main():
    rows = []
    for raw in open(sys.argv[1]):
        m = LINE.match(raw.rstrip('\n'))
        if not m:
            continue
        pid, h, mi, s, call, dur = m.groups()
        t = int(h) * 3600 + int(mi) * 60 + float(s)
        rows.append((int(pid), t, call, float(dur) if dur else 0.0))
    if not rows:
        sys.exit('phases.py: no strace lines in ' + sys.argv[1])
    main_pid = rows[0][0]
    t0, t1 = rows[0][1], rows[-1][1]
    total = t1 - t0
    loader_end = next((t for p, t, c, d in rows if p == main_pid and c.startswith('rt_sigaction')), t0)
    share = defaultdict(float)
    share['dynamic loading (execve to main)'] = loader_end - t0
    for p, t, c, d in rows:
        if p != main_pid:
            continue
        for name, rx in KINDS:
            if rx.search(c):
                share[name] += d
                break
    rest = total - sum(share.values())
    print(f'total {total * 1000:.1f} ms under strace')
    for name, v in sorted(share.items(), key=lambda kv: -kv[1]):
        print(f'  {name:40s} {v * 1000:7.1f} ms  {100 * v / total:5.1f}%')
    print(f'  {"the rest (our code, other calls)":40s} {rest * 1000:7.1f} ms  {100 * rest / total:5.1f}%')


main()
