"""How fast the compiled Python predicates decide New York Zoo legality, next to a hand-written
check of the same rule (a yardstick kept only here — the game's rules live in the spec).

    python bench/predicates.py [--seconds 2]

Measured: `nyz.tile.place-at` (lay one enclosure tile in one orientation at one position on a
2-player board half covered), `nyz.acquire.single` (take one animal from an acquisition space),
`nyz.elephant.distance`, generating every legal way to lay one tile (every orientation and
position), and every legal move of the states of a played game of each bundled game
(solvers/moves.py). Targets (issue 5): 100,000 checks a second, within 2x of the hand-written
check; all legal moves of a mid-game state in under 50 ms.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zoospec.backends.python import MEMO  # noqa: E402
from zoospec.builtins.polyomino import orientations  # noqa: E402
from zoospec.front.loader import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def mid_game(g):
    """A dealt 2-player table in the main action, the first player's board with its first 50
    buildable cells (reading order) covered."""
    from zoospec.solvers.play import playout as play
    from zoospec.runtime.state import merged
    dealt = play.play(g, g.start_state(2), seed=1, max_steps=46).trace.states[-1]
    buildable = sorted(g.consts["buildable"][1]["p2s1"], key=lambda a: g.domains["cell"].pos[a])
    return g.state_from_json(merged(g.state_to_json(dealt), {"stage": "main", "elephant": 12, "occupied": {"1": buildable[:50]}}))


def rate(fn, calls, seconds):
    """Calls per second of fn over the argument list `calls`, cycled for about `seconds`."""
    n, t0 = 0, time.perf_counter()
    for args in itertools.cycle(calls):
        fn(args)
        n += 1
        if n % 1000 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    g = load(ROOT / "spec" / "new-york-zoo.yaml")
    state = mid_game(g)
    dom = g.domains["cell"]

    # --- nyz.tile.place-at, compiled
    rule = g.rule("nyz.tile.place-at")
    fn = g.python_of(rule.body)
    tiles = ["enc1", "enc15", "enc30", "enc50"]
    # The acting player's free cells are worked out once per state, as the move listing does
    # (solvers/moves.py shares one memo of define calls per state) and as the yardstick below does.
    warm: dict = {}
    fn(state, {"t": "enc1", "o": 0, "r": 0, "c": 0, MEMO: warm})
    per_state = {k: v for k, v in warm.items() if isinstance(k, tuple) and k[0] == "free"}
    calls = [{"t": t, "o": o, "r": r, "c": c} for t in tiles for o in range(8) for r in range(9) for c in range(14)]
    # (the rule checks where the tile goes; taking it at all is nyz.tile.take and nyz.tile.must-occupy)
    compiled = rate(lambda env: fn(state, {**env, MEMO: dict(per_state)}), calls, args.seconds)

    # --- the same check written by hand (the yardstick)
    shapes = g.consts["enclosure_shape"][1]
    ors = {t: sorted(orientations(shapes[t])) for t in tiles}
    free = {dom.pos[a] for a in g.consts["buildable"][1]["p2s1"]} - {dom.pos[a] for a in state["occupied"][1]}

    def by_hand(env):
        os_ = ors[env["t"]]
        if env["o"] >= len(os_):
            return False
        r, c = env["r"], env["c"]
        return all((r + dr, c + dc) in free for dr, dc in os_[env["o"]].cells)

    hand = rate(by_hand, calls, args.seconds)

    # --- other checks
    acq = g.rule("nyz.acquire.single")
    afn = g.python_of(acq.body)
    acalls = [{"s": s, "a": a, MEMO: {}} for s in range(30) for a in ("fox", "penguin", "meerkat")]
    acquire = rate(lambda env: afn(state, dict(env)), acalls, args.seconds)
    dist = g.python_of(g.rule("nyz.elephant.distance").body)
    dcalls = [{"d": d, MEMO: {}} for d in range(1, 9)]
    distance = rate(lambda env: dist(state, dict(env)), dcalls, args.seconds)

    # --- all legal ways to lay one tile
    t0 = time.perf_counter()
    reps = 20
    for _ in range(reps):
        legal = [(o, r, c) for o in range(8) for r in range(9) for c in range(14)
                 if fn(state, {"t": "enc30", "o": o, "r": r, "c": c, MEMO: {}})]
    gen_ms = (time.perf_counter() - t0) / reps * 1000

    print(f"nyz.tile.place-at      {compiled:12,.0f} checks/s compiled   {hand:12,.0f} checks/s by hand   "
          f"ratio {hand / compiled:.2f}x")
    print(f"nyz.acquire.single     {acquire:12,.0f} checks/s compiled")
    print(f"nyz.elephant.distance  {distance:12,.0f} checks/s compiled")
    print(f"all legal ways to lay enc30 on the half-covered board: {len(legal)} of 1008, {gen_ms:.1f} ms")
    all_moves()


def all_moves():
    """Every legal move of the states of a played game, by solvers/moves.py (what `zoospec play`
    lists): the median and the slowest state, and the slowest stage."""
    import statistics
    from zoospec.solvers import moves
    from zoospec.solvers.play import playout as play
    nyz = load(ROOT / "spec" / "new-york-zoo.yaml")
    zlr = load(ROOT / "spec" / "zooloretto.yaml")
    for name, g, players, seed, stage in (("new-york-zoo", nyz, 2, 2, "stage"), ("zooloretto", zlr, 4, 1, "phase")):
        states = play.play(g, g.start_state(players), seed=seed, max_steps=600).trace.states[::5]
        times, by_stage = [], {}
        for state in states:
            t0 = time.perf_counter()
            moves.legal_moves(g, state)
            ms = (time.perf_counter() - t0) * 1000
            times.append(ms)
            by_stage.setdefault(state[stage], []).append(ms)
        worst = max(by_stage, key=lambda k: statistics.median(by_stage[k]))
        print(f"every legal move, {len(states)} states of a {players}-player {name} game: median {statistics.median(times):.1f} ms, "
              f"slowest {max(times):.1f} ms; by {stage}: " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in sorted(by_stage.items()))
              + f" (slowest: {worst})")


if __name__ == "__main__":
    main()
