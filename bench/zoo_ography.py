"""Zoo-ography's solo puzzle: seconds per deal, and the sweep's throughput with 1 and 2 workers.

    python bench/zoo_ography.py [--timeout 600] [--whole-record] [--workers 2] [--sweep-deals 4] [--sweep-timeout 60]

Solves every deal in spec/zoo-ography/deals/ (their expected verdicts are in the files; those in
multiplayer/ with the switch `multiplayer`) as `zoospec solve` asks it by default — layout by
layout (ADR 0016, 0020), each deal in a process of its own as the command line asks it (a
portfolio of one, worker 0 asking exactly what `solve` asks; --workers N: N seeded processes, ADR 0018) — and
prints each verdict with its seconds and the median (issue 7's target: 60 s per deal on a 2-core
machine); with --whole-record each deal a second time as one question. Then each shipped plan's
deal again with the plan's layout given. Then sweeps the same seeded deals with 1 and with 2
worker processes, asked as `zoospec sweep` asks them, and prints deals per minute. A timeout is
reported as unknown, never as a verdict.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zoospec import load  # noqa: E402
from zoospec.front.yamlload import load_file  # noqa: E402
from zoospec.solvers.puzzle import portfolio, search as puzzle, sweep  # noqa: E402

SPEC = ROOT / "spec" / "zoo-ography.yaml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--whole-record", action="store_true", help="also solve each deal as one question")
    ap.add_argument("--workers", type=int, default=1, help="a portfolio of N seeded processes for each deal")
    ap.add_argument("--sweep-deals", type=int, default=4)
    ap.add_argument("--sweep-timeout", type=float, default=60.0)
    args = ap.parse_args()
    solo = load(str(SPEC))
    games = {(): solo}  # by the switches a deal file's `with` names
    deals = ROOT / "spec" / "zoo-ography" / "deals"
    times = []
    for f in sorted(deals.glob("*.yaml")) + sorted((deals / "multiplayer").glob("*.yaml")):
        data = load_file(f).data
        on = tuple(sorted(data.get("with", [])))
        g = games.setdefault(on, load(str(SPEC), switches={s: True for s in on}))
        expect = data.get("expect", "?")
        deal = puzzle.read_deal(g, f)
        how = {"target": None, "best": False, "timeout": args.timeout, "layout_first": puzzle.asks_layout_first(g)}
        t0 = time.monotonic()
        # in processes of its own, as `zoospec solve` asks it: Z3's path depends on what its
        # context already holds, and one process asking deal after deal made the fifth 40 s -> 134 s
        v = portfolio.solve(str(SPEC), {}, dict(g.switches), g, deal, args.workers, **how)
        dt = time.monotonic() - t0
        times.append(dt)
        print(f"{f.relative_to(deals).as_posix():28} {v.status:12} (expected {expect:12}) {dt:8.1f} s  score {v.score}  "
              f"layouts {v.layouts}  core {v.core}", flush=True)
        if args.whole_record:
            t0 = time.monotonic()
            v = puzzle.solve(g, deal, timeout=args.timeout, layout_first=False)
            print(f"{'  --whole-record':28} {v.status:12} {time.monotonic() - t0:33.1f} s  score {v.score}  core {v.core}", flush=True)
    if times:
        print(f"median seconds per deal: {statistics.median(times):.1f}  (target: <= 60)")
    # A shipped plan's layout given (`solve --given PLAN:at,side,turned`): the rest of the record
    # found by Z3 — how much of a deal's time the layout search takes.
    g = solo
    for plan in sorted(deals.glob("*.plan.json")):
        deal = puzzle.read_deal(g, plan.with_name(plan.name.replace(".plan.json", ".yaml")))
        given = puzzle.read_given(g, f"{plan}:at,side,turned")
        t0 = time.monotonic()
        v = puzzle.solve(g, deal, timeout=args.timeout, given=given)
        print(f"{plan.name:28} {v.status:12} with its layout given {time.monotonic() - t0:8.1f} s  score {v.score}", flush=True)
    seeds = list(range(1, args.sweep_deals + 1))
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            s = sweep.run(str(SPEC), seeds, Path(tmp) / "r.jsonl", workers=workers, timeout=args.sweep_timeout,
                          layout_first=puzzle.asks_layout_first(solo))
            dt = time.monotonic() - t0
        print(f"sweep, {workers} worker(s): {len(seeds)} deals in {dt:.1f} s = {60 * len(seeds) / dt:.2f} deals/min "
              f"({s['reachable']} reachable, {s['unreachable']} unreachable, {s['unknown']} unknown at {args.sweep_timeout:.0f} s)")


if __name__ == "__main__":
    main()
