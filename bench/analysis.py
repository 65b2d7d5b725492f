"""Analysis benchmark: how long the tour and each search in it take, per bundled game.

    python bench/analysis.py [--timeout 60] [--json]

Targets on the 2-core machine (issue 4): a distinguishing state for one pair of readings in under
10 s; the whole tour of one game in under 2 minutes. The test-only specs of tests/quality are
timed too, as a reference for the searches the bundled games do not have yet.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zoospec.front.catalog import bundled  # noqa: E402
from zoospec.front.loader import load  # noqa: E402
from zoospec.solvers.analysis import ambiguity, claims, coverage, fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, round(time.perf_counter() - t, 3)


def one_game(path: Path, timeout: float) -> dict:
    row = {"spec": str(path.relative_to(ROOT)), "searches": []}
    t0 = time.perf_counter()
    g, row["load"] = timed(lambda: load(path))
    for c in g.claims.values():
        v, s = timed(lambda c=c: claims.check(g, c, timeout))
        row["searches"].append({"what": f"claim {c.id} ({c.over})", "result": v.verdict, "seconds": s})
    for r in g.readings.values():
        found, s = timed(lambda r=r: ambiguity.readings(g, r.id, timeout))
        for f in found:
            row["searches"].append({"what": f"reading {r.id}", "result": f.kind, "seconds": f.seconds})
        row["searches"].append({"what": f"reading {r.id} (all pairs and uses)", "result": len(found), "seconds": s})
    found, s = timed(lambda: ambiguity.gaps(g, timeout))
    row["searches"].append({"what": "gaps", "result": len(found), "seconds": s})
    if g.actions:
        found, s = timed(lambda: ambiguity.dead_ends(g, timeout))
        row["searches"].append({"what": "dead ends", "result": len(found), "seconds": s})
    with tempfile.TemporaryDirectory() as tmp:
        idx, s = timed(lambda: fixtures.generate(g, tmp, 0, timeout))
    row["searches"].append({"what": "fixtures", "result": fixtures.count(idx), "seconds": s})
    book = coverage.find_rulebook(g)
    if book:
        rep, s = timed(lambda: coverage.report(g, book))
        row["searches"].append({"what": "coverage", "result": f"{rep.percent:.1f}%", "seconds": s})
    row["tour"] = round(time.perf_counter() - t0, 3)
    pairs = [x["seconds"] for x in row["searches"] if x["what"].startswith("reading ") and "all pairs" not in x["what"]]
    row["slowest_reading_pair"] = max(pairs) if pairs else None
    row["targets_met"] = row["tour"] < 120 and all(p < 10 for p in pairs)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    specs = list(bundled().values()) + sorted((ROOT / "tests" / "quality" / "specs").glob("*.yaml"))
    rows = [one_game(p, args.timeout) for p in specs]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['spec']}: tour {r['tour']} s (load {r['load']} s); slowest reading pair "
              f"{r['slowest_reading_pair']} s; targets {'met' if r['targets_met'] else 'MISSED'}")
        for x in r["searches"]:
            print(f"  {x['seconds']:8.3f} s  {x['what']}: {x['result']}")


if __name__ == "__main__":
    main()
