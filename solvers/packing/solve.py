"""Packing polyominoes on a board: find one, count all, list some, prove none, fill the most.

`solve(board, pieces, ...)` is the front door. It refuses hopeless boards with cheap necessary
conditions first (solvers/packing/bounds.py), then runs the exact-cover engine (dancing links,
solvers/packing/xcover.py) — or Z3 (solvers/packing/z3_model.py) when side constraints are posed. Every packing
it returns has been re-checked against spec/packing/rules.yaml by the Python back end.
"""
from __future__ import annotations

from typing import Callable

import z3

from ..results import Count, Sat, Unknown, Unsat
from .bounds import refute
from .certify import Vocabulary, certify, vocabulary
from .matrix import GAP, Matrix
from .model import Board, Options, Packing, Piece, Problem
from .search import Budget, run
from .symmetry import board_group, canonical, count_orbits
from .z3_model import Z3Packing, remaining

MODES = ("one", "count", "all")


# a spec's range domain holds at most this many values (front/), and Z3's encoding has a part per placement
MOST_PARTS = 100_000


class PackingError(ValueError):
    """A question the engines cannot pose (reported to the user, not a verdict)."""


def solve(board: Board, pieces: list[Piece], *, mode: str = "one", limit: int = 10, exact: bool = True,
          use_all: bool = False, mirror: bool = True, up_to_symmetry: bool = False,
          constraints: str | None = None, engine: str = "auto", timeout: float | None = None,
          progress: Callable[[dict], None] | None = None, stop=None):
    """Answer one packing question.

    mode: "one" (a packing, or a proof there is none), "count" (how many), "all" (list up to
    `limit`). exact: every cell covered; else coverage is maximised. use_all: every copy of every
    piece laid. constraints: a YAML file of side constraints in the rule language (forces Z3).
    stop: a threading.Event; once set, the exact-cover search stops as at its deadline (what was
    found stands: a lower bound, a packing, or Unknown), and the stats say "interrupted".
    Returns Sat | Unsat | Unknown for "one", Count (exact or a lower bound) otherwise.
    """
    if mode not in MODES:
        raise PackingError(f"mode must be one of {', '.join(MODES)}")
    if engine not in ("auto", "dlx", "z3"):
        raise PackingError("engine must be auto, dlx or z3")
    if constraints and engine == "dlx":
        raise PackingError("side constraints need the Z3 engine")
    if up_to_symmetry and (constraints or engine == "z3"):
        raise PackingError("--up-to-symmetry is answered by the exact-cover engine, without side constraints")
    problem = Problem(board, pieces, Options(exact=exact, use_all=use_all, mirror=mirror))
    budget = Budget(timeout, progress, stop)
    reason = refute(problem)  # before anything is compiled: an impossible area answers at once
    if reason is not None:
        stats = {**budget.stats(), "proof": "necessary condition"}
        return Unsat(reason, stats) if mode == "one" else Count(0, True, [], stats)
    use_z3 = engine == "z3" or bool(constraints)
    if use_z3:  # Z3 numbers a laid piece by its placement: one part per placement
        if len(problem.placements) > MOST_PARTS:
            raise PackingError(f"this question has {len(problem.placements):,} placements; the Z3 engine (side constraints, "
                               f"--engine z3) takes at most {MOST_PARTS:,} — the exact-cover engine has no such limit")
        return _z3(problem, vocabulary(problem, constraints, parts=max(len(problem.placements), 1)), mode, limit, budget)
    # exact cover: a witness numbers the pieces it lays, at most one per copy and per cell
    laid = min(sum(p.count for p in pieces), board.area)
    return _dlx(problem, vocabulary(problem, None, parts=max(laid, 1)), mode, limit, up_to_symmetry, budget)


def _packing(problem: Problem, vocab: Vocabulary, placed) -> Packing:
    return certify(vocab, Packing(problem, tuple(p for p in placed if p.piece != GAP)))


# ---------------------------------------------------------------------------------- exact cover

def _dlx(problem, vocab, mode, limit, up_to_symmetry, budget):
    o = problem.options
    must_use = o.use_all or (o.exact and problem.supply_area == problem.board.area)
    group = board_group(problem.board, o.mirror) if up_to_symmetry else [None]
    if o.exact:
        return _dlx_fixed(problem, vocab, Matrix.of(problem, must_use=must_use), mode, limit, group, budget)
    # gaps allowed: the fewest empty cells g is the first g for which a packing exists
    g = problem.board.area - problem.supply_area if o.use_all else max(0, problem.board.area - problem.supply_area)
    while True:
        m = Matrix.of(problem, gaps=g, must_use=must_use)
        probe = run(m, budget, keep=1, stop_at=1)
        if not probe.complete:
            return Unknown(f"{budget.why()} while looking for a packing leaving {g} cells empty "
                           f"(none leaves fewer)", budget.stats()) if mode == "one" else \
                Count(0, False, [], budget.stats())
        if probe.count:
            if mode == "one":
                return Sat(_packing(problem, vocab, probe.solutions[0]), True, {**budget.stats(), "empty_cells": g})
            res = _dlx_fixed(problem, vocab, m, mode, limit, group, budget)
            res.stats["empty_cells"] = g
            return res
        if o.use_all or g >= problem.board.area:
            return Unsat("exhaustive search: the pieces cannot all be laid" if o.use_all else "no packing", budget.stats()) \
                if mode == "one" else Count(0, True, [], budget.stats())
        g += 1


def _dlx_fixed(problem, vocab, m, mode, limit, group, budget):
    if mode == "one":
        out = run(m, budget, keep=1, stop_at=1)
        if out.count:
            return Sat(_packing(problem, vocab, out.solutions[0]), True, budget.stats())
        if out.complete:
            return Unsat("exhaustive search: no packing exists", budget.stats())
        return Unknown(f"{budget.why()} before the search finished", budget.stats())
    if mode == "count":
        if len(group) > 1:
            done, n = count_orbits(m, group, budget)
            return Count(n, done, [], {**budget.stats(), "symmetries": len(group)})
        out = run(m, budget)
        return Count(out.count, out.complete, [], budget.stats())
    # mode == "all": up to `limit` packings (one per symmetry class when a group is given)
    if len(group) > 1:
        out = run(m, budget, keep=1 << 62)
        classes: dict = {}
        for sol in out.solutions:
            classes.setdefault(canonical([p for p in sol if p.piece != GAP], group), sol)
        wit = [_packing(problem, vocab, sol) for sol in list(classes.values())[:limit]]
        more = len(classes) > limit if out.complete else None
        return Count(len(wit), more is not None, wit, {**budget.stats(), "symmetries": len(group)}, more)
    out = run(m, budget, keep=limit, stop_at=limit + 1)
    wit = [_packing(problem, vocab, s) for s in out.solutions]
    more = True if out.count > limit else (False if out.complete else None)
    return Count(len(wit), more is not None, wit, budget.stats(), more)


# ---------------------------------------------------------------------------------- Z3

def _z3(problem, vocab, mode, limit, budget):
    deadline = None if budget.timeout is None else budget.started + budget.timeout
    enc = Z3Packing(problem, vocab)

    def stats(**more):
        return {**budget.stats(), "engine": "z3", **more}

    if mode == "one":
        s = enc.solver(remaining(deadline), optimize=not problem.options.exact)
        if not problem.options.exact:
            s.maximize(enc.coverage())
        r = s.check()
        if r == z3.sat:
            pk = _packing(problem, vocab, enc.decode(s.model()).placed)
            return Sat(pk, True, stats() if problem.options.exact else stats(empty_cells=problem.board.area - pk.covered))
        if r == z3.unsat:
            return Unsat("Z3: unsatisfiable", stats())
        return Unknown(f"Z3: {s.reason_unknown()}", stats())
    best = None
    if not problem.options.exact:  # count/list the fullest packings: fix the coverage first
        first = _z3(problem, vocab, "one", limit, budget)
        if not isinstance(first, Sat):
            return Count(0, isinstance(first, Unsat), [], stats())
        best = first.witness.covered
    s = enc.solver(None)
    if best is not None:
        s.add(enc.coverage() == best)
    n, wit = 0, []
    while True:
        left = remaining(deadline)
        if left is not None:
            s.set("timeout", max(1, int(left * 1000)))
        r = s.check()
        if r != z3.sat:
            done = r == z3.unsat
            return Count(n, done, wit, stats(), (False if done else None) if mode == "all" else None)
        if mode == "all" and n == limit:
            return Count(n, True, wit, stats(), True)
        model = s.model()
        n += 1
        budget.solutions += 1
        budget.tick()
        if mode == "all":
            wit.append(_packing(problem, vocab, enc.decode(model).placed))
        s.add(enc.block(model))
