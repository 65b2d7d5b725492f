"""Packing benchmark: our engine against the exact-cover tools we can install, side by side.

    pip install -e ".[bench]"
    pip install --no-deps polyomino==0.7.1 pretty_poly==0.6.0   # its pin on exact-cover 1.3 breaks NumPy 2
    python bench/packing.py [--repeats 3] [--limit 30] [--only NAME] [--json]

Per instance, the median seconds of each engine over --repeats interleaved runs (all in this
one process), and our ratio to the fastest peer that answered correctly. Counts are asserted
against the published values, verdicts against the expected ones.

Two zoospec columns: `zoospec` is the engine on the same prepared exact-cover matrix the peers
get (one row per placement; for counts the full matrix, our symmetry reduction running inside the
timed region) — the ratio compares this; `zoospec e2e` is `solve()` from board and pieces,
including placement enumeration, the refutations and the certificate check of every witness.
Peers get their matrix prepared outside the timed region, for counts with the classic symmetry
restriction (X cut to one placement per orbit) where it is exact. CP-SAT and Z3 have no native
exact counting: they enumerate with a time limit (--limit) and report what they found.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zoospec.front.loader import load  # noqa: E402
from zoospec.solvers.packing import game as pack_game  # noqa: E402
from zoospec.solvers.packing.matrix import Matrix  # noqa: E402
from zoospec.solvers.packing.model import Board, Problem  # noqa: E402
from zoospec.solvers.packing.pieces import pieces_arg  # noqa: E402
from zoospec.solvers.packing.search import Budget, run as search  # noqa: E402
from zoospec.solvers.packing.solve import solve  # noqa: E402
from zoospec.solvers.packing.symmetry import board_group, count_orbits, orbit_representatives  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Instance:
    name: str
    board: Board
    pieces: list
    task: str             # "count" (up to symmetry) | "one" | "none"
    expect: object = None  # published count, or the verdict


def instances() -> list[Instance]:
    pent = pieces_arg("pentominoes")
    out = [Instance(f"count {h}x{w} pentominoes", Board.rectangle(h, w), pent, "count", n)
           for h, w, n in ((3, 20, 2), (4, 15, 368), (5, 12, 1010), (6, 10, 2339))]
    out.append(Instance("one 6x10 pentominoes", Board.rectangle(6, 10), pent, "one", "sat"))
    g = load(ROOT / "spec" / "new-york-zoo.yaml")
    tiles = pack_game.pieces(g)
    for key in pack_game.board_keys(g):
        out.append(Instance(f"one NYZ {key}", pack_game.board(g, key=key), tiles, "one", "sat"))
    moved = (Board.rectangle(3, 20).cells - {(0, 0)}) | {(3, 0)}
    out.append(Instance("none 3x20 corner moved", Board(frozenset(moved)), pent, "none", "unsat"))
    return out


# ------------------------------------------------------------------ the shared matrix

def matrix(inst: Instance) -> tuple[Matrix, int]:
    """Our exact-cover matrix and the divisor that turns the peers' count into the published one.

    For counts, X is cut to one placement per orbit of the board's symmetries (divisor 1) where
    no symmetry fixes such a placement; otherwise (3x20: X sits on the middle row, which the
    flip fixes) peers count every solution and divide by the number of symmetries — exact here
    because no solution of these rectangles is symmetric."""
    p = Problem(inst.board, inst.pieces)
    m = Matrix.of(p, must_use=p.supply_area == inst.board.area)
    if inst.task != "count":
        return m, 1
    group = board_group(inst.board)
    x = next(i for i, pc in enumerate(inst.pieces) if pc.name == "X")
    reps = orbit_representatives(m, x, group)
    if any(len(stab) > 1 for _, stab in reps):
        return m, len(group)
    keep = {r for r, _ in reps}
    rows = [k for k, lab in enumerate(m.labels) if lab.piece != x or k in keep]
    return Matrix(m.items, m.n_primary, m.caps, [m.rows[k] for k in rows], [m.labels[k] for k in rows]), 1


def all_primary(m: Matrix):
    """For tools without secondary columns: one column per copy of a secondary item, each with a
    slack row that covers it alone (the copy unused)."""
    cols, rows = [], []
    copies = {}
    for i, cap in enumerate(m.caps):
        copies[i] = list(range(len(cols), len(cols) + (1 if i < m.n_primary else cap)))
        cols.extend(copies[i])
    for row in m.rows:
        sec = [i for i in row if i >= m.n_primary]
        base = [copies[i][0] for i in row if i < m.n_primary]
        if not sec:
            rows.append(base)
            continue
        j = sec[0]  # placement rows hold exactly one piece item
        for c in copies[j]:
            rows.append(base + [c])
    for i in range(m.n_primary, len(m.caps)):
        for c in copies[i]:
            rows.append([c])
    return len(cols), rows


# ------------------------------------------------------------------ engines

def ours_engine(inst: Instance, limit: float):
    """Our engine on the same prepared input as the peers: the exact-cover matrix (for counts the
    full one — our symmetry reduction runs inside the timed region)."""
    p = Problem(inst.board, inst.pieces)
    m = Matrix.of(p, must_use=p.supply_area == inst.board.area)
    group = board_group(inst.board)

    def run():
        budget = Budget(limit)
        if inst.task == "count":
            done, n = count_orbits(m, group, budget)
            return n if done else f">{limit:.0f}s ({n} found)"
        out = search(m, budget, keep=1, stop_at=1)
        return "sat" if out.count else "unsat" if out.complete else "unknown"
    return run


def ours_end_to_end(inst: Instance, limit: float):
    """Everything a user waits for: placements, refutations, search, certification."""
    def run():
        if inst.task == "count":
            r = solve(inst.board, inst.pieces, mode="count", up_to_symmetry=True, timeout=limit)
            return r.count if r.exact else f">{limit:.0f}s ({r.count} found)"
        return solve(inst.board, inst.pieces, timeout=limit).verdict
    return run


def exact_cover_pkg(inst: Instance, m: Matrix, div: int, limit: float):
    import numpy as np
    import exact_cover
    from exact_cover.error import NoSolution

    n, rows = all_primary(m)
    a = np.zeros((len(rows), n), dtype=np.int32)
    for k, row in enumerate(rows):
        a[k, row] = 1

    def run():
        if inst.task == "count":
            return int(exact_cover.get_solution_count(a)) // div
        try:
            exact_cover.get_exact_cover(a)
            return "sat"
        except NoSolution:
            return "unsat"
    return run


def polyomino_pkg(inst: Instance, m: Matrix, div: int, limit: float):
    from exact_cover import get_solution_count
    from polyomino.board import Irregular
    from polyomino.problem import TilingProblem
    from polyomino.tileset import Tileset

    tiles = [[(c, r) for r, c in p.shape.cells] for p in inst.pieces for _ in range(p.count)]
    must = sum(len(t) for t in tiles) == inst.board.area
    ts = Tileset(tiles if must else [], [] if must else tiles, [], reflections=True)
    prob = TilingProblem(Irregular([(c, r) for r, c in sorted(inst.board.cells)]), ts)
    prob.make_problem()

    def run():
        if inst.task == "count":  # polyomino has no symmetry restriction: all solutions / 4
            return int(get_solution_count(prob.array)) // 4
        return "sat" if prob.solve() is not None else "unsat"
    return run


def cpsat(inst: Instance, m: Matrix, div: int, limit: float):
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{k}") for k in range(len(m.rows))]
    by_item = [[] for _ in m.caps]
    for k, row in enumerate(m.rows):
        for i in row:
            by_item[i].append(x[k])
    for i, vs in enumerate(by_item):
        if i < m.n_primary:
            model.AddExactlyOne(vs)
        elif len(vs) > m.caps[i]:
            model.Add(sum(vs) <= m.caps[i])

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1

    def run():
        s = cp_model.CpSolver()
        s.parameters.max_time_in_seconds = limit
        s.parameters.num_workers = 1 if inst.task == "count" else 2
        if inst.task == "count":
            s.parameters.enumerate_all_solutions = True
            cb = Counter()
            st = s.Solve(model, cb)
            return cb.n // div if st == cp_model.OPTIMAL else f">{limit:.0f}s ({cb.n} found)"
        st = s.Solve(model)
        return {cp_model.OPTIMAL: "sat", cp_model.FEASIBLE: "sat", cp_model.INFEASIBLE: "unsat"}.get(st, "unknown")
    return run


def z3_plain(inst: Instance, m: Matrix, div: int, limit: float):
    import z3

    x = [z3.Bool(f"x{k}") for k in range(len(m.rows))]
    by_item = [[] for _ in m.caps]
    for k, row in enumerate(m.rows):
        for i in row:
            by_item[i].append(x[k])
    cons = []
    for i, vs in enumerate(by_item):
        lits = [(v, 1) for v in vs]
        if i < m.n_primary:
            cons.append(z3.PbEq(lits, 1))
        elif len(vs) > m.caps[i]:
            cons.append(z3.PbLe(lits, m.caps[i]))

    def run():
        s = z3.Solver()
        s.add(cons)
        end = time.monotonic() + limit
        n = 0
        while True:
            s.set("timeout", max(1, int((end - time.monotonic()) * 1000)))
            r = s.check()
            if inst.task != "count":
                return "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
            if r == z3.unsat:
                return n // div
            if r != z3.sat:
                return f">{limit:.0f}s ({n} found)"
            n += 1
            mod = s.model()
            s.add(z3.Or([z3.Not(v) for v in x if z3.is_true(mod.eval(v, model_completion=True))]))
    return run


PEERS = {"exact-cover": exact_cover_pkg, "polyomino": polyomino_pkg, "cp-sat": cpsat, "z3": z3_plain}


def available() -> dict:
    out = {}
    for name, mod in (("exact-cover", "exact_cover"), ("polyomino", "polyomino"), ("cp-sat", "ortools"), ("z3", "z3")):
        try:
            __import__(mod)
            out[name] = PEERS[name]
        except ImportError as e:
            print(f"# {name}: not installed ({e}); skipped", file=sys.stderr)
    return out


def expected(inst: Instance, answer) -> bool:
    if inst.task == "count":
        return answer == inst.expect
    return answer == inst.expect


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per run for engines that can stop")
    ap.add_argument("--only", help="only instances whose name contains this")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    peers = available()
    rows = []
    for inst in instances():
        if args.only and args.only not in inst.name:
            continue
        m, div = matrix(inst)
        runners = {"zoospec": ours_engine(inst, args.limit), "zoospec e2e": ours_end_to_end(inst, args.limit)}
        for name, make in peers.items():
            try:
                runners[name] = make(inst, m, div, args.limit)
            except Exception as e:  # a peer that cannot pose this question
                print(f"# {inst.name}: {name} cannot run it: {e}", file=sys.stderr)
        times = {n: [] for n in runners}
        answers = {}
        for _ in range(args.repeats):
            for name, run in runners.items():  # interleaved
                if isinstance(answers.get(name), str) and answers[name].startswith(">"):
                    continue  # hit the limit once; do not repeat it
                t = time.perf_counter()
                answers[name] = run()
                times[name].append(time.perf_counter() - t)
        row = {"instance": inst.name, "expect": inst.expect, "engines": {}}
        for name in runners:
            med = statistics.median(times[name])
            ok = expected(inst, answers[name])
            row["engines"][name] = {"seconds": round(med, 4), "answer": answers[name], "correct": ok}
        for ours in ("zoospec", "zoospec e2e"):
            assert row["engines"][ours]["correct"], f"{ours} answered {answers[ours]} on {inst.name}"
        good_peers = [v["seconds"] for n, v in row["engines"].items() if not n.startswith("zoospec") and v["correct"]]
        row["ratio"] = round(row["engines"]["zoospec"]["seconds"] / min(good_peers), 3) if good_peers else None
        rows.append(row)
        if not args.json:
            cells = "  ".join(f"{n}={v['seconds']:.3f}{'' if v['correct'] else '(' + str(v['answer']) + ')'}"
                              for n, v in row["engines"].items())
            print(f"{inst.name:32s} {cells}  ratio={row['ratio']}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
