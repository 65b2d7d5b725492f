"""The puzzle's bound and the core it names (solvers/puzzle/search.py), on a puzzle small enough to
read: tests/specs/bound.yaml, two pieces worth 0-3 whose total of 6 — the target — needs both at
their best, and a bound keeping the total within the deal's cap. With Yices (asked first, then Z3),
each goal is asked alone before the bound's own question (`failing_goal`); the verdicts and cores
must be those of Z3 alone, which asks the bound's question first."""
import time

import pytest
import z3
from conftest import ROOT

from zoospec import load
from zoospec.engines import yices
from zoospec.solvers.puzzle import search as puzzle

SPEC = str(ROOT / "tests" / "specs" / "bound.yaml")
needs_yices = pytest.mark.skipif(not yices.available(), reason="Yices is not installed (the [yices] extra)")

# (cap, bmax, even) -> verdict and core: a 3 on either piece breaks a cap of 2 by itself (the first
# goal that fails alone starts the core); a second cap of 2 breaks the second goal alone; a cap of
# 4 breaks only both at once; a cap of 6 leaves it to bnd.even, outside the bound, whose core names
# the goals alone.
CASES = [((2, 3, True), "unreachable", ["bnd.a", "bnd.cap"]), ((6, 2, True), "unreachable", ["bnd.b", "bnd.cap"]),
         ((4, 3, True), "unreachable", ["bnd.a", "bnd.b", "bnd.cap"]), ((6, 3, False), "unreachable", ["bnd.a", "bnd.b"]),
         ((6, 3, True), "reachable", [])]


def _deal(cap, bmax=3, even=True):
    return {"cap": cap, "bmax": bmax, "even": even}


@pytest.mark.parametrize("engine", ["z3", pytest.param("auto", marks=needs_yices)])
@pytest.mark.parametrize("deal, status, core", CASES)
def test_the_bound_names_the_same_core_with_yices_or_not(monkeypatch, engine, deal, status, core):
    monkeypatch.setenv("ZOOSPEC_ENGINE", engine)
    g = load(SPEC)
    v = puzzle.solve(g, _deal(*deal), timeout=60)
    assert (v.status, v.core) == (status, core)
    if status == "reachable":
        assert puzzle.certify(g, v.record) == [] and puzzle.score_of(g, v.record) == 6


def _bound_asked(monkeypatch):
    asked = []
    real = puzzle.ask_bound
    monkeypatch.setattr(puzzle, "ask_bound", lambda *a: asked.append(1) or real(*a))
    return asked


@needs_yices
def test_a_goal_failing_alone_spares_the_bounds_own_question(monkeypatch):
    """With Yices, a cap of 2: the first goal fails alone with the bound's rules, and the target
    needs it (the scoring rule alone says so), so the target is ruled out without asking it."""
    asked, said = _bound_asked(monkeypatch), []
    v = puzzle.solve(load(SPEC), _deal(2), timeout=60, progress=said.append)
    assert (v.status, v.core, asked) == ("unreachable", ["bnd.a", "bnd.cap"], [])
    assert "the target needs bnd.a, which the bound's rules alone rule out" in said


@pytest.mark.parametrize("engine, target", [("z3", 6), pytest.param("auto", 5, marks=needs_yices)])
def test_goals_are_not_asked_alone_first_without_yices_or_unless_needed(monkeypatch, engine, target):
    """Z3 alone asks the bound's question first (the goals one by one would cost every winnable
    deal a check each); so it does when a total of 5 leaves room for a piece below its best."""
    monkeypatch.setenv("ZOOSPEC_ENGINE", engine)
    asked = _bound_asked(monkeypatch)
    prob = puzzle._Problem(load(SPEC), _deal(2))
    assert puzzle.failing_goal(prob, target, time.monotonic() + 60, lambda m: None) is None
    v = puzzle.solve(prob.game, _deal(2), target=target, timeout=60)
    assert v.status == "unreachable" and asked == [1] and v.core[-1] == "bnd.cap"
    assert puzzle.ask_bound(prob, target, time.monotonic() + 60) == z3.unsat


def test_minimal_core_keeps_a_minimal_sublist():
    """The core's deletion: dropping chunks, then single items; every kept item is needed."""
    def still_unsat(trial):
        return {"b", "e"} <= set(trial) or {"a", "f", "g"} <= set(trial)
    dropped = []
    core = puzzle.minimal_core(list("abcdefgh"), still_unsat, dropped.append)
    assert core == ["b", "e"] and sorted(x for d in dropped for x in d) == list("acdfgh")
    assert puzzle.minimal_core(list("afg"), still_unsat) == list("afg")
