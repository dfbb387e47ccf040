#!/usr/bin/env python3
"""Grow a stored group to fleet size: bench/fleet.py SEED.db OUT.db N.

SEED.db holds a small real interleaved group (vmregress run SUITE
--variant ... -n 3); OUT.db becomes a copy in which every case of every run
of the group has N iterations, each a copy of one of the case's own passing
iterations (in turn) with its metrics scaled by a seeded random factor
(1 + 3% noise), so the statistics have spread to work on and every figure
is a real iteration's.  The result JSON and the metric rows are written
together, as the store writes them; the iterations' places in the group's
order (seq) continue the interleaving.  Fixed seed: the same SEED.db gives
the same OUT.db, byte for byte in its rows.
"""
import json
import random
import shutil
import sqlite3
import sys

seed_db, out_db, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.copyfile(seed_db, out_db)
db = sqlite3.connect(out_db)
db.execute("PRAGMA journal_mode = WAL")
rng = random.Random(20261202)
runs = db.execute("SELECT id, variant_index FROM runs WHERE group_uuid IS NOT NULL"
                  " ORDER BY variant_index, id").fetchall()
if len(runs) < 2:
    sys.exit(f"{seed_db}: no group of two or more runs")
nvar = len(runs)
db.execute("UPDATE runs SET status = 'complete', ended = COALESCE(ended, started + 1)")
top = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM iterations").fetchone()[0]
added = 0
for run_id, vi in runs:
    cases = db.execute("SELECT id, seq FROM cases WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()
    for case_id, cseq in cases:
        have = db.execute("SELECT iteration, outcome, reason, result FROM iterations WHERE case_id = ?"
                          " ORDER BY iteration", (case_id,)).fetchall()
        passing = [h for h in have if h[1] == "pass"]
        if not passing:
            continue
        first = max(h[0] for h in have) + 1
        for k in range(first, n):
            _, outcome, reason, text = passing[(k - first) % len(passing)]
            res = json.loads(text)
            for m in res["metrics"]:
                if isinstance(m.get("value"), (int, float)):
                    m["value"] = m["value"] * (1 + rng.gauss(0, 0.03))
            seq = top + ((cseq * n) + k) * nvar + vi
            cur = db.execute("INSERT INTO iterations (case_id, iteration, outcome, reason, result, seq)"
                             " VALUES (?,?,?,?,?,?)",
                             (case_id, k, outcome, reason,
                              json.dumps(res, separators=(",", ":"), allow_nan=False), seq))
            db.executemany("INSERT INTO metrics (iteration_id, name, unit, better, combine, value)"
                           " VALUES (?,?,?,?,?,?)",
                           [(cur.lastrowid, m["name"], m["unit"], m["better"], m["combine"], m.get("value"))
                            for m in res["metrics"]])
            added += 1
db.commit()
total = db.execute("SELECT COUNT(*) FROM iterations").fetchone()[0]
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
print(f"{out_db}: {total} iterations ({added} added), {nvar} variants")
