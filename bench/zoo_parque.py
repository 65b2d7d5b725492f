"""Zoo Parque: seconds per random game, per Z3 replay of one, and per symbolic compile of the
heaviest rules.

    python bench/zoo_parque.py [--games 5] [--players 2 3 4]

Plays seeded games on domino sets dealt by the spec for each player count (Python back end: listing every
legal move at every state), replays the first of each through the Z3 back end, and compiles the
rules whose Z3 form labels the whole map (claimed Areas, Exhibits, "nothing can be placed").
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zoospec import load  # noqa: E402
from zoospec.runtime.agreement import Compiled, items  # noqa: E402
from zoospec.solvers import traces  # noqa: E402
from zoospec.solvers.dealing import dealt_start  # noqa: E402
from zoospec.solvers.play import playout as play

SPEC = ROOT / "spec" / "zoo-parque.yaml"
HEAVY = ["rule zp.claim.area", "rule zp.play.claimed-area", "rule zp.score.exhibit", "rule zp.score.total", "define can_place"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = ap.parse_args()
    g = load(str(SPEC))
    for n in args.players:
        secs, moves, first = [], [], None
        for seed in range(1, args.games + 1):
            t0 = time.monotonic()
            r = play.play(g, dealt_start(g, seed, n), seed=seed, max_steps=3000)
            secs.append(time.monotonic() - t0)
            moves.append(len(r.trace.steps))
            first = first or r.trace
        t0 = time.monotonic()
        ok = all(c.ok for c in traces.replay_z3(first))
        z3s = time.monotonic() - t0
        print(f"{n} players: median {statistics.median(secs):.1f} s a game ({statistics.median(moves):.0f} moves); "
              f"Z3 replay of one {z3s:.1f} s ({'legal' if ok else 'NOT LEGAL'})", flush=True)
    by_label = {i.label: i for i in items(g)}
    for label in HEAVY:
        t0 = time.monotonic()
        Compiled(g, by_label[label])
        print(f"compile {label}: {time.monotonic() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
